//! Building answers, and the headers every answer carries. A leaf: every
//! handler imports it, it imports no file of the server.

use std::io::{Cursor, Read, Write};

use tiny_http::{Header, Response, ResponseBox, StatusCode};

use crate::output::headers;

pub const TEXT_PLAIN: &str = "text/plain; charset=utf-8";

/// What a handler gives back for one request.
pub enum Answer {
    Response(ResponseBox),
    /// An answer the handler writes itself, head included, straight to the
    /// connection (the live-reload stream); the connection ends with it.
    Stream(WriteStream),
}

pub type WriteStream = Box<dyn FnOnce(&mut dyn Write) + Send>;

impl From<ResponseBox> for Answer {
    fn from(response: ResponseBox) -> Answer {
        Answer::Response(response)
    }
}

/// `response` with one more header. A value with a control character (a
/// line break would end the header early) or one tiny_http refuses is left
/// out rather than sent broken.
pub fn with_header(response: ResponseBox, name: &str, value: &str) -> ResponseBox {
    if value.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
        return response;
    }
    match Header::from_bytes(name.as_bytes(), value.as_bytes()) {
        Ok(header) => response.with_header(header),
        Err(()) => response,
    }
}

/// `response` with the site's security headers, as `_headers` gives them
/// to Netlify and Cloudflare Pages.
pub fn with_security_headers(mut response: ResponseBox) -> ResponseBox {
    for (name, value) in security_headers() {
        if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(header);
        }
    }
    response
}

/// The security headers as raw lines, for answers written by hand.
pub fn security_header_lines() -> String {
    security_headers()
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect()
}

/// The headers of the last good build. One server runs per process, and
/// every answer of it carries the same headers, so they live here rather
/// than being threaded through every handler.
static SECURITY_HEADERS: std::sync::RwLock<Vec<(&'static str, String)>> =
    std::sync::RwLock::new(Vec::new());

/// Sets the security headers after a build: the hashes of the inline
/// stylesheet and script change with them.
pub fn set_security_headers(inline: &headers::InlineSources) {
    if let Ok(mut headers) = SECURITY_HEADERS.write() {
        *headers = headers::security(inline);
    }
}

fn security_headers() -> Vec<(&'static str, String)> {
    match SECURITY_HEADERS.read() {
        Ok(headers) if !headers.is_empty() => headers.clone(),
        _ => headers::security(&headers::InlineSources::default()),
    }
}

pub fn text(status: u16, content_type: &str, body: String) -> ResponseBox {
    let body = body.into_bytes();
    let length = body.len();
    let response = Response::new(
        StatusCode(status),
        Vec::new(),
        Box::new(Cursor::new(body)) as Box<dyn Read + Send>,
        Some(length),
        None,
    );
    with_header(response, "Content-Type", content_type)
}

pub fn empty(status: u16) -> ResponseBox {
    Response::empty(StatusCode(status)).boxed()
}

pub fn method_not_allowed(allow: &str) -> ResponseBox {
    let response = text(405, TEXT_PLAIN, "Method not allowed\n".into());
    with_header(response, "Allow", allow)
}
