//! Requests larger than the server takes: heads too long or that never
//! end, bodies over the limit, declared huge or lying about their length.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::Instant;

use super::server_process::{
    Answer, PROBE, ServerProcess, exchange, post_sign_up, read_answer, status_or_close,
};
use crate::support::server::*;

#[test]
fn oversized_heads_are_refused() {
    let server = ServerProcess::start();
    let mut many_headers = String::from("GET / HTTP/1.1\r\nHost: localhost\r\n");
    for n in 0..64 {
        many_headers.push_str(&format!("X-Filler-{n}: {}\r\n", "v".repeat(1000)));
    }
    many_headers.push_str("\r\n");
    let one_huge = format!("GET / HTTP/1.1\r\nX-Huge: {}\r\n\r\n", "h".repeat(1 << 20));
    let huge_url = format!("GET /?q={} HTTP/1.1\r\n\r\n", "q".repeat(1 << 20));
    for (what, request, expected) in [
        ("64 KiB of headers", many_headers, 431),
        ("a 1 MiB header", one_huge, 431),
        ("a 1 MiB URL", huge_url, 414),
    ] {
        match exchange(server.addr, request.as_bytes(), TIMEOUT) {
            Answer::Reply(reply) => assert_eq!(reply.status, expected, "{what}"),
            other => panic!("{what}: {other:?}"),
        }
        server.probe(what);
    }
    // Just under the limits is still served.
    let mut fine = String::from("GET / HTTP/1.1\r\n");
    for n in 0..16 {
        fine.push_str(&format!("X-Filler-{n}: {}\r\n", "v".repeat(1000)));
    }
    fine.push_str("\r\n");
    match exchange(server.addr, fine.as_bytes(), TIMEOUT) {
        Answer::Reply(reply) => assert_eq!(reply.status, 200),
        other => panic!("{other:?}"),
    }
    server.finish();
}

