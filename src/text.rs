//! Text helpers every stage shares.

use std::path::Path;

use crate::diagnostics::{Diagnostic, Location, Result};

/// Content files are small: a larger one is almost surely the wrong file.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Reads a source file as UTF-8; `shown` is the path in messages.
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
            metadata.len().div_ceil(1024),
            MAX_FILE_BYTES / 1024
        ))
        .at(Location::at(shown, 1, 1))
        .help("check that this is the right file; split very long text into several pages"));
    }
    let bytes = std::fs::read(path).map_err(|err| Diagnostic::io("read", shown, err))?;
    let text = String::from_utf8(bytes).map_err(|err| {
        let (line, column) = line_column(&err.as_bytes()[..err.utf8_error().valid_up_to()]);
        Diagnostic::new("this file is not UTF-8 text")
            .at(Location::at(shown, line, column))
            .help("save the file with UTF-8 encoding (most editors offer it under \"Save with encoding\")")
    })?;
    // Some editors start UTF-8 with a byte order mark; it is not text.
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// 1-based, just after `prefix`.
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

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Text made safe for HTML and XML, in an element or in an attribute between
/// double or single quotes: the one escaper of everything the build writes.
/// White space other than a space is written as a reference, which an XML
/// parser keeps where a literal one in an attribute becomes a space.
pub fn escape_markup(text: &str) -> std::borrow::Cow<'_, str> {
    let special = |c: char| matches!(c, '&' | '<' | '>' | '"' | '\'' | '\n' | '\r' | '\t');
    if !text.contains(special) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            _ => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
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
    fn hex_is_lowercase_two_digits_a_byte() {
        assert_eq!(hex(&[0, 0x0f, 0xab]), "000fab");
    }

    #[test]
    fn escape_markup_escapes_markup_characters_and_keeps_white_space() {
        assert_eq!(escape_markup("a<b>&c"), "a&lt;b&gt;&amp;c");
        assert_eq!(
            escape_markup("\"a\"\n<&>\t'"),
            "&quot;a&quot;&#10;&lt;&amp;&gt;&#9;&#39;"
        );
        assert!(matches!(
            escape_markup("plain"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
