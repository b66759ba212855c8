//! A form post's fields, from the bodies the form service takes:
//! `multipart/form-data` (`FormData`, so the contact island),
//! `application/x-www-form-urlencoded` (no JavaScript) and `application/json`.

use serde_json::Value;

/// `file_name` is set for a file input's part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub value: String,
    pub file_name: Option<String>,
}

impl Field {
    pub fn text(name: impl Into<String>, value: impl Into<String>) -> Field {
        Field {
            name: name.into(),
            value: value.into(),
            file_name: None,
        }
    }
}

/// Why a body is not form fields; shown to the developer as the reply's
/// `error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyError(pub String);

pub fn parse(content_type: Option<&str>, body: &[u8]) -> Result<Vec<Field>, BodyError> {
    let content_type = content_type.unwrap_or("");
    let essence = content_type.split(';').next().unwrap_or("").trim();
    match essence.to_ascii_lowercase().as_str() {
        "multipart/form-data" => multipart(content_type, body),
        "application/x-www-form-urlencoded" => Ok(form_urlencoded::parse(body)
            .map(|(name, value)| Field::text(name, value))
            .collect()),
        "application/json" => json(body),
        "" => Err(BodyError("the request has no Content-Type".into())),
        other => Err(BodyError(format!(
            "unsupported Content-Type {other}: send multipart/form-data, application/x-www-form-urlencoded or application/json"
        ))),
    }
}

/// RFC 7578, the body all at hand: parts between `--boundary` lines, each named
/// by its `Content-Disposition: form-data`.
fn multipart(content_type: &str, body: &[u8]) -> Result<Vec<Field>, BodyError> {
    let malformed = |why: &str| BodyError(format!("malformed multipart/form-data body: {why}"));
    let boundary = parameter(content_type, "boundary")
        .filter(|boundary| !boundary.is_empty())
        .ok_or_else(|| BodyError("multipart/form-data without a boundary".into()))?;
    let delimiter = format!("--{boundary}");
    let delimiter = delimiter.as_bytes();
    // A preamble, ignored.
    let start = find(body, delimiter).ok_or_else(|| malformed("no boundary line"))?;
    let mut rest = &body[start + delimiter.len()..];
    let mut fields = Vec::new();
    loop {
        if rest.starts_with(b"--") {
            return Ok(fields);
        }
        rest = line_end(rest)
            .ok_or_else(|| malformed("a boundary line goes on after the boundary"))?;
        let end = find(rest, b"\r\n\r\n").ok_or_else(|| malformed("a part's headers never end"))?;
        let headers = String::from_utf8_lossy(&rest[..end]);
        rest = &rest[end + 4..];
        let mut closing = b"\r\n".to_vec();
        closing.extend_from_slice(delimiter);
        let end = part_end(rest, &closing).ok_or_else(|| malformed("a part is never closed"))?;
        let value = String::from_utf8_lossy(&rest[..end]).into_owned();
        rest = &rest[end + closing.len()..];
        let disposition = headers
            .split("\r\n")
            .filter_map(|line| line.split_once(':'))
            .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-disposition"))
            .map(|(_, value)| value.trim());
        let name = disposition
            .filter(|value| {
                let kind = value.split(';').next().unwrap_or("");
                kind.trim().eq_ignore_ascii_case("form-data")
            })
            .and_then(|value| parameter(value, "name"))
            .ok_or_else(|| malformed("a part has no Content-Disposition: form-data name"))?;
        fields.push(Field {
            name,
            value,
            file_name: disposition.and_then(|value| parameter(value, "filename")),
        });
    }
}

/// The parameter `name` of `form-data; name="a"` or `…; boundary=x`: quoted
/// (`;` and `\"` may stand inside) or a token.
fn parameter(header: &str, name: &str) -> Option<String> {
    let mut rest = header.split_once(';')?.1;
    loop {
        let (key, after) = rest.split_once('=')?;
        let after = after.trim_start();
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => {
                let mut value = String::new();
                let mut chars = quoted.char_indices();
                let end = loop {
                    match chars.next()? {
                        (at, '"') => break at + 1,
                        (_, '\\') => value.extend(chars.next().map(|(_, c)| c)),
                        (_, c) => value.push(c),
                    }
                };
                let next = quoted[end..].split_once(';').map_or("", |(_, next)| next);
                (value, next)
            }
            None => {
                let (token, next) = after.split_once(';').unwrap_or((after, ""));
                (token.trim().to_string(), next)
            }
        };
        if key.trim().eq_ignore_ascii_case(name) {
            return Some(value);
        }
        rest = next;
    }
}

/// Transport padding, then CRLF.
fn line_end(after: &[u8]) -> Option<&[u8]> {
    let padding = after
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .count();
    after[padding..].strip_prefix(b"\r\n")
}

