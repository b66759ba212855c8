//! One request as the handlers see it, read off a connection within limits
//! checked while the bytes arrive: a client makes the server hold at most
//! [`MAX_HEAD`] bytes of head and [`BODY_LIMIT`] of body. The clock is the
//! server's: its reader fails past a deadline.

use std::io::{BufRead, ErrorKind, Read};

use tiny_http::{HTTPVersion, Header, Method};

/// Longest request target answered; longer ones get 414 while still
/// arriving. No URL of a site is near it, and it matches static hosting's limits.
pub const MAX_TARGET: usize = 8 * 1024;
/// Most bytes of a request head (request line and headers); more get 431
/// while still arriving, so no client makes the server buffer more. A
/// browser's head for this site is under 2 KiB (it sets no cookies); 32 KiB
/// is the order of what Node and nginx accept.
pub const MAX_HEAD: usize = 32 * 1024;
/// Larger bodies are refused with 413 before they are read: the only bodies
/// the preview takes are form posts, and a sign-up is a few hundred bytes.
pub const BODY_LIMIT: usize = 64 * 1024;
/// Room for a request line's method and version around its target.
const LINE_OVERHEAD: usize = 64;

pub struct Request {
    pub method: Method,
    /// As sent: origin-form, visible ASCII only.
    pub target: String,
    pub version: HTTPVersion,
    pub headers: Vec<Header>,
    pub body: Vec<u8>,
}

/// Why a request is not answered normally; the connection ends with it
/// (where a next request would start is unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The client went away, or never began a request: closed without a word.
    Gone,
    /// Answered with this status and text, then closed.
    Status(u16, &'static str),
}

impl Request {
    /// The value of the header `name`, if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
            .map(|h| h.value.as_str())
    }

    pub fn is_read(&self) -> bool {
        matches!(self.method, Method::Get | Method::Head)
    }

    /// Whether the connection ends after this request's answer (always for
    /// HTTP/1.0: its keep-alive is an extension no client here needs).
    pub fn closes(&self) -> bool {
        self.version <= HTTPVersion(1, 0)
            || self
                .header("Connection")
                .is_some_and(|value| value.to_ascii_lowercase().contains("close"))
    }

    /// The declared body length, refused when over [`BODY_LIMIT`], not one
    /// number, or chunked (no browser posts a form so; 411 asks for a
    /// length); and whether the client waits for `100 Continue` first.
    pub fn body_length(&self) -> Result<(usize, bool), Refusal> {
        let bad = Refusal::Status(400, "Bad Content-Length\n");
        let mut lengths = self
            .headers
            .iter()
            .filter(|h| h.field.equiv("Content-Length"));
        let length = match (lengths.next(), lengths.next()) {
            _ if self.header("Transfer-Encoding").is_some() => {
                return Err(Refusal::Status(
                    411,
                    "Send the body with a Content-Length\n",
                ));
            }
            (None, _) => 0,
            (Some(one), None) => match one.value.as_str() {
                text if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) => {
                    return Err(bad);
                }
                // All digits: only too large to parse, or over the limit.
                text => text
                    .parse()
                    .ok()
                    .filter(|&n| n <= BODY_LIMIT)
                    .ok_or(Refusal::Status(
                        413,
                        "The request body is larger than the 64 KiB the preview accepts\n",
                    ))?,
            },
            _ => return Err(bad),
        };
        let continues = match self.header("Expect") {
            None => false,
            Some(value) if value.eq_ignore_ascii_case("100-continue") => length > 0,
            Some(_) => {
                return Err(Refusal::Status(
                    417,
                    "Only Expect: 100-continue is understood\n",
                ));
            }
        };
        Ok((length, continues))
    }
}

/// Reads a request head: the request line and the headers, at most
/// [`MAX_HEAD`] bytes. Empty lines before it are skipped, as RFC 9112 asks.
pub fn read_head(reader: &mut impl BufRead) -> Result<Request, Refusal> {
    let mut budget = MAX_HEAD;
    let line = loop {
        let mut line_budget = budget.min(MAX_TARGET + LINE_OVERHEAD);
        let line =
            next_line(reader, &mut line_budget)?.ok_or(Refusal::Status(414, "URI too long\n"))?;
        budget -= line.len() + 2;
        if !line.is_empty() {
            break line;
        }
    };
    let (method, target, version) = request_line(&line)?;
    let mut headers = Vec::new();
    while let Some(line) = next_line(reader, &mut budget)? {
        if line.is_empty() {
            let body = Vec::new();
            return Ok(Request {
                method,
                target,
                version,
                headers,
                body,
            });
        }
        headers.push(header(&line)?);
    }
    Err(Refusal::Status(431, "Request headers too large\n"))
}

