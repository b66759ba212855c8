//! JSON inside HTML `<script>` elements: `<`, `>` and `&` become `\u00XX`, so
//! no content closes the element or opens a comment; U+2028 and U+2029 too, for
//! consumers reading it as script.

use serde::Serialize;

use crate::diagnostics::{Diagnostic, Result};

pub fn for_script<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    let json = serde_json::to_string(value)
        .map_err(|err| Diagnostic::new("could not serialize data for the page").caused_by(err))?;
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_can_close_the_script_element() {
        let json = for_script(&serde_json::json!({"a": "</script><!-- & \u{2028}"})).unwrap();
        assert_eq!(
            json,
            r#"{"a":"\u003c/script\u003e\u003c!-- \u0026 \u2028"}"#
        );
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["a"], "</script><!-- & \u{2028}");
    }
}
