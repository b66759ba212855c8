//! `{name}` placeholders in content text, filled from business.yaml and
//! plans.yaml so that no figure is typed twice.
//!
//! [`PLACEHOLDERS`] is the one list of them: each name with what it stands
//! for and how its value is computed. The names a text may use, the values
//! filled in, the message for an unknown name and the list content authors
//! read at the top of content/home.yaml ([`comment`]; the `placeholders` test
//! keeps that file's copy the same) all come from it.

use std::collections::BTreeMap;

use super::model::{Business, Plans};
use super::{Derived, WholeMonths};

/// One placeholder: its name (written `{name}`), what it stands for, as
/// content authors read it, and how its value is computed.
pub struct Placeholder {
    pub name: &'static str,
    pub description: &'static str,
    value: Compute,
}

/// How a placeholder's value is computed from the business and the plans.
enum Compute {
    Text(fn(&Sources) -> String),
    /// A phrase written in lowercase, capitalised where a sentence starts.
    Phrase(fn(&Sources) -> String),
    /// A number of months, which only exists when the annual price is a
    /// whole number of monthly payments (see [`Derived::whole_months`]).
    WholeMonths(fn(WholeMonths) -> u32),
}

/// What placeholders' values are computed from.
pub struct Sources<'a> {
    pub business: &'a Business,
    pub plans: &'a Plans,
    pub derived: &'a Derived,
}

/// Every placeholder a site owner may use, in the order content authors
/// read them. Checked while loading, so a typo is reported at its line, and
/// filled in at the end of loading.
pub const PLACEHOLDERS: &[Placeholder] = &[
    Placeholder {
        name: "business_name",
        description: "the business's name (business.yaml: name)",
        value: Compute::Text(|s| s.business.name.as_str().to_string()),
    },
    Placeholder {
        name: "phone",
        description: "the phone number as shown (business.yaml: phone)",
        value: Compute::Text(|s| s.business.phone.display.clone()),
    },
    Placeholder {
        name: "email",
        description: "the email address (business.yaml: email)",
        value: Compute::Text(|s| s.business.email.as_str().to_string()),
    },
    Placeholder {
        name: "city",
        description: "the city (business.yaml: city)",
        value: Compute::Text(|s| s.business.city.as_str().to_string()),
    },
    Placeholder {
        name: "region",
        description: "the state (business.yaml: region)",
        value: Compute::Text(|s| s.business.region.as_str().to_string()),
    },
    Placeholder {
        name: "service_area",
        description: "where the business serves (business.yaml: service_area)",
        value: Compute::Text(|s| s.business.service_area.description.as_str().to_string()),
    },
    Placeholder {
        name: "monthly_price",
        description: "the monthly plan's price, such as $25 (plans.yaml)",
        value: Compute::Text(|s| s.plans.monthly.price.to_string()),
    },
    Placeholder {
        name: "annual_price",
        description: "the annual plan's price, such as $250 (plans.yaml)",
        value: Compute::Text(|s| s.plans.annual.price.to_string()),
    },
    Placeholder {
        name: "annual_saving",
        description: "twelve monthly payments less the annual price, such as $50",
        value: Compute::Text(|s| format!("${}", s.derived.annual_saving)),
    },
    Placeholder {
        name: "free_months",
        description: "the months the annual plan gives free, such as 2",
        value: Compute::WholeMonths(|months| months.free),
    },
    Placeholder {
        name: "paid_months",
        description: "the months the annual price pays for, such as 10",
        value: Compute::WholeMonths(|months| months.paid),
    },
    Placeholder {
        name: "annual_deal",
        description: "\"pay for 10 months, get 2 free\" with whole months, else \"save $60 a year\"",
        value: Compute::Phrase(|s| s.derived.annual_deal()),
    },
    Placeholder {
        name: "annual_deal_short",
        description: "the same for a label: \"2 months free\", or \"save $60 a year\"",
        value: Compute::Phrase(|s| s.derived.annual_deal_short()),
    },
    Placeholder {
        name: "evening_route_start",
        description: "when the evening route starts (business.yaml: schedule)",
        value: Compute::Text(|s| s.business.schedule.evening_route_start.to_string()),
    },
    Placeholder {
        name: "holiday_notice_hours",
        description: "the hours of notice before a holiday (business.yaml: schedule)",
        value: Compute::Text(|s| s.business.schedule.holiday_notice_hours.to_string()),
    },
];