/// Where the part at the start of `rest` ends: the first `closing` making a
/// whole boundary line, so text merely starting like it stays in the value.
fn part_end(rest: &[u8], closing: &[u8]) -> Option<usize> {
    let mut from = 0;
    loop {
        let at = from + find(&rest[from..], closing)?;
        let after = &rest[at + closing.len()..];
        if after.starts_with(b"--") || line_end(after).is_some() {
            return Some(at);
        }
        from = at + 1;
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// A JSON object's members (what `@formspree/core` sends for a plain object).
fn json(body: &[u8]) -> Result<Vec<Field>, BodyError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|err| BodyError(format!("the JSON body is not valid: {err}")))?;
    let Value::Object(members) = value else {
        return Err(BodyError(
            "the JSON body must be an object of fields".into(),
        ));
    };
    Ok(members
        .into_iter()
        .map(|(name, value)| {
            let value = match value {
                Value::String(text) => text,
                Value::Null => String::new(),
                other => other.to_string(),
            };
            Field::text(name, value)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(fields: &[Field]) -> Vec<(&str, &str)> {
        fields
            .iter()
            .map(|f| (f.name.as_str(), f.value.as_str()))
            .collect()
    }

    #[test]
    fn multipart_as_browsers_send_it() {
        let body = "preamble\r\n------WebKitFormBoundaryx7\r\nContent-Disposition: form-data; name=\"firstName\"\r\n\r\nAda\r\n------WebKitFormBoundaryx7\r\ncontent-disposition: form-data; name=\"note\"\r\n\r\ntwo\r\nlines -- and ------WebKitFormBoundary\r\n------WebKitFormBoundaryx7\r\nContent-Disposition: form-data; name=\"_gotcha\"\r\n\r\n\r\n------WebKitFormBoundaryx7--\r\n";
        let fields = parse(
            Some("multipart/form-data; boundary=----WebKitFormBoundaryx7"),
            body.as_bytes(),
        )
        .unwrap();
        assert_eq!(
            pairs(&fields),
            [
                ("firstName", "Ada"),
                ("note", "two\r\nlines -- and ------WebKitFormBoundary"),
                ("_gotcha", "")
            ]
        );
    }

    #[test]
    fn text_that_starts_like_the_boundary_stays_in_the_value() {
        let body = "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none\r\n--xy\r\n--x \r\nContent-Disposition: form-data; name=b\r\n\r\n2\r\n--x--\r\n";
        let fields = parse(Some("multipart/form-data; boundary=x"), body.as_bytes()).unwrap();
        assert_eq!(pairs(&fields), [("a", "one\r\n--xy"), ("b", "2")]);
    }

    #[test]
    fn multipart_quoted_boundaries_and_files() {
        let body = "--a;b\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"x;y.txt\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--a;b--";
        let fields = parse(
            Some("Multipart/Form-Data; boundary=\"a;b\""),
            body.as_bytes(),
        )
        .unwrap();
        assert_eq!(fields[0].name, "doc");
        assert_eq!(fields[0].file_name.as_deref(), Some("x;y.txt"));
        assert_eq!(fields[0].value, "hello");
    }

    #[test]
    fn malformed_multipart_is_refused() {
        for (content_type, body) in [
            ("multipart/form-data", "--x\r\n\r\n--x--"),
            ("multipart/form-data; boundary=x", "no boundary here"),
            (
                "multipart/form-data; boundary=x",
                "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated",
            ),
            (
                "multipart/form-data; boundary=x",
                "--x\r\nContent-Type: text/plain\r\n\r\nv\r\n--x--",
            ),
            ("multipart/form-data; boundary=x", "--xjunk"),
        ] {
            assert!(
                parse(Some(content_type), body.as_bytes()).is_err(),
                "{body:?}"
            );
        }
    }

    #[test]
    fn json_values_that_are_not_strings() {
        let fields = parse(
            Some("application/json; charset=utf-8"),
            br#"{"email":"a@b.co","plan_amount":25,"x":null}"#,
        )
        .unwrap();
        assert_eq!(
            pairs(&fields),
            [("email", "a@b.co"), ("plan_amount", "25"), ("x", "")]
        );
        assert!(parse(Some("application/json"), b"[1]").is_err());
        assert!(parse(None, b"a=b").is_err());
    }

    proptest::proptest! {
        /// Whatever a client sends, no panic.
        #[test]
        fn any_multipart_body_is_read_or_refused(body: Vec<u8>, tail: String) {
            let _ = parse(Some("multipart/form-data; boundary=x"), &body);
            let mut framed = b"--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n".to_vec();
            framed.extend_from_slice(&body);
            framed.extend_from_slice(tail.as_bytes());
            let _ = parse(Some("multipart/form-data; boundary=x"), &framed);
            let _ = parse(Some(&format!("multipart/form-data; boundary=\"{tail}")), &framed);
        }
    }
}
