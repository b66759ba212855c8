//! The hosted form service's judgement of a submission as its protocol shows it
//! (`errors` or `error`, else `next`), so sign-up can be tried offline.

use serde::Serialize;

use super::form_body::Field;
use crate::islands::contact::REQUIRED_FIELDS;

pub const HONEYPOT: &str = "_gotcha";

/// Checked to be an email address.
pub const EMAIL_FIELD: &str = "email";

/// A field error when `field` is set, else a form error. Messages read after
/// the field's name ("Email should be an email").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServiceError {
    pub code: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejection {
    #[serde(skip)]
    pub status: u16,
    pub error: String,
    pub errors: Vec<ServiceError>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Accepted,
    /// Answered like a success, then dropped.
    Spam,
    Rejected(Rejection),
}

pub fn form_not_found() -> Rejection {
    Rejection {
        status: 404,
        error: "Form not found".into(),
        errors: vec![ServiceError {
            code: "FORM_NOT_FOUND",
            field: None,
            message: "Form not found".into(),
        }],
    }
}

pub fn judge(fields: &[Field]) -> Verdict {
    let value = |name: &str| {
        fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.value.trim())
    };
    if value(HONEYPOT).is_some_and(|v| !v.is_empty()) {
        return Verdict::Spam;
    }
    let form_error = |code, message: &str| {
        invalid(vec![ServiceError {
            code,
            field: None,
            message: message.into(),
        }])
    };
    if fields
        .iter()
        .any(|f| f.file_name.as_deref().is_some_and(|n| !n.is_empty()))
    {
        return form_error("NO_FILE_UPLOADS", "does not accept file uploads");
    }
    let filled = fields
        .iter()
        .any(|f| !f.name.starts_with('_') && !f.value.trim().is_empty());
    if !filled {
        return form_error("EMPTY", "is empty");
    }
    let mut errors = Vec::new();
    // The service enforces the fields its settings require; the stand-in
    // assumes the island's required ones, from the same list.
    for name in REQUIRED_FIELDS.iter().map(|field| field.name()) {
        let code = match value(&name) {
            None => "REQUIRED_FIELD_MISSING",
            Some("") => "REQUIRED_FIELD_EMPTY",
            Some(_) => continue,
        };
        errors.push(ServiceError {
            code,
            field: Some(name),
            message: "is required".into(),
        });
    }
    if value(EMAIL_FIELD).is_some_and(|e| !e.is_empty() && !crate::content::values::is_email(e)) {
        errors.push(ServiceError {
            code: "TYPE_EMAIL",
            field: Some(EMAIL_FIELD.into()),
            message: "should be an email".into(),
        });
    }
    if errors.is_empty() {
        Verdict::Accepted
    } else {
        invalid(errors)
    }
}

fn invalid(errors: Vec<ServiceError>) -> Verdict {
    Verdict::Rejected(Rejection {
        status: 422,
        error: "Validation errors".into(),
        errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::islands::contact::ContactField;

    fn complete_values() -> [(&'static str, &'static str); 10] {
        [
            ("firstName", "Ada"),
            ("lastName", "Lovelace"),
            ("address", "1 Main St"),
            ("city", "Brookings"),
            ("state", "SD"),
            ("zip", "57006"),
            ("email", "ada@example.com"),
            ("phone", "605-555-0142"),
            ("promotion", "None"),
            ("_gotcha", ""),
        ]
    }

    fn complete() -> Vec<Field> {
        complete_values()
            .into_iter()
            .map(|(n, v)| Field::text(n, v))
            .collect()
    }

    fn with(name: &str, value: &str) -> Vec<Field> {
        let mut fields: Vec<Field> = complete().into_iter().filter(|f| f.name != name).collect();
        fields.push(Field::text(name, value));
        fields
    }

    fn codes(verdict: Verdict) -> Vec<(&'static str, Option<String>)> {
        match verdict {
            Verdict::Rejected(r) => r.errors.into_iter().map(|e| (e.code, e.field)).collect(),
            other => panic!("expected a rejection, got {other:?}"),
        }
    }

    #[test]
    fn exactly_the_fields_the_contact_island_marks_required_are_required() {
        for (name, _) in complete_values() {
            let without: Vec<Field> = complete().into_iter().filter(|f| f.name != name).collect();
            let required = REQUIRED_FIELDS.iter().any(|field| field.name() == name);
            if required {
                assert_eq!(
                    codes(judge(&without)),
                    [("REQUIRED_FIELD_MISSING", Some(name.to_string()))],
                    "{name}"
                );
            } else {
                assert_eq!(judge(&without), Verdict::Accepted, "{name}");
            }
        }
        assert!(!REQUIRED_FIELDS.is_empty());
        for field in REQUIRED_FIELDS {
            assert!(
                complete_values()
                    .iter()
                    .any(|(name, _)| *name == field.name()),
                "a complete sign-up has no {field:?}"
            );
        }
        assert_eq!(EMAIL_FIELD, ContactField::Email.name());
    }

    #[test]
    fn a_filled_honeypot_passes_for_success() {
        assert_eq!(judge(&[Field::text("_gotcha", "x")]), Verdict::Spam);
    }

    #[test]
    fn email_must_look_like_one() {
        for bad in [
            "ada",
            "ada@",
            "@example.com",
            "ada@example",
            "a b@example.com",
            "a@b@c.com",
            "a@.com",
            "a@b..com",
        ] {
            assert_eq!(
                codes(judge(&with("email", bad))),
                [("TYPE_EMAIL", Some("email".into()))],
                "{bad}"
            );
        }
        for good in ["a@b.co", "first.last+tag@sub.example.org"] {
            assert_eq!(judge(&with("email", good)), Verdict::Accepted, "{good}");
        }
    }

    #[test]
    fn empty_forms_and_missing_fields() {
        assert_eq!(codes(judge(&[])), [("EMPTY", None)]);
        assert_eq!(
            codes(judge(&[
                Field::text("firstName", "  "),
                Field::text("_gotcha", "")
            ])),
            [("EMPTY", None)]
        );
        let empty_email = codes(judge(&with("email", "")));
        assert_eq!(
            empty_email,
            [("REQUIRED_FIELD_EMPTY", Some("email".into()))]
        );
    }

    #[test]
    fn file_uploads_are_refused() {
        let files = vec![Field {
            name: "doc".into(),
            value: "x".into(),
            file_name: Some("a.txt".into()),
        }];
        assert_eq!(codes(judge(&files)), [("NO_FILE_UPLOADS", None)]);
    }
}