/// The names of every placeholder, in [`PLACEHOLDERS`]' order.
pub fn names() -> Vec<&'static str> {
    PLACEHOLDERS.iter().map(|p| p.name).collect()
}

fn is_known(name: &str) -> bool {
    PLACEHOLDERS.iter().any(|p| p.name == name)
}

/// Whether the placeholder `name` has a value only when the annual price is
/// a whole number of monthly payments.
pub fn needs_whole_months(name: &str) -> bool {
    PLACEHOLDERS
        .iter()
        .any(|p| p.name == name && matches!(p.value, Compute::WholeMonths(_)))
}

/// The values of every placeholder for these sources: all of them, but
/// those that need whole months when the prices give none.
pub fn values(sources: &Sources) -> Values {
    let mut values = Values::default();
    for placeholder in PLACEHOLDERS {
        let name = placeholder.name;
        match placeholder.value {
            Compute::Text(text) => values.set(name, text(sources)),
            Compute::Phrase(phrase) => values.set_phrase(name, phrase(sources)),
            Compute::WholeMonths(months) => {
                if let Some(whole) = sources.derived.whole_months {
                    values.set(name, months(whole).to_string());
                }
            }
        }
    }
    values
}

/// The first line of the list of placeholders in the content files.
pub const COMMENT_HEADING: &str =
    "# Text may use these placeholders, filled in from business.yaml and plans.yaml:";

/// The mark of the placeholders that need whole months in [`comment`].
const WHOLE_MONTHS_MARK: &str = "*";

/// The list of placeholders for content authors, as YAML comment lines:
/// [`COMMENT_HEADING`], then one line for each, its name and what it stands
/// for, and a note on those that need whole months. content/home.yaml starts
/// with exactly this text.
pub fn comment() -> String {
    let width = PLACEHOLDERS
        .iter()
        .map(|p| p.name.len() + 2)
        .max()
        .unwrap_or_default();
    let mut out = format!("{COMMENT_HEADING}\n");
    for placeholder in PLACEHOLDERS {
        let name = format!("{{{}}}", placeholder.name);
        let mark = match placeholder.value {
            Compute::WholeMonths(_) => format!(" {WHOLE_MONTHS_MARK}"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "#   {name:<width$}  {}{mark}\n",
            placeholder.description
        ));
    }
    if PLACEHOLDERS
        .iter()
        .any(|p| matches!(p.value, Compute::WholeMonths(_)))
    {
        out.push_str(&format!(
            "#   {WHOLE_MONTHS_MARK} only when the annual price is a whole number of monthly payments\n"
        ));
    }
    out
}

/// The placeholders in `text`: `{` + letters, digits or `_` + `}`. Any other
/// brace is ordinary text. Yields each name with its byte offset.
pub fn find(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.match_indices('{').filter_map(move |(start, _)| {
        let rest = &text[start + 1..];
        let end = rest.find('}')?;
        let name = &rest[..end];
        let is_name =
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        is_name.then_some((start, name))
    })
}

/// The first unknown placeholder in `text`, with its byte offset.
pub fn first_unknown(text: &str) -> Option<(usize, &str)> {
    find(text).find(|(_, name)| !is_known(name))
}

/// The message for an unknown placeholder.
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

