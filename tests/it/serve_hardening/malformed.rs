//! Requests no browser sends: malformed, of another HTTP version, or
//! carrying what would add a header or write to the owner's terminal.

use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::server_process::{Answer, ServerProcess, exchange, read_answer, status_or_close};
use crate::support::server::*;

#[test]
fn malformed_requests_get_an_error_or_a_clean_close() {
    let server = ServerProcess::start();
    let long_url = format!(
        "GET /{} HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "a".repeat(100_000)
    );
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("garbage bytes", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\xff\xfe\r\n\r\n".to_vec()),
        ("binary without a line end", (0..=255u8).cycle().take(5000).collect()),
        ("only a blank line", b"\r\n\r\n".to_vec()),
        ("no HTTP version", b"GET /\r\nHost: localhost\r\n\r\n".to_vec()),
        ("an unknown HTTP version", b"GET / HTTP/9.9\r\nHost: localhost\r\n\r\n".to_vec()),
        ("HTTP/2 as text", b"GET / HTTP/2.0\r\nHost: localhost\r\n\r\n".to_vec()),
        ("the HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec()),
        ("a lower-case method", b"get / HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("an unknown method", b"BREW / HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("too many spaces", b"GET  /  HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("a bad percent-encoding", b"GET /%zz%g HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("a cut percent-encoding", b"GET /privacypolicy% HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("invalid UTF-8 encoded", b"GET /%c0%af%ff HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("a raw non-ASCII target", b"GET /caf\xc3\xa9 HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("a NUL in the target", b"GET /index.html\x00.js HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("an encoded NUL", b"GET /index.html%00 HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("a NUL in a header", b"GET / HTTP/1.1\r\nHost: localhost\x00y\r\n\r\n".to_vec()),
        ("a header without a colon", b"GET / HTTP/1.1\r\nHost localhost\r\n\r\n".to_vec()),
        ("a header with no name", b"GET / HTTP/1.1\r\n: x\r\n\r\n".to_vec()),
        ("a non-ASCII header", b"GET / HTTP/1.1\r\nX-Name: caf\xc3\xa9\r\n\r\n".to_vec()),
        ("a folded header", b"GET / HTTP/1.1\r\nX-A: 1\r\n  folded\r\n\r\n".to_vec()),
        ("lone line feeds", b"GET / HTTP/1.1\nHost: localhost\n\n".to_vec()),
        ("an absolute target", b"GET http://127.0.0.1/ HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("an asterisk target", b"OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n".to_vec()),
        ("an unknown Expect", b"GET / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n".to_vec()),
        ("a bad Content-Length", b"POST /f/testform HTTP/1.1\r\nContent-Length: -1\r\n\r\n".to_vec()),
        ("two Content-Lengths", b"POST /f/testform HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 9\r\n\r\nabc".to_vec()),
        ("a bad chunk size", b"POST /f/testform HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\nabc\r\n0\r\n\r\n".to_vec()),
        ("a very long URL", long_url.into_bytes()),
    ];
    for (what, bytes) in &cases {
        let answer = exchange(server.addr, bytes, TIMEOUT);
        if let Some(status) = status_or_close(&answer, what) {
            assert!(
                matches!(status, 400 | 404 | 405 | 411 | 414 | 417 | 422 | 431 | 505),
                "{what}: answered {status}"
            );
        }
        if let Answer::Reply(reply) = &answer {
            assert!(!reply.text().contains("root:"), "{what} read /etc/passwd");
        }
    }
    // A few answers are exact, as the hosts give them.
    let status = |bytes: &[u8]| match exchange(server.addr, bytes, TIMEOUT) {
        Answer::Reply(reply) => reply.status,
        other => panic!("{other:?}"),
    };
    assert_eq!(status(b"GET /\r\nHost: localhost\r\n\r\n"), 400);
    assert_eq!(status(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), 505);
    assert_eq!(status(b"GET / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n"), 417);
    assert_eq!(status(b"GET / HTTP/1.1\nHost: localhost\n\n"), 400);
    assert_eq!(
        status(b"POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc"),
        400
    );
    assert_eq!(status(b"GET / HTTP/1.1\r\nHost localhost\r\n\r\n"), 400);
    assert_eq!(status(b"GET /%zz HTTP/1.1\r\nHost: localhost\r\n\r\n"), 404);
    assert_eq!(status(&cases.last().unwrap().1), 414);
    server.probe("malformed requests");
    server.finish();
}

#[test]
fn a_line_break_in_the_target_cannot_add_a_header() {
    let server = InProcess::start(true);
    // A lone LF ends no line: the request line holds a control, refused.
    let answer = exchange(
        server.addr(),
        b"GET /docs?a\nSet-Cookie:%20stolen=1 HTTP/1.1\r\nHost: localhost\r\n\r\n",
        TIMEOUT,
    );
    let Answer::Reply(reply) = answer else {
        panic!("{answer:?}")
    };
    assert_eq!(reply.status, 400);
    assert!(reply.header("Set-Cookie").is_none());
}

/// An HTTP/2 preface (or any version above 1.1) is answered 505 and closed,
/// and leaves no thread behind.
#[test]
fn other_http_versions_get_505_and_leave_nothing_behind() {
    let server = ServerProcess::start();
    server.probe("start");
    #[cfg(target_os = "linux")]
    let idle = server.threads();
    for n in 0..300 {
        let bytes: &[u8] = match n % 3 {
            0 => b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
            1 => b"GET / HTTP/2.0\r\nHost: localhost\r\n\r\n",
            _ => b"GET / HTTP/3.0\r\nHost: localhost\r\n\r\n",
        };
        // Not half-closed: the server must close by itself.
        let mut stream = TcpStream::connect(server.addr).unwrap();
        stream.write_all(bytes).unwrap();
        match read_answer(stream, TIMEOUT) {
            Answer::Reply(reply) => assert_eq!(reply.status, 505, "{n}"),
            other => panic!("preface {n}: {other:?}"),
        }
    }
    #[cfg(target_os = "linux")]
    server.back_to(idle, "300 prefaces");
    server.probe("300 prefaces");
    server.finish();
}

/// What a client posts reaches the terminal escaped, one line a submission:
/// no escape sequence retitles or clears it, no line break fakes a log line.
#[test]
fn submitted_values_reach_the_terminal_escaped() {
    let server = ServerProcess::start();
    let email = "ada@example.com\u{1b}]0;pwned\u{7}\u{1b}[2J\nerror: a fake line";
    let fields = [("email", email), ("firstName\r\nx", "Ada")];
    let body = serde_json::to_vec(&serde_json::Map::from_iter(
        fields
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v))),
    ))
    .unwrap();
    let reply = request(
        server.addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/json"),
        ],
        &body,
    );
    assert!(matches!(reply.status, 200 | 422), "{}", reply.text());
    // Printed before the answer, but read from the pipe by another thread.
    let deadline = Instant::now() + TIMEOUT;
    while !server.stderr().contains("form testform") && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let stderr = server.stderr();
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("form testform"))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr:?}");
    assert!(
        lines[0].contains(r"ada@example.com\u{1b}]0;pwned\u{7}\u{1b}[2J\nerror: a fake line ("),
        "{stderr:?}"
    );
    assert!(!stderr.contains(['\u{1b}', '\u{7}']), "{stderr:?}");
    assert!(
        !stderr.lines().any(|l| l.starts_with("error: a fake line")),
        "{stderr:?}"
    );
    server.finish();
}
