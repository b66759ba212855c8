//! One request as the handlers see it, and reading it off a connection
//! within hard limits. Nothing here waits on the clock: the server gives the
//! reader a deadline, and a read past it fails.
//!
//! Every limit is checked while the bytes arrive, so a client can make the
//! server hold at most [`MAX_HEAD`] bytes of head and [`BODY_LIMIT`] bytes
//! of body. A request this server would not answer in full (another HTTP
//! version, a head or body over its limit, a malformed line) is a
//! [`Refusal`]: answered with its status, and the connection closed, since
//! where the next request would start is unknown.

use std::io::{BufRead, ErrorKind, Read};

use tiny_http::{HTTPVersion, Header, Method};

/// Longest request target answered; longer ones get 414 while still
/// arriving. No URL of a site is near it, and it matches the static hosts.
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

/// Why a request is not answered normally; the connection ends with it.
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

    /// Whether the connection ends after this request's answer. HTTP/1.0
    /// connections always do (their keep-alive is an extension no client of
    /// the preview needs).
    pub fn closes(&self) -> bool {
        self.version <= HTTPVersion(1, 0)
            || self
                .header("Connection")
                .is_some_and(|value| value.to_ascii_lowercase().contains("close"))
    }

    /// Whether the client waits for `100 Continue` before sending its body;
    /// an expectation other than that one is refused.
    pub fn expects_continue(&self) -> Result<bool, Refusal> {
        match self.header("Expect") {
            None => Ok(false),
            Some(value) if value.eq_ignore_ascii_case("100-continue") => Ok(true),
            Some(_) => Err(Refusal::Status(
                417,
                "Only Expect: 100-continue is understood\n",
            )),
        }
    }

    /// How the body is framed, refused when over [`BODY_LIMIT`] or
    /// ambiguous (two lengths, or a length and chunks: a smuggling trick).
    pub fn framing(&self) -> Result<Framing, Refusal> {
        let bad = Refusal::Status(400, "Bad Content-Length or Transfer-Encoding\n");
        let lengths: Vec<&str> = self
            .headers
            .iter()
            .filter(|h| h.field.equiv("Content-Length"))
            .map(|h| h.value.as_str())
            .collect();
        match self.header("Transfer-Encoding") {
            Some(_) if !lengths.is_empty() => return Err(bad),
            Some(coding) if coding.eq_ignore_ascii_case("chunked") => return Ok(Framing::Chunked),
            Some(_) => {
                return Err(Refusal::Status(
                    501,
                    "Only chunked transfer coding is understood\n",
                ));
            }
            None => {}
        }
        let Some(first) = lengths.first() else {
            return Ok(Framing::Length(0));
        };
        if lengths.iter().any(|length| length != first)
            || first.is_empty()
            || !first.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad);
        }
        match first.parse::<usize>() {
            Ok(length) if length <= BODY_LIMIT => Ok(Framing::Length(length)),
            // All digits, so only too large to parse or over the limit.
            _ => Err(too_large()),
        }
    }
}

/// How a request's body is delimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    Length(usize),
    Chunked,
}

fn too_large() -> Refusal {
    Refusal::Status(
        413,
        "The request body is larger than the 64 KiB the preview accepts\n",
    )
}

/// Reads a request head: the request line and the headers, at most
/// [`MAX_HEAD`] bytes. Empty lines before it are skipped, as RFC 9112 asks.
pub fn read_head(reader: &mut impl BufRead) -> Result<Request, Refusal> {
    let mut budget = MAX_HEAD;
    let mut started = false;
    let line = loop {
        let mut line_budget = budget.min(MAX_TARGET + LINE_OVERHEAD);
        let line = next_line(reader, &mut line_budget, &mut started)?
            .ok_or(Refusal::Status(414, "URI too long\n"))?;
        budget -= line.len();
        let line = without_crlf(line)?;
        if !line.is_empty() {
            break line;
        }
    };
    let (method, target, version) = request_line(&line)?;
    let mut headers = Vec::new();
    loop {
        let line = next_line(reader, &mut budget, &mut started)?
            .ok_or(Refusal::Status(431, "Request headers too large\n"))?;
        let line = without_crlf(line)?;
        if line.is_empty() {
            break;
        }
        headers.push(header(&line)?);
    }
    Ok(Request {
        method,
        target,
        version,
        headers,
        body: Vec::new(),
    })
}

/// Reads the body `framing` describes into `request`.
pub fn read_body(
    reader: &mut impl BufRead,
    request: &mut Request,
    framing: Framing,
) -> Result<(), Refusal> {
    let limit = u64::try_from(BODY_LIMIT).unwrap_or(u64::MAX);
    let failed = |err: std::io::Error| match err.kind() {
        ErrorKind::WouldBlock | ErrorKind::TimedOut => timed_out(),
        ErrorKind::InvalidInput => Refusal::Status(400, "Malformed chunked body\n"),
        _ => Refusal::Gone,
    };
    match framing {
        Framing::Length(0) => {}
        Framing::Length(length) => {
            let length = u64::try_from(length).unwrap_or(u64::MAX);
            reader
                .take(length)
                .read_to_end(&mut request.body)
                .map_err(failed)?;
            if (request.body.len() as u64) < length {
                return Err(Refusal::Status(
                    400,
                    "The body ended before its Content-Length\n",
                ));
            }
        }
        Framing::Chunked => {
            // The framing counts too, so a chunk-size line cannot grow forever.
            let mut raw = reader.take(2 * limit);
            let mut decoder = chunked_transfer::Decoder::new(&mut raw).take(limit + 1);
            let read = decoder.read_to_end(&mut request.body);
            if request.body.len() > BODY_LIMIT || raw.limit() == 0 {
                return Err(too_large());
            }
            read.map_err(failed)?;
        }
    }
    Ok(())
}

