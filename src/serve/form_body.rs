//! The fields of a form post, from the three bodies the form service takes:
//! `multipart/form-data` (what a browser's `FormData` sends, and so the
//! contact island), `application/x-www-form-urlencoded` (a form posted
//! without JavaScript) and `application/json`.

use serde_json::Value;

/// One field as posted; `file_name` is set for a file input's part.
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

/// Why a body could not be read as form fields; the text is shown to the
/// developer as the reply's `error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyError(pub String);

/// The fields of `body`, sent with the Content-Type `content_type`.
pub fn parse(content_type: Option<&str>, body: &[u8]) -> Result<Vec<Field>, BodyError> {
    let content_type = content_type.unwrap_or("");
    let (mime, params) = split_header_value(content_type);
    match mime.to_ascii_lowercase().as_str() {
        "multipart/form-data" => {
            let boundary = params
                .iter()
                .find(|(name, _)| name.eq_ignore_ascii_case("boundary"))
                .map(|(_, value)| value.as_str())
                .ok_or_else(|| BodyError("multipart/form-data without a boundary".into()))?;
            multipart(body, boundary)
        }
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

/// `type/subtype; name=value; name="quoted value"` into the type and its
/// parameters.
fn split_header_value(value: &str) -> (String, Vec<(String, String)>) {
    let mut parts = split_unquoted(value, ';').into_iter();
    let first = parts.next().unwrap_or_default().trim().to_string();
    let params = parts
        .filter_map(|part| {
            let (name, value) = part.split_once('=')?;
            Some((name.trim().to_string(), unquote(value.trim())))
        })
        .collect();
    (first, params)
}

/// Splits on `separator` outside double quotes.
fn split_unquoted(text: &str, separator: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut quoted = false;
    let mut escaped = false;
    for c in text.chars() {
        if let Some(current) = parts.last_mut() {
            if escaped {
                escaped = false;
            } else if quoted && c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = !quoted;
            } else if c == separator && !quoted {
                parts.push(String::new());
                continue;
            }
            current.push(c);
        }
    }
    parts
}

fn unquote(value: &str) -> String {
    match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(inner) => {
            let mut out = String::with_capacity(inner.len());
            let mut chars = inner.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => out.extend(chars.next()),
                    c => out.push(c),
                }
            }
            out
        }
        None => value.to_string(),
    }
}

/// RFC 7578: parts separated by `--boundary` lines, each with its headers,
/// a blank line, and its content.
fn multipart(body: &[u8], boundary: &str) -> Result<Vec<Field>, BodyError> {
    let malformed = |why: &str| BodyError(format!("malformed multipart/form-data body: {why}"));
    if boundary.is_empty() || boundary.len() > 70 {
        return Err(malformed("the boundary must be 1 to 70 characters"));
    }
    let delimiter = format!("--{boundary}").into_bytes();
    // The first delimiter may follow a preamble; every later one starts a line.
    let mut at = find(body, &delimiter, 0).ok_or_else(|| malformed("no boundary line"))?;
    let next_delimiter = [b"\r\n".as_slice(), &delimiter].concat();
    let mut fields = Vec::new();
    loop {
        let after = at + delimiter.len();
        let rest = &body[after..];
        if rest.starts_with(b"--") {
            return Ok(fields);
        }
        let headers_start = after
            + if rest.starts_with(b"\r\n") {
                2
            } else {
                return Err(malformed("a boundary line is not followed by a line break"));
            };
        let headers_end = find(body, b"\r\n\r\n", headers_start)
            .ok_or_else(|| malformed("a part's headers never end"))?;
        let content_start = headers_end + 4;
        let content_end = find(body, &next_delimiter, content_start)
            .ok_or_else(|| malformed("the last part is not closed by the boundary"))?;
        let headers = String::from_utf8_lossy(&body[headers_start..headers_end]);
        let (name, file_name) = disposition(&headers)
            .ok_or_else(|| malformed("a part has no Content-Disposition: form-data name"))?;
        fields.push(Field {
            name,
            value: String::from_utf8_lossy(&body[content_start..content_end]).into_owned(),
            file_name,
        });
        at = content_end + 2;
    }
}

/// The field name and file name of a part's `Content-Disposition`.
fn disposition(headers: &str) -> Option<(String, Option<String>)> {
    let value = headers.split("\r\n").find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("content-disposition")
            .then_some(value)
    })?;
    let (kind, params) = split_header_value(value);
    if !kind.eq_ignore_ascii_case("form-data") {
        return None;
    }
    let param = |wanted: &str| {
        params
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(wanted))
            .map(|(_, value)| value.clone())
    };
    Some((param("name")?, param("filename")))
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|position| from + position)
}

/// A JSON object's members as fields (what `@formspree/core` sends when
/// given a plain object instead of `FormData`).
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
    fn urlencoded_and_json() {
        let fields = parse(
            Some("application/x-www-form-urlencoded"),
            b"email=a%40b.co&firstName=Ada+Lovelace&_gotcha=",
        )
        .unwrap();
        assert_eq!(
            pairs(&fields),
            [
                ("email", "a@b.co"),
                ("firstName", "Ada Lovelace"),
                ("_gotcha", "")
            ]
        );
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
        assert!(parse(Some("text/plain"), b"a=b").is_err());
        assert!(parse(None, b"a=b").is_err());
    }
}
