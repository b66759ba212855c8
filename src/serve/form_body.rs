//! The fields of a form post, from the three bodies the form service takes:
//! `multipart/form-data` (what a browser's `FormData` sends, and so the
//! contact island), `application/x-www-form-urlencoded` (a form posted
//! without JavaScript) and `application/json`.

use std::convert::Infallible;

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

/// RFC 7578, read by multer (the parser under axum and Rocket). The body is
/// all at hand, so its one chunk is ready whenever multer asks.
fn multipart(content_type: &str, body: &[u8]) -> Result<Vec<Field>, BodyError> {
    let malformed = |why: String| BodyError(format!("malformed multipart/form-data body: {why}"));
    let boundary = multer::parse_boundary(content_type)
        .map_err(|_| BodyError("multipart/form-data without a boundary".into()))?;
    let chunks = futures_util::stream::iter([Ok::<_, Infallible>(body.to_vec())]);
    let mut parts = multer::Multipart::new(chunks, boundary);
    pollster::block_on(async {
        let mut fields = Vec::new();
        while let Some(part) = parts
            .next_field()
            .await
            .map_err(|e| malformed(e.to_string()))?
        {
            let name = part.name().map(str::to_owned).ok_or_else(|| {
                malformed("a part has no Content-Disposition: form-data name".into())
            })?;
            let file_name = part.file_name().map(str::to_owned);
            let value = part.text().await.map_err(|e| malformed(e.to_string()))?;
            fields.push(Field {
                name,
                value,
                file_name,
            });
        }
        Ok(fields)
    })
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
}
