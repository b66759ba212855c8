//! Building answers: a leaf every handler imports.

use std::io::Write;

use tiny_http::{Header, Response, ResponseBox};

pub const TEXT_PLAIN: &str = "text/plain; charset=utf-8";

pub enum Answer {
    Response(ResponseBox),
    /// Written by the handler itself, head included (the live-reload stream);
    /// the connection ends with it.
    Stream(WriteStream),
}

pub type WriteStream = Box<dyn FnOnce(&mut dyn Write) + Send>;

impl From<ResponseBox> for Answer {
    fn from(response: ResponseBox) -> Answer {
        Answer::Response(response)
    }
}

/// A value with a control character (which would end the header early) or one
/// tiny_http refuses is left out, not sent broken.
pub fn with_header(response: ResponseBox, name: &str, value: &str) -> ResponseBox {
    if value.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
        return response;
    }
    match Header::from_bytes(name.as_bytes(), value.as_bytes()) {
        Ok(header) => response.with_header(header),
        Err(()) => response,
    }
}

pub fn text(status: u16, content_type: &str, body: String) -> ResponseBox {
    let response = Response::from_data(body).with_status_code(status);
    with_header(response.boxed(), "Content-Type", content_type)
}

pub fn empty(status: u16) -> ResponseBox {
    Response::empty(status).boxed()
}

pub fn method_not_allowed(allow: &str) -> ResponseBox {
    let response = text(405, TEXT_PLAIN, "Method not allowed\n".into());
    with_header(response, "Allow", allow)
}