/// The values placeholders are replaced with.
#[derive(Debug, Clone, Default)]
pub struct Values(BTreeMap<&'static str, Value>);

#[derive(Debug, Clone)]
struct Value {
    text: String,
    /// A phrase written in lowercase, capitalised where a sentence starts.
    phrase: bool,
}

impl Values {
    fn set(&mut self, name: &'static str, value: impl Into<String>) {
        self.insert(name, value.into(), false);
    }

    /// A value that reads inside a sentence ("pay for 10 months, get 2
    /// free") and gets a capital letter where it starts one.
    fn set_phrase(&mut self, name: &'static str, value: impl Into<String>) {
        self.insert(name, value.into(), true);
    }

    fn insert(&mut self, name: &'static str, text: String, phrase: bool) {
        self.0.insert(name, Value { text, phrase });
    }

    /// Whether the placeholder `name` has a value.
    pub fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// `text` with every known placeholder replaced. Unknown ones were
    /// rejected when the content was loaded; any left are kept as written.
    pub fn fill(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut copied = 0;
        for (start, name) in find(text) {
            if let Some(value) = self.0.get(name) {
                out.push_str(&text[copied..start]);
                if value.phrase && starts_sentence(&text[..start]) {
                    let mut chars = value.text.chars();
                    out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                    out.push_str(chars.as_str());
                } else {
                    out.push_str(&value.text);
                }
                copied = start + name.len() + 2;
            }
        }
        out.push_str(&text[copied..]);
        out
    }
}

/// Whether text following `before` starts a sentence: at the start of the
/// text or of a Markdown list item or heading, or after a full stop,
/// question or exclamation mark (emphasis marks and an opening bracket in
/// between are skipped). A line that merely continues a paragraph does not.
fn starts_sentence(before: &str) -> bool {
    let before = before
        .trim_end()
        .trim_end_matches(['*', '_', '('])
        .trim_end();
    let line = before.rsplit('\n').next().unwrap_or(before).trim_start();
    let item_start = !line.is_empty() && line.chars().all(|c| "-*+>#".contains(c));
    before.is_empty() || item_start || before.ends_with(['.', '!', '?'])
}

/// Content whose text may hold placeholders: [`Fill::fill`] replaces them in
/// place, once, when loading ends, so nothing downstream sees a `{name}`.
pub trait Fill {
    fn fill(&mut self, values: &Values);
}

impl<T: Fill> Fill for Vec<T> {
    fn fill(&mut self, values: &Values) {
        self.iter_mut().for_each(|item| item.fill(values));
    }
}

impl<T: Fill> Fill for Option<T> {
    fn fill(&mut self, values: &Values) {
        if let Some(item) = self {
            item.fill(values);
        }
    }
}

/// `impl Fill` for structs, naming every field: the pattern has no `..`, so a
/// field added to the struct and not listed here does not compile.
macro_rules! fill_every_field {
    ($($ty:ident { $($field:ident),* $(,)? })*) => {$(
        impl $crate::content::placeholders::Fill for $ty {
            fn fill(&mut self, values: &$crate::content::placeholders::Values) {
                let $ty { $($field),* } = self;
                $( $crate::content::placeholders::Fill::fill($field, values); )*
            }
        }
    )*};
}
pub(crate) use fill_every_field;

/// `impl Fill` that does nothing, for values that never hold placeholders.
macro_rules! no_placeholders {
    ($($ty:ty),* $(,)?) => {$(
        impl $crate::content::placeholders::Fill for $ty {
            fn fill(&mut self, _: &$crate::content::placeholders::Values) {}
        }
    )*};
}
pub(crate) use no_placeholders;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_known_and_keeps_other_braces() {
        let mut values = Values::default();
        values.set("monthly_price", "$25");
        assert_eq!(
            values.fill("only {monthly_price} a month {not a name} {}"),
            "only $25 a month {not a name} {}"
        );
    }

    #[test]
    fn phrases_get_a_capital_where_a_sentence_starts() {
        let mut values = Values::default();
        values.set_phrase("annual_deal", "save $60 a year");
        values.set("email", "hi@example.com");
        assert_eq!(values.fill("{annual_deal}"), "Save $60 a year");
        assert_eq!(values.fill("- {annual_deal}."), "- Save $60 a year.");
        assert_eq!(values.fill("Yes. {annual_deal}"), "Yes. Save $60 a year");
        assert_eq!(values.fill("and {annual_deal}"), "and save $60 a year");
        assert_eq!(values.fill("{email}"), "hi@example.com");
        assert_eq!(
            values.fill("less than\n  ({annual_deal})"),
            "less than\n  (save $60 a year)"
        );
        assert_eq!(
            values.fill("One.\n**{annual_deal}**"),
            "One.\n**Save $60 a year**"
        );
    }

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