fn timed_out() -> Refusal {
    Refusal::Status(408, "The request took too long to arrive\n")
}

/// The next line, up to and with its LF, from at most `budget` bytes;
/// `None` when the budget runs out first.
fn next_line(
    reader: &mut impl BufRead,
    budget: &mut usize,
    started: &mut bool,
) -> Result<Option<Vec<u8>>, Refusal> {
    let mut line = Vec::new();
    let limit = u64::try_from(*budget).unwrap_or(u64::MAX);
    let read = reader.take(limit).read_until(b'\n', &mut line);
    *budget -= line.len();
    *started |= !line.is_empty();
    match read {
        Err(err) if matches!(err.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
            // A connection that never began a request is simply idle.
            Err(if *started { timed_out() } else { Refusal::Gone })
        }
        Err(_) => Err(Refusal::Gone),
        Ok(_) if line.ends_with(b"\n") => Ok(Some(line)),
        Ok(_) if *budget == 0 => Ok(None),
        Ok(_) if !*started => Err(Refusal::Gone),
        Ok(_) => Err(Refusal::Status(
            400,
            "The connection ended inside the request head\n",
        )),
    }
}

fn without_crlf(mut line: Vec<u8>) -> Result<Vec<u8>, Refusal> {
    if !line.ends_with(b"\r\n") {
        return Err(Refusal::Status(400, "Lines of a request end with CRLF\n"));
    }
    line.truncate(line.len() - 2);
    Ok(line)
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
/// spaces and tabs (no NUL, CR, LF or other control, and no obsolete line
/// folding).
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

#[cfg(test)]
mod tests {
    use super::*;

    fn head(bytes: &[u8]) -> Result<Request, Refusal> {
        read_head(&mut &bytes[..])
    }

    fn status(bytes: &[u8]) -> Option<u16> {
        match head(bytes) {
            Err(Refusal::Status(status, _)) => Some(status),
            Err(Refusal::Gone) => Some(0),
            Ok(_) => None,
        }
    }

    #[test]
    fn a_plain_request_is_read_and_the_next_one_left_in_place() {
        let bytes = b"\r\nGET /a?b HTTP/1.1\r\nHost: localhost\r\nX-A:  v 1 \r\n\r\nGET /next";
        let mut reader = &bytes[..];
        let request = read_head(&mut reader).unwrap();
        assert_eq!(request.method, Method::Get);
        assert_eq!(request.target, "/a?b");
        assert_eq!(request.header("x-a"), Some("v 1"));
        assert!(!request.closes());
        assert_eq!(reader, b"GET /next");
    }

    #[test]
    fn other_protocols_get_505_and_nonsense_400() {
        assert_eq!(status(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), Some(505));
        assert_eq!(status(b"GET / HTTP/3\r\n\r\n"), Some(505));
        assert_eq!(status(b"GET / HTTP/1.1x\r\n\r\n"), Some(400));
        assert_eq!(status(b"GET /\r\n\r\n"), Some(400));
        assert_eq!(status(b"GET / HTTP/1.1\nHost: x\n\n"), Some(400));
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nX: caf\xc3\xa9\r\n\r\n"),
            Some(400)
        );
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nX: 1\r\n folded\r\n\r\n"),
            Some(400)
        );
        assert_eq!(status(b"GET / HTTP/1.1\r\nHost: lo"), Some(400));
        assert_eq!(status(b""), Some(0));
    }

    #[test]
    fn heads_over_the_limits_are_refused_before_their_end() {
        // Endless: no line end ever comes, yet the answer is known.
        let endless = |prefix: &[u8]| {
            let mut reader = prefix.chain(std::io::repeat(b'a'));
            match read_head(&mut std::io::BufReader::new(&mut reader)) {
                Err(Refusal::Status(status, _)) => status,
                _ => 0,
            }
        };
        assert_eq!(endless(b"GET /"), 414);
        assert_eq!(endless(b"GET / HTTP/1.1\r\nX: "), 431);
        let many = b"X: y\r\n".repeat(MAX_HEAD / 6);
        assert_eq!(
            endless(&[b"GET / HTTP/1.1\r\n".as_slice(), &many].concat()),
            431
        );
    }

    #[test]
    fn bodies_are_framed_once_and_within_the_limit() {
        let framing = |extra: &str| {
            let text = format!("POST / HTTP/1.1\r\n{extra}\r\n");
            head(text.as_bytes()).unwrap().framing()
        };
        assert_eq!(framing(""), Ok(Framing::Length(0)));
        assert_eq!(framing("Content-Length: 5\r\n"), Ok(Framing::Length(5)));
        for bad in [
            "Content-Length: -1\r\n",
            "Content-Length: 3\r\nContent-Length: 9\r\n",
            "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n",
        ] {
            assert!(
                matches!(framing(bad), Err(Refusal::Status(400, _))),
                "{bad}"
            );
        }
        for huge in ["65537", "18446744073709551616000"] {
            let extra = format!("Content-Length: {huge}\r\n");
            assert!(matches!(framing(&extra), Err(Refusal::Status(413, _))));
        }
        let mut request = head(b"POST / HTTP/1.1\r\n\r\n").unwrap();
        let chunked = b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\nNEXT";
        let mut reader = &chunked[..];
        read_body(&mut reader, &mut request, Framing::Chunked).unwrap();
        assert_eq!(request.body, b"abcde");
        assert_eq!(reader, b"NEXT");
        let endless = std::io::repeat(b'1');
        let result = read_body(
            &mut std::io::BufReader::new(endless),
            &mut request,
            Framing::Chunked,
        );
        assert!(matches!(result, Err(Refusal::Status(413, _))));
    }
}
