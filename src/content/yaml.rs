//! Reading content files: size and encoding checks, YAML parsing, and turning
//! serde's messages into ones that say where and what to change.

use std::path::Path;

use serde::de::DeserializeOwned;

use crate::diagnostics::{Diagnostic, Location, Result};

/// Content files are small; anything larger is almost certainly the wrong file.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Separates a message from its help in errors raised by our own value types
/// (serde only carries a single string from them).
pub const HELP_MARK: &str = "\u{1}";

/// Reads a content file as UTF-8 text. `shown` is the path printed in messages.
pub fn read_text(path: &Path, shown: &Path) -> Result<String> {
    let metadata = std::fs::metadata(path).map_err(|err| {
        if err.kind() == std::io::ErrorKind::NotFound {
            Diagnostic::new("this file is missing")
                .at(Location::file(shown))
                .help(format!(
                    "create {} (the repository's own content/ folder has a complete example)",
                    shown.display()
                ))
        } else {
            Diagnostic::io("read", shown, err).at(Location::file(shown))
        }
    })?;
    if !metadata.is_file() {
        return Err(Diagnostic::new("this is not a regular file")
            .at(Location::file(shown))
            .help("replace it with a text file"));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(Diagnostic::new(format!(
            "this file is {} KiB; content files may be at most {} KiB",
            metadata.len() / 1024,
            MAX_FILE_BYTES / 1024
        ))
        .at(Location::at(shown, 1, 1))
        .help("check that this is the right file; split very long text into several pages"));
    }
    let bytes = std::fs::read(path).map_err(|err| Diagnostic::io("read", shown, err))?;
    String::from_utf8(bytes).map_err(|err| {
        let (line, column) = line_column(&err.as_bytes()[..err.utf8_error().valid_up_to()]);
        Diagnostic::new("this file is not UTF-8 text")
            .at(Location::at(shown, line, column))
            .help("save the file with UTF-8 encoding (most editors offer it under \"Save with encoding\")")
    })
}

/// The 1-based line and column just after `prefix`.
pub fn line_column(prefix: &[u8]) -> (usize, usize) {
    let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = prefix
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&prefix[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// Parses YAML `text` from `shown` into `T`. `line_offset` is added to reported
/// lines, for YAML that starts part-way into a file (front matter).
pub fn parse<T: DeserializeOwned>(text: &str, shown: &Path, line_offset: usize) -> Result<T> {
    serde_yaml::from_str(text).map_err(|err| translate(&err, text, shown, line_offset))
}

fn translate(err: &serde_yaml::Error, text: &str, shown: &Path, line_offset: usize) -> Diagnostic {
    let raw = err.to_string();
    // serde_yaml appends " at line L column C"; we print the location ourselves.
    let without_position = match raw.find(" at line ") {
        Some(i) => raw[..i].to_string(),
        None => raw.clone(),
    };
    let (message, own_help) = match without_position.split_once(HELP_MARK) {
        Some((message, help)) => (message.to_string(), Some(help.to_string())),
        None => (without_position, None),
    };
    let location = match err.location() {
        Some(at) => Location::at(shown, at.line() + line_offset, at.column()),
        None => Location::file(shown),
    };
    let line_text = err
        .location()
        .and_then(|at| text.lines().nth(at.line().saturating_sub(1)))
        .unwrap_or("");
    let help = own_help.or_else(|| generic_help(&message, line_text));
    let mut diagnostic = Diagnostic::new(message).at(location);
    if let Some(help) = help {
        diagnostic = diagnostic.help(help);
    }
    diagnostic
}

/// Advice for the messages serde and the YAML parser produce themselves.
fn generic_help(message: &str, line_text: &str) -> Option<String> {
    if line_text.contains('\t') {
        return Some("indent with spaces: YAML does not allow tab characters".into());
    }
    if let Some(rest) = message.split("unknown field `").nth(1) {
        let field = rest.split('`').next().unwrap_or("");
        let allowed = rest.split_once(", expected ").map(|(_, a)| a);
        return Some(match allowed {
            Some(allowed) => format!(
                "remove `{field}` or correct its spelling; the keys allowed here are {allowed}"
            ),
            None => format!("remove `{field}`; no keys are allowed here"),
        });
    }
    if let Some(rest) = message.split("missing field `").nth(1) {
        let field = rest.split('`').next().unwrap_or("");
        return Some(format!("add `{field}:` with its value at this level"));
    }
    if let Some((_, expected)) = message.split_once(", expected ") {
        return Some(format!("write {expected} here"));
    }
    if message.contains("mapping values are not allowed") {
        return Some("put text that contains \": \" in quotes".into());
    }
    if message.contains("did not find expected") || message.contains("could not find expected") {
        return Some(
            "check the indentation of this line and the line before it, and that every quote is closed"
                .into(),
        );
    }
    if message.contains("found character that cannot start any token") {
        return Some("put this text in quotes".into());
    }
    None
}

/// Splits `---` front matter from the body of a Markdown file. Returns the
/// front matter, the line it starts on, and the body with the line it starts on.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_from_one_and_in_characters() {
        assert_eq!(line_column(b""), (1, 1));
        assert_eq!(line_column("ab\ncé".as_bytes()), (2, 3));
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
        assert!(
            err.message.contains("unknown field `nmae`"),
            "{}",
            err.message
        );
        assert!(err.help.unwrap().contains("remove `nmae`"));
    }
}

#[cfg(test)]
mod value_error_tests {
    use super::*;
    use crate::content::values::Price;

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
        assert_eq!(err.message, "price: the price must be more than $0");
        assert!(err.help.unwrap().contains("whole number of dollars"));
    }
}