/// Reads a body of `length` bytes into `request`.
pub fn read_body(
    reader: &mut impl BufRead,
    request: &mut Request,
    length: usize,
) -> Result<(), Refusal> {
    match reader.take(length as u64).read_to_end(&mut request.body) {
        Err(err) => Err(failed(&err)),
        Ok(read) if read < length => Err(Refusal::Status(
            400,
            "The body ended before its Content-Length\n",
        )),
        Ok(_) => Ok(()),
    }
}

fn failed(err: &std::io::Error) -> Refusal {
    match err.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => {
            Refusal::Status(408, "The request took too long to arrive\n")
        }
        _ => Refusal::Gone,
    }
}

/// The next line without its CRLF, from at most `budget` bytes; `None` when
/// the budget runs out first.
fn next_line(reader: &mut impl BufRead, budget: &mut usize) -> Result<Option<Vec<u8>>, Refusal> {
    let mut line = Vec::new();
    let read = reader.take(*budget as u64).read_until(b'\n', &mut line);
    *budget -= line.len();
    match read {
        Err(err) => Err(failed(&err)),
        Ok(_) if line.ends_with(b"\r\n") => {
            line.truncate(line.len() - 2);
            Ok(Some(line))
        }
        Ok(_) if line.ends_with(b"\n") => {
            Err(Refusal::Status(400, "Lines of a request end with CRLF\n"))
        }
        Ok(_) if *budget == 0 => Ok(None),
        Ok(_) => Err(Refusal::Status(
            400,
            "The connection ended inside the request head\n",
        )),
    }
}

fn request_line(line: &[u8]) -> Result<(Method, String, HTTPVersion), Refusal> {
    let bad = Refusal::Status(400, "Bad request line\n");
    let text = std::str::from_utf8(line).map_err(|_| bad.clone())?;
    let parts: Vec<&str> = text.split(' ').collect();
    let [method, target, version] = parts[..] else {
        return Err(bad);
    };
    let version = match version {
        "HTTP/1.1" => HTTPVersion(1, 1),
        "HTTP/1.0" => HTTPVersion(1, 0),
        // HTTP/2 prior knowledge (`PRI * HTTP/2.0`), HTTP/3, HTTP/9.9...
        other if is_http_version(other) => {
            return Err(Refusal::Status(
                505,
                "This server speaks HTTP/1.1 and HTTP/1.0 only\n",
            ));
        }
        _ => return Err(bad),
    };
    if target.len() > MAX_TARGET {
        return Err(Refusal::Status(414, "URI too long\n"));
    }
    if method.is_empty()
        || !method.bytes().all(is_token_byte)
        || target.is_empty()
        || !target.bytes().all(|b| b.is_ascii_graphic())
    {
        return Err(bad);
    }
    let method = method.parse().map_err(|()| bad)?;
    Ok((method, target.to_string(), version))
}

/// `HTTP/` and a digit, with an optional `.digit`.
fn is_http_version(text: &str) -> bool {
    let Some(number) = text.strip_prefix("HTTP/") else {
        return false;
    };
    let (major, minor) = number.split_once('.').unwrap_or((number, "0"));
    let digit = |s: &str| s.len() == 1 && s.bytes().all(|b| b.is_ascii_digit());
    digit(major) && digit(minor)
}

/// RFC 9110 §5.1, §5.5: a name is a token; a value holds visible ASCII,
/// spaces and tabs (no control, no line folding).
fn header(line: &[u8]) -> Result<Header, Refusal> {
    let bad = || Refusal::Status(400, "Bad request header\n");
    let colon = line.iter().position(|&b| b == b':').ok_or_else(bad)?;
    let (name, value) = (&line[..colon], &line[colon + 1..]);
    let value = value.trim_ascii();
    let value_ok = value
        .iter()
        .all(|&b| b.is_ascii_graphic() || b == b' ' || b == b'\t');
    if name.is_empty() || !name.iter().all(|&b| is_token_byte(b)) || !value_ok {
        return Err(bad());
    }
    Header::from_bytes(name, value).map_err(|()| bad())
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}
