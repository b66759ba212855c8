//! What the form stand-in accepted: a JSON line each in
//! `.curbside/submissions.jsonl` (git ignores it), and a terminal line with
//! what the client sent escaped. Nothing is sent anywhere.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use serde_json::{Map, Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::form_body::Field;
use super::form_validation::{EMAIL_FIELD, HONEYPOT};
use crate::diagnostics::{Diagnostic, Result};

pub struct Submissions {
    path: PathBuf,
    /// One whole line at a time, however many posts.
    writing: Mutex<()>,
}

impl Submissions {
    pub fn new(path: PathBuf) -> Submissions {
        Submissions {
            path,
            writing: Mutex::new(()),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn record(&self, form_id: &str, fields: &[Field]) -> Result<()> {
        let line = format!("{}\n", entry(form_id, fields, OffsetDateTime::now_utc()));
        let _guard = self.writing.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(parent) = self.path.parent() {
            std::fs::create_dir_all(parent).map_err(|err| Diagnostic::io("create", parent, err))?;
        }
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .and_then(|mut file| file.write_all(line.as_bytes()))
            .map_err(|err| Diagnostic::io("append to", &self.path, err))
    }
}

/// `{"received_at": …, "form": …, "fields": {…}}`; a name posted twice keeps
/// its values joined by ", ", as the service lists them.
fn entry(form_id: &str, fields: &[Field], at: OffsetDateTime) -> Value {
    let mut values = Map::new();
    for field in fields.iter().filter(|f| f.name != HONEYPOT) {
        match values.get_mut(&field.name) {
            Some(Value::String(existing)) => {
                existing.push_str(", ");
                existing.push_str(&field.value);
            }
            _ => {
                values.insert(field.name.clone(), Value::String(field.value.clone()));
            }
        }
    }
    json!({
        "received_at": at.format(&Rfc3339).unwrap_or_default(),
        "form": form_id,
        "fields": values,
    })
}

/// The terminal's line for a post: `sign-up for form abc: annual plan ($250
/// yearly), ZIP 57006, ada@example.com (12 fields): saved to …`, every value
/// escaped and cut short, so it stays one harmless line.
pub fn summary(form_id: &str, fields: &[Field], outcome: &str) -> String {
    let value = |name: &str| {
        fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.value.trim())
            .filter(|v| !v.is_empty())
            .map(shown)
    };
    let plan = match (
        value("plan_type"),
        value("plan_amount"),
        value("billing_frequency"),
    ) {
        (Some(plan), Some(amount), Some(frequency)) => {
            format!("{plan} plan (${amount} {frequency})")
        }
        (Some(plan), _, _) => format!("{plan} plan"),
        _ => "no plan".to_string(),
    };
    let zip = value("zip").map_or("no ZIP".to_string(), |zip| format!("ZIP {zip}"));
    let email = value(EMAIL_FIELD).unwrap_or_else(|| "no email".to_string());
    let count = fields.iter().filter(|f| !f.name.starts_with('_')).count();
    let plural = if count == 1 { "" } else { "s" };
    format!("sign-up for form {form_id}: {plan}, {zip}, {email} ({count} field{plural}): {outcome}")
}

/// In characters.
const SHOWN_CHARS: usize = 60;

fn shown(value: &str) -> String {
    let mut chars = value.chars();
    let head: String = chars.by_ref().take(SHOWN_CHARS).collect();
    let cut = if chars.next().is_some() { "…" } else { "" };
    format!("{}{cut}", printable(&head))
}

/// `text` safe on one terminal line: control characters (line breaks, escape
/// sequences, bell) and invisible reordering marks shown as escapes,
/// backslashes and quotes escaped, so no escape shown is one sent.
pub fn printable(text: &str) -> String {
    text.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_holds_the_fields_but_the_honeypot() {
        let fields = [
            Field::text("email", "a@b.co"),
            Field::text("_gotcha", ""),
            Field::text("tag", "x"),
            Field::text("tag", "y"),
        ];
        let at = OffsetDateTime::from_unix_timestamp(1_756_080_000).unwrap();
        assert_eq!(
            entry("abc", &fields, at),
            json!({
                "received_at": "2025-08-25T00:00:00Z",
                "form": "abc",
                "fields": { "email": "a@b.co", "tag": "x, y" },
            })
        );
    }

    #[test]
    fn what_a_client_sent_prints_as_one_harmless_line() {
        let email = "a@b.co\u{1b}]0;pwned\u{7}\u{1b}[2J\nerror: fake\r\\n\u{202e}";
        let line = summary("abc", &[Field::text("email", email)], "saved");
        assert_eq!(
            line,
            "sign-up for form abc: no plan, no ZIP, a@b.co\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\nerror: fake\\r\\\\n\\u{202e} (1 field): saved"
        );
        assert!(!line.chars().any(char::is_control));
        assert_eq!(printable("Ada Lovelace é"), "Ada Lovelace é");
        assert_eq!(printable("\u{200e}O'Brien"), "\\u{200e}O\\'Brien");
    }

    #[test]
    fn a_sign_up_prints_its_plan_and_zip() {
        let fields = [
            Field::text("firstName", "Ada"),
            Field::text("zip", " 57006 "),
            Field::text("email", "ada@example.com"),
            Field::text("plan_type", "annual"),
            Field::text("plan_amount", "250"),
            Field::text("billing_frequency", "yearly"),
            Field::text("_gotcha", ""),
        ];
        assert_eq!(
            summary("abc", &fields, "saved"),
            "sign-up for form abc: annual plan ($250 yearly), ZIP 57006, ada@example.com (6 fields): saved"
        );
        let long = "9".repeat(200);
        let line = summary("abc", &[Field::text("zip", &long)], "refused");
        assert!(
            line.contains(&format!("ZIP {}…,", "9".repeat(60))),
            "{line}"
        );
    }
}