#[test]
fn bodies_too_large_or_lying_are_answered() {
    let server = ServerProcess::start();
    let addr = server.addr;
    let post = |length: &str, extra: &str, body: &[u8]| {
        let mut bytes = format!(
            "POST /f/{FORM_ID} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\n{extra}\r\n"
        )
        .into_bytes();
        bytes.extend_from_slice(body);
        bytes
    };
    let status = |bytes: &[u8], what: &str| match exchange(addr, bytes, TIMEOUT) {
        Answer::Reply(reply) => reply.status,
        other => panic!("{what}: {other:?}"),
    };

    // The stand-in's limit, declared and sent.
    let over = curbside::serve::BODY_LIMIT + 1;
    let body = vec![b'a'; over];
    assert_eq!(status(&post(&over.to_string(), "", &body), "over"), 413);
    // Declared over the limit, with the client waiting to be told to go on.
    let expect = post(&over.to_string(), "Expect: 100-continue\r\n", b"");
    match exchange(addr, &expect, TIMEOUT) {
        Answer::Reply(reply) => assert_eq!(reply.status, 413, "no 100 Continue first"),
        other => panic!("{other:?}"),
    }
    // Chunked, so no length is declared: a length is asked for.
    let mut chunked = format!(
        "POST /f/{FORM_ID} HTTP/1.1\r\nAccept: application/json\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    .into_bytes();
    for _ in 0..20 {
        chunked.extend_from_slice(format!("1000\r\n{}\r\n", "b".repeat(0x1000)).as_bytes());
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    assert_eq!(status(&chunked, "chunked"), 411);
    server.probe("bodies over the limit");

    // Declared lengths no client sends in earnest (skipping one by
    // allocating its whole length once aborted the process).
    for length in ["1000000000000", "18446744073709551615", "17000000"] {
        for target in ["/", "/f/testform", "/__curbside/events", "/nope"] {
            let request = format!(
                "POST {target} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {length}\r\n\r\nabc"
            );
            let get = request.replacen("POST", "GET", 1);
            for bytes in [request, get] {
                let answer = exchange(addr, bytes.as_bytes(), TIMEOUT);
                assert_eq!(status_or_close(&answer, &bytes), Some(413), "{bytes}");
            }
        }
    }
    server.probe("bodies of a terabyte");

    // Declared longer than sent, and the sending side closed: answered from
    // what came.
    for (length, body) in [("5000", "email=a%40b.co"), ("900", "email=a%40b.co")] {
        let answer = exchange(addr, &post(length, "", body.as_bytes()), TIMEOUT);
        if let Some(status) = status_or_close(&answer, length) {
            assert!(matches!(status, 400 | 422), "{length}: {status}");
        }
    }
    // Declared shorter than sent: the rest is not a request.
    let short = post("3", "", b"a=bGARBAGE GARBAGE\r\n\r\n");
    match exchange(addr, &short, TIMEOUT) {
        Answer::Reply(reply) => assert_eq!(reply.status, 422),
        other => panic!("{other:?}"),
    }
    // Declared longer than sent, with the connection left open: that client
    // waits, the others do not.
    let mut liars = Vec::new();
    for _ in 0..20 {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .write_all(&post("60000", "", b"email=a%40b.co&x="))
            .unwrap();
        liars.push(stream);
    }
    server.probe("lying Content-Lengths");
    let started = Instant::now();
    let (status, _) = post_sign_up(addr);
    assert_eq!(status, 422, "the stand-in still answers others");
    assert!(started.elapsed() < PROBE);
    // Once a liar gives up sending, it is answered with what came.
    let liar = liars.pop().unwrap();
    liar.shutdown(Shutdown::Write).unwrap();
    match read_answer(liar, TIMEOUT) {
        Answer::Reply(reply) => assert!(matches!(reply.status, 400 | 422), "{reply:?}"),
        other => panic!("{other:?}"),
    }
    drop(liars);
    server.probe("liars gone");
    server.finish();
}

/// Sends an endless head starting with `start` (at most 256 MiB) on one
/// connection, and reads what the server answers meanwhile.
fn endless(addr: SocketAddr, start: &[u8], filler: &[u8]) -> (Answer, usize) {
    let stream = TcpStream::connect(addr).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let start = start.to_vec();
    let filler = filler.repeat(64 * 1024 / filler.len());
    let sender = std::thread::spawn(move || {
        let mut sent = 0;
        if writer.write_all(&start).is_err() {
            return 0;
        }
        while sent < 256 << 20 {
            match writer.write(&filler) {
                Ok(n) => sent += n,
                Err(_) => break,
            }
        }
        sent
    });
    let answer = read_answer(stream, TIMEOUT);
    (answer, sender.join().unwrap())
}

/// A head over the limit is refused while it still arrives, and the
/// connection closed, whatever part of the head never ends.
#[test]
fn endless_heads_are_refused_while_they_arrive() {
    let server = ServerProcess::start();
    for (what, start, filler, expected) in [
        ("a request line", b"GET /".as_slice(), b"a".as_slice(), 414),
        ("a header value", b"GET / HTTP/1.1\r\nX-Long: ", b"v", 431),
        (
            "header lines",
            b"GET / HTTP/1.1\r\n",
            b"X-Filler: 0123456789\r\n",
            431,
        ),
    ] {
        let (answer, sent) = endless(server.addr, start, filler);
        match answer {
            Answer::Reply(reply) => assert_eq!(reply.status, expected, "{what}"),
            other => panic!("an endless {what}: {other:?} after {sent} bytes"),
        }
        // Cut off long before the sender gave up by itself.
        assert!(sent < 64 << 20, "an endless {what}: {sent} bytes taken");
        server.probe(what);
    }
    server.finish();
}

/// A declared body over the limit is refused before it is read, without
/// `100 Continue`, and the connection is closed whether the client sends
/// the body, nothing, or waits to be told to go on.
#[test]
fn declared_huge_bodies_are_refused_and_closed() {
    let server = ServerProcess::start();
    server.probe("start");
    #[cfg(target_os = "linux")]
    let idle = server.threads();
    let head = |extra: &str| {
        format!(
            "POST /f/{FORM_ID} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 50000000\r\n{extra}\r\n"
        )
    };
    // Declared and never sent, on connections left open.
    let waiting: Vec<TcpStream> = (0..50)
        .map(|n| {
            let mut stream = TcpStream::connect(server.addr).unwrap();
            let extra = if n % 2 == 0 {
                "Expect: 100-continue\r\n"
            } else {
                ""
            };
            stream.write_all(head(extra).as_bytes()).unwrap();
            stream
        })
        .collect();
    for (n, stream) in waiting.into_iter().enumerate() {
        let mut received = Vec::new();
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        let read = (&stream).read_to_end(&mut received);
        assert!(read.is_ok(), "connection {n} was not closed: {read:?}");
        let text = String::from_utf8_lossy(&received);
        assert!(text.starts_with("HTTP/1.1 413 "), "connection {n}: {text}");
    }
    // Sent whole without asking: refused, and cut off well before its end.
    let (answer, sent) = endless(server.addr, head("").as_bytes(), b"email=");
    match answer {
        Answer::Reply(reply) => assert_eq!(reply.status, 413),
        other => panic!("a 50 MB upload: {other:?}"),
    }
    assert!(sent < 50_000_000, "{sent} bytes of the body taken");
    #[cfg(target_os = "linux")]
    server.back_to(idle, "declared bodies");
    server.probe("declared bodies");
    server.finish();
}
