//! Filling in `{name}` placeholders: finding them, their values, and the
//! [`Fill`] trait that fills every text of a content type in place.

use std::collections::BTreeMap;

/// `{` + letters, digits or `_` + `}`, with byte offsets; any other brace is text.
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

#[derive(Debug, Clone, Default)]
pub struct Values(BTreeMap<&'static str, Value>);

#[derive(Debug, Clone)]
struct Value {
    text: String,
    /// Lowercase, capitalised where a sentence starts.
    phrase: bool,
}

impl Values {
    pub(super) fn set(&mut self, name: &'static str, value: impl Into<String>) {
        self.insert(name, value.into(), false);
    }

    /// A value read inside a sentence ("pay for 10 months, get 2 free"),
    /// capitalised where it starts one.
    pub(super) fn set_phrase(&mut self, name: &'static str, value: impl Into<String>) {
        self.insert(name, value.into(), true);
    }

    fn insert(&mut self, name: &'static str, text: String, phrase: bool) {
        self.0.insert(name, Value { text, phrase });
    }

    pub fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// `text` with known placeholders replaced; unknown ones were refused at
    /// loading, any left stay as written.
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

/// Whether text after `before` starts a sentence: at the start, of a list item
/// or heading, or after `.`, `?` or `!` (emphasis and an opening bracket
/// between skipped), not a continued line.
fn starts_sentence(before: &str) -> bool {
    let before = before
        .trim_end()
        .trim_end_matches(['*', '_', '('])
        .trim_end();
    let line = before.rsplit('\n').next().unwrap_or(before).trim_start();
    let item_start = !line.is_empty() && line.chars().all(|c| "-*+>#".contains(c));
    before.is_empty() || item_start || before.ends_with(['.', '!', '?'])
}

/// Content whose text may hold placeholders, filled in place once when loading
/// ends: nothing downstream sees a `{name}`.
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

/// `impl Fill` naming every field: no `..`, so a field added and not listed
/// does not compile.
macro_rules! fill_every_field {
    ($($ty:ident { $($field:ident),* $(,)? })*) => {$(
        impl $crate::content::fill::Fill for $ty {
            fn fill(&mut self, values: &$crate::content::fill::Values) {
                let $ty { $($field),* } = self;
                $( $crate::content::fill::Fill::fill($field, values); )*
            }
        }
    )*};
}
pub(crate) use fill_every_field;

/// For values that never hold placeholders.
macro_rules! no_placeholders {
    ($($ty:ty),* $(,)?) => {$(
        impl $crate::content::fill::Fill for $ty {
            fn fill(&mut self, _: &$crate::content::fill::Values) {}
        }
    )*};
}
pub(crate) use no_placeholders;

no_placeholders!(u32, bool);

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
}
