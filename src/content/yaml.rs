//! Reading content files: YAML (messages rewritten by `yaml_errors`), front
//! matter, where a key is.

use std::path::Path;

use serde::de::DeserializeOwned;

use super::yaml_errors::translate;
use crate::diagnostics::{Diagnostic, Location, Result};

/// `line_offset` is added to reported lines, for front matter.
pub fn parse<T: DeserializeOwned>(text: &str, shown: &Path, line_offset: usize) -> Result<T> {
    let blank = text.lines().all(|line| {
        let line = line.trim();
        line.is_empty() || line.starts_with('#')
    });
    if blank {
        // Otherwise reported as the first key missing.
        let (what, help) = if line_offset == 0 {
            (
                "this file is empty",
                "write its keys and values; the repository's own content/ folder has a complete example of each file",
            )
        } else {
            (
                "the front matter is empty",
                "write `title:` and `description:` lines between the two `---` lines",
            )
        };
        return Err(Diagnostic::new(what)
            .at(Location::at(shown, line_offset + 1, 1))
            .help(help));
    }
    serde_path_to_error::deserialize(serde_yaml::Deserializer::from_str(text)).map_err(|err| {
        // serde_yaml reports a syntax error only after the values before it, so
        // a broken line would show as a wrong value above it: the syntax error comes first.
        match serde_yaml::from_str::<serde::de::IgnoredAny>(text) {
            Err(syntax) => translate(&syntax, None, text, shown, line_offset),
            Ok(_) => translate(err.inner(), Some(err.path()), text, shown, line_offset),
        }
    })
}

/// Splits `---` front matter from the body: each with the line it starts on.
pub fn split_front_matter<'a>(
    text: &'a str,
    shown: &Path,
) -> Result<(&'a str, usize, &'a str, usize)> {
    let missing = || {
        Diagnostic::new("this page has no front matter")
            .at(Location::at(shown, 1, 1))
            .help("start the file with a block between two `---` lines holding `title:` and `description:`")
    };
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(missing)?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            let front = &rest[..offset];
            let body = &rest[offset + line.len()..];
            let body_line = 2 + front.lines().count() + 1;
            return Ok((front, 2, body, body_line));
        }
        offset += line.len();
    }
    Err(Diagnostic::new("the front matter is not closed")
        .at(Location::at(shown, 1, 1))
        .help("add a line with just `---` after the front matter"))
}

/// The line and column of a nested key's value in block YAML, for errors about
/// several values (serde keeps no positions).
pub fn locate_key(text: &str, path: &[&str]) -> Option<(usize, usize)> {
    let mut depth = 0;
    let mut parent_indent: Option<usize> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if parent_indent.is_some_and(|parent| indent <= parent) {
            return None;
        }
        let key = path[depth];
        if let Some(rest) = trimmed.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
            if depth + 1 == path.len() {
                let value_offset = rest.len() - rest.trim_start().len();
                return Some((index + 1, indent + key.len() + 1 + value_offset + 1));
            }
            depth += 1;
            parent_indent = Some(indent);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_nested_keys() {
        let text = "monthly:\n  price: 25\nannual:\n  name: A\n  price: 250\n";
        assert_eq!(locate_key(text, &["annual", "price"]), Some((5, 10)));
        assert_eq!(locate_key(text, &["monthly", "price"]), Some((2, 10)));
        assert_eq!(locate_key(text, &["annual", "missing"]), None);
    }

    #[test]
    fn front_matter_is_split_with_line_numbers() {
        let text = "---\ntitle: x\n---\nbody\n";
        let (front, front_line, body, body_line) =
            split_front_matter(text, Path::new("p.md")).unwrap();
        assert_eq!(front, "title: x\n");
        assert_eq!(front_line, 2);
        assert_eq!(body, "body\n");
        assert_eq!(body_line, 4);
    }

    #[test]
    fn unknown_field_gets_spelling_help() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct T {
            name: String,
        }
        let err = parse::<T>("name: a\nnmae: b\n", Path::new("f.yaml"), 0).unwrap_err();
        assert_eq!(err.location, Some(Location::at("f.yaml", 2, 1)));
        assert_eq!(err.message, "unknown key `nmae`");
        assert!(
            err.help
                .as_ref()
                .unwrap()
                .starts_with("did you mean `name`?")
        );
    }
}

#[cfg(test)]
mod value_error_tests {
    use super::*;
    use crate::content::values::{Email, Price};

    #[test]
    fn errors_from_our_value_types_carry_the_value_position_and_help() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct T {
            name: String,
            price: Price,
        }
        let err = parse::<T>("name: a\nprice: 0\n", Path::new("f.yaml"), 0).unwrap_err();
        assert_eq!(err.location, Some(Location::at("f.yaml", 2, 8)));
        assert_eq!(err.message, "the price must be more than $0");
        assert!(
            err.help
                .as_ref()
                .unwrap()
                .contains("whole number of dollars")
        );
    }

    #[test]
    fn values_checked_as_text_are_reported_at_the_value_not_the_mapping() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct T {
            name: String,
            email: Email,
        }
        let err = parse::<T>(
            "name: a
email: nobody\n",
            Path::new("f.yaml"),
            0,
        )
        .unwrap_err();
        assert_eq!(err.location, Some(Location::at("f.yaml", 2, 8)));
        assert_eq!(
            err.message,
            "the email address: \"nobody\" is not an email address"
        );
    }

    #[test]
    fn a_syntax_error_below_is_reported_before_the_values_above_it() {
        let text = "email: \"a@b.co\nname: x\nother: \"y\"\n";
        let err = parse::<std::collections::BTreeMap<String, Email>>(text, Path::new("f.yaml"), 0)
            .unwrap_err();
        assert_eq!(err.location, Some(Location::at("f.yaml", 1, 8)));
        assert_eq!(err.message, "this quote is never closed");
    }
}

#[cfg(test)]
mod missing_colon_tests {
    use super::*;

    #[test]
    fn a_key_without_its_colon_is_reported_on_its_own_line() {
        // Read as text running on into the next line: reported there, or last
        // in its block, at the line after.
        let cases = [
            (
                "title About Us\ndescription: x\n",
                (1, 1),
                "title",
                "About Us",
            ),
            (
                "title: a\ndescription Our story\ndate: 2025-01-01\n",
                (2, 1),
                "description",
                "Our story",
            ),
            ("a:\n  b: x\n  c Some text\n", (3, 3), "c", "Some text"),
        ];
        for (text, (line, column), key, rest) in cases {
            let err = parse::<serde::de::IgnoredAny>(text, Path::new("f.md"), 0).unwrap_err();
            assert_eq!(
                err.location,
                Some(Location::at("f.md", line, column)),
                "{text:?}"
            );
            assert_eq!(
                err.message,
                format!("the key `{key}` has no colon after it")
            );
            let help = format!("put a colon right after the key: `{key}: {rest}`");
            assert_eq!(err.help.as_deref(), Some(help.as_str()));
        }
    }
}
