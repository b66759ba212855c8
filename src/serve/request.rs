//! One request read off a connection within limits checked as the bytes arrive:
//! at most [`MAX_HEAD`] of head and [`BODY_LIMIT`] of body. httparse reads the
//! head; the reader fails past the server's deadline.

use std::io::{BufRead, ErrorKind, Read};

use tiny_http::{HTTPVersion, Header, Method};

/// Longest target answered (414 while still arriving): far above any site URL,
/// as static hosts allow.
pub const MAX_TARGET: usize = 8 * 1024;
/// Most bytes of a head; more get 431 while arriving. A browser's head here is
/// under 2 KiB (no cookies); 32 KiB is about what Node and nginx accept.
pub const MAX_HEAD: usize = 32 * 1024;
/// Larger bodies get 413 unread: the preview takes only form posts, a few hundred bytes.
pub const BODY_LIMIT: usize = 64 * 1024;
const LINE_OVERHEAD: usize = 64;

pub struct Request {
    pub method: Method,
    /// Origin-form, visible ASCII only.
    pub target: String,
    pub version: HTTPVersion,
    pub headers: Vec<Header>,
    pub body: Vec<u8>,
}

/// Why a request is not answered normally; the connection ends, as where a next
/// request starts is unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Gone, or never began: closed without a word.
    Gone,
    Status(u16, &'static str),
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
            .map(|h| h.value.as_str())
    }

    pub fn is_read(&self) -> bool {
        matches!(self.method, Method::Get | Method::Head)
    }

    /// Whether the connection ends after the answer (always for HTTP/1.0: no
    /// client here needs its keep-alive extension).
    pub fn closes(&self) -> bool {
        self.version <= HTTPVersion(1, 0)
            || self
                .header("Connection")
                .is_some_and(|value| value.to_ascii_lowercase().contains("close"))
    }

    /// The body length, refused over [`BODY_LIMIT`], if not one number, or
    /// chunked (no browser posts a form so; 411 asks for a length); and whether
    /// the client waits for `100 Continue`.
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
                // All digits: too large to parse, or over the limit.
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

/// Reads a head a line at a time, at most [`MAX_HEAD`] bytes. httparse reads
/// the request line as it ends (an HTTP/2 preface is refused at once) and the
/// head at its blank line: twice, so a head sent a line at a time costs no more
/// than one sent whole.
pub fn read_head(reader: &mut impl BufRead) -> Result<Request, Refusal> {
    let mut head = Vec::new();
    // Empty lines before the request line are skipped (RFC 9112).
    let mut began = false;
    loop {
        let start = head.len();
        let mut limit = MAX_HEAD - start;
        if !began {
            limit = limit.min(MAX_TARGET + LINE_OVERHEAD);
        }
        let line = reader.take(limit as u64).read_until(b'\n', &mut head);
        line.map_err(failed)?;
        let line = &head[start..];
        let blank = matches!(line, b"\n" | b"\r\n");
        if !line.ends_with(b"\n") {
            return Err(match line.len() {
                n if n < limit => {
                    Refusal::Status(400, "The connection ended inside the request head\n")
                }
                _ if began => Refusal::Status(431, "Request headers too large\n"),
                _ => Refusal::Status(414, "URI too long\n"),
            });
        }
        if blank == began
            && let Some(request) = parse_head(&head)?
        {
            return Ok(request);
        }
        began |= !blank;
    }
}

/// `None` until the head has all arrived.
fn parse_head(head: &[u8]) -> Result<Option<Request>, Refusal> {
    let bad_line = Refusal::Status(400, "Bad request line\n");
    let bad_header = Refusal::Status(400, "Bad request header\n");
    // As many headers as lines: httparse never runs out of room.
    let mut headers = vec![httparse::EMPTY_HEADER; head.iter().filter(|&&b| b == b'\n').count()];
    let mut parsed = httparse::Request::new(&mut headers);
    let status = parsed.parse(head);
    if parsed.path.is_some_and(|target| target.len() > MAX_TARGET) {
        return Err(Refusal::Status(414, "URI too long\n"));
    }
    match status {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Ok(None),
        // HTTP/2 prior knowledge (`PRI * HTTP/2.0`), HTTP/3, HTTP/9.9...
        Err(httparse::Error::Version) if is_other_version(head) => {
            return Err(Refusal::Status(
                505,
                "This server speaks HTTP/1.1 and HTTP/1.0 only\n",
            ));
        }
        Err(httparse::Error::HeaderName | httparse::Error::HeaderValue) => return Err(bad_header),
        Err(_) => return Err(bad_line),
    }
    // httparse also ends lines at a lone LF.
    let lone_lf = (0..head.len()).any(|at| head[at] == b'\n' && (at == 0 || head[at - 1] != b'\r'));
    if lone_lf {
        return Err(Refusal::Status(400, "Lines of a request end with CRLF\n"));
    }
    let (Some(method), Some(target), Some(minor)) = (parsed.method, parsed.path, parsed.version)
    else {
        return Err(bad_line);
    };
    // httparse lets UTF-8 through, in the target and in header values.
    if !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(bad_line);
    }
    let headers = parsed
        .headers
        .iter()
        .map(|h| Header::from_bytes(h.name, h.value))
        .collect::<Result<_, ()>>()
        .map_err(|()| bad_header)?;
    Ok(Some(Request {
        method: method.parse().map_err(|()| bad_line)?,
        target: target.to_string(),
        version: HTTPVersion(1, minor),
        headers,
        body: Vec::new(),
    }))
}

/// A version httparse refuses as neither 1.0 nor 1.1: `HTTP/` and a digit, optionally `.digit`.
fn is_other_version(head: &[u8]) -> bool {
    let mut lines = head.trim_ascii_start().split(|&b| b == b'\r' || b == b'\n');
    let line = lines.next().unwrap_or_default();
    let version = line.rsplit(|&b| b == b' ').next().unwrap_or_default();
    matches!(
        version.strip_prefix(b"HTTP/"),
        Some([major] | [major, b'.', b'0'..=b'9']) if major.is_ascii_digit()
    )
}

pub fn read_body(reader: &mut impl BufRead, length: usize) -> Result<Vec<u8>, Refusal> {
    let mut body = Vec::with_capacity(length);
    match reader.take(length as u64).read_to_end(&mut body) {
        Err(err) => Err(failed(err)),
        Ok(read) if read < length => Err(Refusal::Status(
            400,
            "The body ended before its Content-Length\n",
        )),
        Ok(_) => Ok(body),
    }
}

fn failed(err: std::io::Error) -> Refusal {
    match err.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => {
            Refusal::Status(408, "The request took too long to arrive\n")
        }
        _ => Refusal::Gone,
    }
}
