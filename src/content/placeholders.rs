//! `{name}` placeholders in content text, filled from business.yaml and
//! plans.yaml so no figure is typed twice. [`PLACEHOLDERS`] is their one list:
//! the names allowed, the message for an unknown one, and the list at the top
//! of content/home.yaml ([`comment`]) come from it. It knows no content type,
//! so value types can check text against it; `placeholder_values` computes the values.

pub use super::fill::find;

/// A placeholder: its name, what it stands for (as authors read it), its kind.
pub struct Placeholder {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: Kind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    /// Lowercase, capitalised where a sentence starts.
    Phrase,
    /// Months, defined only when the annual price is a whole number of monthly payments.
    WholeMonths,
}

/// Every placeholder, in the order authors read them. Checked while loading, so
/// a typo is reported at its line.
pub const PLACEHOLDERS: &[Placeholder] = &[
    Placeholder {
        name: "business_name",
        description: "the business's name (business.yaml: name)",
        kind: Kind::Text,
    },
    Placeholder {
        name: "phone",
        description: "the phone number as shown (business.yaml: phone)",
        kind: Kind::Text,
    },
    Placeholder {
        name: "email",
        description: "the email address (business.yaml: email)",
        kind: Kind::Text,
    },
    Placeholder {
        name: "city",
        description: "the city (business.yaml: city)",
        kind: Kind::Text,
    },
    Placeholder {
        name: "region",
        description: "the state (business.yaml: region)",
        kind: Kind::Text,
    },
    Placeholder {
        name: "service_area",
        description: "where the business serves (business.yaml: service_area)",
        kind: Kind::Text,
    },
    Placeholder {
        name: "monthly_price",
        description: "the monthly plan's price, such as $25 (plans.yaml)",
        kind: Kind::Text,
    },
    Placeholder {
        name: "annual_price",
        description: "the annual plan's price, such as $250 (plans.yaml)",
        kind: Kind::Text,
    },
    Placeholder {
        name: "annual_saving",
        description: "twelve monthly payments less the annual price, such as $50",
        kind: Kind::Text,
    },
    Placeholder {
        name: "free_months",
        description: "the months the annual plan gives free, such as 2",
        kind: Kind::WholeMonths,
    },
    Placeholder {
        name: "paid_months",
        description: "the months the annual price pays for, such as 10",
        kind: Kind::WholeMonths,
    },
    Placeholder {
        name: "annual_deal",
        description: "\"pay for 10 months, get 2 free\" with whole months, else \"save $60 a year\"",
        kind: Kind::Phrase,
    },
    Placeholder {
        name: "annual_deal_short",
        description: "the same for a label: \"2 months free\", or \"save $60 a year\"",
        kind: Kind::Phrase,
    },
    Placeholder {
        name: "evening_route_start",
        description: "when the evening route starts (business.yaml: schedule)",
        kind: Kind::Text,
    },
    Placeholder {
        name: "holiday_notice_hours",
        description: "the hours of notice before a holiday (business.yaml: schedule)",
        kind: Kind::Text,
    },
];

pub fn names() -> Vec<&'static str> {
    PLACEHOLDERS.iter().map(|p| p.name).collect()
}

fn is_known(name: &str) -> bool {
    PLACEHOLDERS.iter().any(|p| p.name == name)
}

pub fn needs_whole_months(name: &str) -> bool {
    PLACEHOLDERS
        .iter()
        .any(|p| p.name == name && p.kind == Kind::WholeMonths)
}

pub const COMMENT_HEADING: &str =
    "# Text may use these placeholders, filled in from business.yaml and plans.yaml:";

const WHOLE_MONTHS_MARK: &str = "*";

/// The placeholders as YAML comment lines for authors: content/home.yaml starts
/// with exactly this.
pub fn comment() -> String {
    let width = PLACEHOLDERS
        .iter()
        .map(|p| p.name.len() + 2)
        .max()
        .unwrap_or_default();
    let mut out = format!("{COMMENT_HEADING}\n");
    for placeholder in PLACEHOLDERS {
        let name = format!("{{{}}}", placeholder.name);
        let mark = match placeholder.kind {
            Kind::WholeMonths => format!(" {WHOLE_MONTHS_MARK}"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "#   {name:<width$}  {}{mark}\n",
            placeholder.description
        ));
    }
    if PLACEHOLDERS.iter().any(|p| p.kind == Kind::WholeMonths) {
        out.push_str(&format!(
            "#   {WHOLE_MONTHS_MARK} only when the annual price is a whole number of monthly payments\n"
        ));
    }
    out
}

/// With its byte offset.
pub fn first_unknown(text: &str) -> Option<(usize, &str)> {
    find(text).find(|(_, name)| !is_known(name))
}

pub fn unknown_message(name: &str) -> (String, String) {
    let names = names();
    let known: Vec<String> = names.iter().map(|n| format!("{{{n}}}")).collect();
    let known = known.join(", ");
    let help = match super::spelling::closest(name, &names) {
        Some(near) => format!("did you mean `{{{near}}}`? The placeholders are {known}"),
        None => format!("use one of {known}"),
    };
    (format!("unknown placeholder `{{{name}}}`"), help)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_named_once_and_listed_for_authors() {
        let names = names();
        let comment = comment();
        for (at, name) in names.iter().enumerate() {
            assert!(!names[..at].contains(name), "{name} twice");
            assert_eq!(find(&format!("{{{name}}}")).count(), 1, "{name}");
            let line = format!("#   {{{name}}} ");
            assert_eq!(comment.matches(&line).count(), 1, "{name}: {comment}");
        }
        assert_eq!(comment.lines().count(), names.len() + 2);
        assert!(comment.starts_with(COMMENT_HEADING));
        assert!(needs_whole_months("free_months"));
        assert!(!needs_whole_months("annual_deal"));
    }

    #[test]
    fn finds_unknown_names_with_offset() {
        assert_eq!(first_unknown("a {phone} b {phnoe}"), Some((12, "phnoe")));
        assert_eq!(first_unknown("{phone}"), None);
    }
}
