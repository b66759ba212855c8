//! The preview server against hostile, broken, slow and numerous clients,
//! over real sockets on 127.0.0.1: malformed and oversized requests, bodies
//! that lie about their length, hundreds of connections at once, a hundred
//! idle live-reload tabs, clients that dribble or never read. After every
//! attack a probe must be answered promptly, and the server's stderr must
//! show no panic: the server runs in a process of its own (this test binary,
//! started again as [`server_process`]) so its output can be read.
//!
//! Every loop here is bounded in count and time, and all traffic goes to
//! the loopback address the server listens on.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use crate::support::fixture::Fixture;
use crate::support::server::*;

/// How soon a probe must be answered after an attack. Generous: the two
/// cores of a test machine are shared with builds and other suites.
const PROBE: Duration = Duration::from_secs(3);
/// How soon the server's threads must be back to their idle count once the
/// clients left (every connection thread ends within the longest timeout).
const THREADS_BACK: Duration = Duration::from_secs(15);
/// The environment variable that makes [`server_process`] serve.
const CHILD: &str = "CURBSIDE_HARDENING_SERVER";
/// A file large enough that a client that never reads cannot take it whole
/// into its socket buffers.
const BIG_FILE: &str = "big.bin";
const BIG_SIZE: usize = 8 * 1024 * 1024;

// ---------------------------------------------------------------- the server process

/// Not a test of its own: the server the other tests attack, started by
/// [`ServerProcess::start`]. It serves a [`StaticSite`] until its standard
/// input closes; a line `built` or `failed <message>` on it ends a build.
#[test]
#[ignore = "started by the other tests as their server process"]
fn server_process() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let server = InProcess::start(true);
    std::fs::write(server.site.root().join(BIG_FILE), vec![b'x'; BIG_SIZE]).unwrap();
    println!("listening on {}", server.addr());
    std::io::stdout().flush().unwrap();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        match line.split_once(' ') {
            _ if line == "built" => server.preview.live().built(),
            Some(("failed", message)) => server.preview.live().failed(message),
            _ => eprintln!("unknown command {line:?}"),
        }
    }
    // Threads parked on clients that never read are left behind.
    std::process::exit(0);
}

/// [`server_process`]'s name as the test harness knows it: its module path
/// without the binary's own name.
fn server_process_name() -> String {
    match module_path!().split_once("::") {
        Some((_binary, module)) => format!("{module}::server_process"),
        None => "server_process".to_string(),
    }
}

struct ServerProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stderr: Arc<Mutex<String>>,
    /// Ends when the process's stderr closes.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    addr: SocketAddr,
}

impl ServerProcess {
    fn start() -> ServerProcess {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                server_process_name().as_str(),
                "--exact",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the server process");
        let stderr = Arc::new(Mutex::new(String::new()));
        let stderr_reader = {
            let stderr = stderr.clone();
            let mut pipe = child.stderr.take().unwrap();
            std::thread::spawn(move || {
                let mut chunk = [0u8; 4096];
                while let Ok(n @ 1..) = pipe.read(&mut chunk) {
                    stderr
                        .lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&chunk[..n]));
                }
            })
        };
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        let addr = loop {
            line.clear();
            assert!(
                stdout.read_line(&mut line).unwrap() > 0,
                "the server process ended: {}",
                stderr.lock().unwrap()
            );
            // libtest may have started the line with the test's name.
            if let Some((_, addr)) = line.trim().split_once("listening on ") {
                break addr.parse().unwrap();
            }
        };
        // The rest of its output is not needed, but must not fill the pipe.
        std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
        let stdin = child.stdin.take();
        ServerProcess {
            child,
            stdin,
            stderr,
            stderr_reader: Some(stderr_reader),
            addr,
        }
    }

    fn tell(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{command}").unwrap();
        stdin.flush().unwrap();
    }

    /// A page and a missing one are answered correctly within [`PROBE`].
    fn probe(&self, after: &str) {
        for (target, status, text) in [("/", 200, "home page"), ("/nope", 404, "Page not found")] {
            let started = Instant::now();
            let answer = exchange(
                self.addr,
                format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .as_bytes(),
                PROBE,
            );
            match answer {
                Answer::Reply(reply) => {
                    assert_eq!(reply.status, status, "probe of {target} after {after}");
                    assert!(reply.text().contains(text), "probe after {after}");
                }
                other => panic!(
                    "probe of {target} after {after}: {other:?} within {:?}; the server said:\n{}",
                    started.elapsed(),
                    self.stderr()
                ),
            }
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// The server process's threads, as the system counts them.
    #[cfg(target_os = "linux")]
    fn threads(&self) -> usize {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|line| line.strip_prefix("Threads:"))
            .and_then(|n| n.trim().parse().ok())
            .unwrap()
    }

    /// Waits until the server is back to `idle` threads, which it must be
    /// within [`THREADS_BACK`] of its clients leaving.
    #[cfg(target_os = "linux")]
    fn back_to(&self, idle: usize, after: &str) {
        let deadline = Instant::now() + THREADS_BACK;
        while self.threads() > idle {
            assert!(
                Instant::now() < deadline,
                "after {after}: {} threads, {idle} when idle",
                self.threads()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server and checks it never panicked.
    fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        while self.child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let exited = self.child.try_wait().unwrap();
        // Everything the process printed has been read once its stderr
        // closes, which ends the reader.
        if exited.is_some()
            && let Some(reader) = self.stderr_reader.take()
        {
            reader.join().unwrap();
        }
        let stderr = self.stderr();
        assert!(
            !stderr.contains("panicked"),
            "the server panicked:\n{stderr}"
        );
        assert!(
            exited.is_some_and(|status| status.success()),
            "the server did not stop cleanly ({exited:?}):\n{stderr}"
        );
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------- raw exchanges

#[derive(Debug)]
enum Answer {
    Reply(Reply),
    /// The server closed (or reset) the connection without a word.
    Closed,
    /// No answer, and no close, within the time given.
    Silent(Vec<u8>),
}

/// Sends `bytes`, ends the sending side, and reads until the server closes.
fn exchange(addr: SocketAddr, bytes: &[u8], within: Duration) -> Answer {
    let mut stream = TcpStream::connect_timeout(&addr, within).expect("connect");
    stream.set_write_timeout(Some(within)).unwrap();
    // The server may answer and close before reading everything sent.
    let _ = stream.write_all(bytes);
    let _ = stream.shutdown(Shutdown::Write);
    read_answer(stream, within)
}

fn read_answer(mut stream: TcpStream, within: Duration) -> Answer {
    let deadline = Instant::now() + within;
    let mut received = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Answer::Silent(received);
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                received.extend_from_slice(&chunk[..n]);
                if is_complete(&received) {
                    break;
                }
            }
            Err(err) if matches!(err.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                return Answer::Silent(received);
            }
            // A reset after the answer still leaves the answer.
            Err(_) => break,
        }
    }
    if received.is_empty() {
        Answer::Closed
    } else {
        Answer::Reply(parse_reply(final_answer(&received)))
    }
}

/// `received` without the interim (1xx) answers before the final one.
fn final_answer(mut received: &[u8]) -> &[u8] {
    while received.starts_with(b"HTTP/1.1 1") || received.starts_with(b"HTTP/1.0 1") {
        match received.windows(4).position(|w| w == b"\r\n\r\n") {
            Some(end) => received = &received[end + 4..],
            None => break,
        }
    }
    received
}

/// Whether `received` holds a whole answer with a declared length (the
/// server may keep the connection open after it).
fn is_complete(received: &[u8]) -> bool {
    let received = final_answer(received);
    let Some(end) = received.windows(4).position(|w| w == b"\r\n\r\n") else {
        return false;
    };
    let head = String::from_utf8_lossy(&received[..end]).to_ascii_lowercase();
    head.lines()
        .filter_map(|line| line.strip_prefix("content-length:"))
        .filter_map(|value| value.trim().parse::<usize>().ok())
        .next_back()
        .is_some_and(|length| received.len() >= end + 4 + length)
}

/// The status of `answer`, or `None` for a clean close; anything else fails.
fn status_or_close(answer: &Answer, what: &str) -> Option<u16> {
    match answer {
        Answer::Reply(reply) => Some(reply.status),
        Answer::Closed => None,
        Answer::Silent(got) => panic!(
            "{what}: neither answered nor closed; got {:?}",
            String::from_utf8_lossy(got)
        ),
    }
}

// ---------------------------------------------------------------- malformed and oversized requests

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

fn post_sign_up(addr: SocketAddr) -> (u16, String) {
    let reply = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        b"email=a%40b.co",
    );
    (reply.status, reply.text())
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

// ---------------------------------------------------------------- the five holes

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

/// A connection that sends nothing, or half a head, is closed after a
/// timeout; a live-reload stream, which sends nothing either, stays open.
#[test]
fn silent_connections_are_closed_but_live_reload_streams_stay() {
    let mut server = ServerProcess::start();
    let mut events = EventStream::open(server.addr, None);
    let silent: Vec<TcpStream> = (0..50)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    let mut half = TcpStream::connect(server.addr).unwrap();
    half.write_all(b"GET / HTTP/1.1\r\nHost: loc").unwrap();
    let within = Duration::from_secs(30);
    for (n, stream) in silent.into_iter().enumerate() {
        match read_answer(stream, within) {
            Answer::Closed => {}
            other => panic!("silent connection {n}: {other:?}"),
        }
    }
    match read_answer(half, within) {
        Answer::Reply(reply) => assert_eq!(reply.status, 408),
        other => panic!("half a head: {other:?}"),
    }
    // The stream outlived them all, and still hears of builds.
    server.tell("built");
    let event = events.next(TIMEOUT).expect("the stream is still open");
    assert_eq!(event.kind, "reload");
    server.probe("silent connections");
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

// ---------------------------------------------------------------- many clients

#[test]
fn five_hundred_connections_at_once() {
    let server = ServerProcess::start();
    let addr = server.addr;
    const CLIENTS: usize = 500;
    let start = Arc::new(Barrier::new(CLIENTS));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|n| {
            let start = start.clone();
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || {
                    let target = [
                        "/",
                        "/privacypolicy",
                        "/assets/site-0123456789.css",
                        "/nope",
                    ][n % 4];
                    start.wait();
                    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_secs(30))
                    else {
                        return (target, Answer::Closed);
                    };
                    let request = format!(
                        "GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    );
                    let _ = stream.write_all(request.as_bytes());
                    (target, read_answer(stream, Duration::from_secs(60)))
                })
                .unwrap()
        })
        .collect();
    let (mut answered, mut closed) = (0, 0);
    for client in clients {
        let (target, answer) = client.join().unwrap();
        match status_or_close(&answer, target) {
            Some(status) => {
                let expected = if target == "/nope" { 404 } else { 200 };
                assert_eq!(status, expected, "{target}");
                answered += 1;
            }
            None => closed += 1,
        }
    }
    assert!(
        answered >= CLIENTS * 9 / 10,
        "{answered} answered, {closed} closed"
    );
    server.probe("500 connections");
    server.finish();
}

#[test]
fn a_hundred_idle_live_reload_tabs_leave_pages_fast() {
    let mut server = ServerProcess::start();
    let addr = server.addr;
    // More than the 64 streams once allowed.
    const TABS: usize = 150;
    let mut tabs: Vec<EventStream> = (0..TABS).map(|_| EventStream::open(addr, None)).collect();
    assert!(tabs.iter().all(|tab| tab.status == 200));
    let started = Instant::now();
    for n in 0..40 {
        let reply = get(
            addr,
            ["/", "/privacypolicy", "/__curbside/live.js", "/nope"][n % 4],
        );
        assert!(matches!(reply.status, 200 | 404));
    }
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "40 requests took {took:?}");
    server.probe("150 open tabs");

    // Every tab hears of every build.
    server.tell("failed error: content/plans.yaml:3:10: bad price");
    for (n, tab) in tabs.iter_mut().enumerate() {
        let event = tab
            .next(TIMEOUT)
            .unwrap_or_else(|| panic!("tab {n} heard nothing"));
        assert_eq!(event.kind, "error", "tab {n}");
        assert!(event.data.contains("content/plans.yaml:3:10"));
    }
    server.tell("built");
    for (n, tab) in tabs.iter_mut().enumerate() {
        assert_eq!(
            tab.next(TIMEOUT).map(|e| e.kind),
            Some("reload".into()),
            "tab {n}"
        );
    }
    // Closed tabs give their place back.
    drop(tabs);
    let again: Vec<EventStream> = (0..TABS).map(|_| EventStream::open(addr, None)).collect();
    assert!(again.iter().all(|tab| tab.status == 200));
    drop(again);
    server.probe("tabs closed");
    server.finish();
}

/// Kept-alive connections opened in a burst are each answered at once (a
/// pool that queued a connection behind a kept-alive one left some of these
/// 40 unanswered until another closed).
#[test]
fn a_burst_of_kept_alive_connections_is_answered() {
    for round in 0..8 {
        let server = InProcess::start(true);
        let addr = server.addr();
        const CLIENTS: usize = 40;
        let start = Arc::new(Barrier::new(CLIENTS));
        let clients: Vec<_> = (0..CLIENTS)
            .map(|_| {
                let start = start.clone();
                std::thread::spawn(move || {
                    start.wait();
                    let mut stream = TcpStream::connect(addr).unwrap();
                    // Kept alive: the connection holds its pool thread.
                    stream
                        .write_all(b"GET /robots.txt HTTP/1.1\r\nHost: localhost\r\n\r\n")
                        .unwrap();
                    stream
                        .set_read_timeout(Some(Duration::from_secs(5)))
                        .unwrap();
                    let mut head = [0u8; 12];
                    let answered = stream.read_exact(&mut head).is_ok();
                    (answered, stream)
                })
            })
            .collect();
        let results: Vec<(bool, TcpStream)> =
            clients.into_iter().map(|c| c.join().unwrap()).collect();
        let stranded = results.iter().filter(|(answered, _)| !answered).count();
        assert_eq!(
            stranded, 0,
            "round {round}: {stranded} of {CLIENTS} never answered"
        );
    }
}

// ---------------------------------------------------------------- slow clients

#[test]
fn slow_clients_hold_up_only_themselves() {
    let server = ServerProcess::start();
    let addr = server.addr;

    // A request sent a byte at a time is answered whole.
    let dribbler = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.set_nodelay(true).unwrap();
        for byte in b"GET /privacypolicy HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" {
            stream.write_all(&[*byte]).unwrap();
            std::thread::sleep(Duration::from_millis(15));
        }
        read_answer(stream, TIMEOUT)
    });
    // Heads that never end.
    let mut stalled = Vec::new();
    for n in 0..50 {
        let mut stream = TcpStream::connect(addr).unwrap();
        let partial: &[u8] = if n % 2 == 0 {
            b"GET /privacypo"
        } else {
            b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
        };
        stream.write_all(partial).unwrap();
        stalled.push(stream);
    }
    server.probe("50 unfinished heads");

    // Clients that never read: ten downloads of a file larger than socket
    // buffers hold, and one connection pipelining thousands of requests
    // (whose answers are written in order: a fixed pool of workers used to
    // be taken whole by it).
    let mut readers_never = Vec::new();
    for _ in 0..10 {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .write_all(format!("GET /{BIG_FILE} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes())
            .unwrap();
        readers_never.push(stream);
    }
    let mut pipeliner = TcpStream::connect(addr).unwrap();
    pipeliner
        .set_write_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let one = b"GET /privacypolicy HTTP/1.1\r\nHost: localhost\r\n\r\n";
    let many: Vec<u8> = one
        .iter()
        .copied()
        .cycle()
        .take(one.len() * 20_000)
        .collect();
    // The server may stop reading once its answers back up: fine.
    let _ = pipeliner.write_all(&many);
    // The server is answering the pipeline (its first answer has arrived,
    // unread) before the others are probed.
    pipeliner.set_read_timeout(Some(PROBE)).unwrap();
    assert!(
        pipeliner.peek(&mut [0u8; 1]).unwrap() > 0,
        "no answer to the pipeline"
    );
    server.probe("clients that never read");
    let started = Instant::now();
    let (status, _) = post_sign_up(addr);
    assert_eq!(status, 422);
    let events = EventStream::open(addr, None);
    assert_eq!(events.status, 200);
    assert!(started.elapsed() < PROBE, "took {:?}", started.elapsed());

    match dribbler.join().unwrap() {
        Answer::Reply(reply) => {
            assert_eq!(reply.status, 200);
            assert!(reply.text().contains("privacy policy"));
        }
        other => panic!("the byte-at-a-time request: {other:?}"),
    }
    drop((stalled, readers_never, pipeliner, events));
    server.probe("slow clients gone");
    server.finish();
}

// ---------------------------------------------------------------- targets over the wire

#[cfg(unix)]
#[test]
fn no_target_over_the_wire_reaches_outside_the_folder() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestCaseError, TestRunner};
    let server = InProcess::start(true);
    let addr = server.addr();
    let segment = prop::sample::select(vec![
        "..",
        ".",
        "%2e",
        "%2E%2e",
        "%2e%2e",
        ".%2e",
        "%2f",
        "%5c",
        "\\",
        "",
        "%00",
        "%252e",
        "leak.txt",
        "leak",
        "leakdir",
        "inner.txt",
        "secret.txt",
        "secret",
        "index.html",
        "docs",
        "assets",
        "privacypolicy",
        "caf%C3%A9",
        "%ff",
        "_headers",
        "C:",
        "~",
        "?x",
        "#y",
    ]);
    let target = (prop::collection::vec(segment, 0..6), any::<bool>()).prop_map(|(s, slash)| {
        let mut target = format!("/{}", s.join("/"));
        if slash {
            target.push('/');
        }
        target
    });
    // Known ways out first, as raw request lines, then targets built at random.
    let known: &[&[u8]] = &[
        b"GET /../secret.txt HTTP/1.1\r\n",
        b"GET /../../../../etc/passwd HTTP/1.1\r\n",
        b"GET /assets/../../secret.txt HTTP/1.1\r\n",
        b"GET /%2e%2e/secret.txt HTTP/1.1\r\n",
        b"GET /%2E%2E%2Fsecret.txt HTTP/1.1\r\n",
        b"GET /assets/%2e%2e%2f%2e%2e%2fsecret.txt HTTP/1.1\r\n",
        b"GET /..%2fsecret.txt HTTP/1.1\r\n",
        b"GET /..%5csecret.txt HTTP/1.1\r\n",
        b"GET /..\\secret.txt HTTP/1.1\r\n",
        b"GET /assets\\..\\..\\secret.txt HTTP/1.1\r\n",
        b"GET //etc/passwd HTTP/1.1\r\n",
        b"GET /%2fetc%2fpasswd HTTP/1.1\r\n",
        b"GET /etc/passwd%00.html HTTP/1.1\r\n",
        b"GET /index.html%00 HTTP/1.1\r\n",
        b"GET /.%2e/secret.txt HTTP/1.1\r\n",
        b"GET /%252e%252e/secret.txt HTTP/1.1\r\n",
        b"GET /leak.txt HTTP/1.1\r\n",
        b"GET /leak HTTP/1.1\r\n",
        b"GET /leakdir/inner.txt HTTP/1.1\r\n",
        b"GET /C:%5cWindows%5cwin.ini HTTP/1.1\r\n",
        b"GET secret.txt HTTP/1.1\r\n",
        b"GET http://127.0.0.1/../secret.txt HTTP/1.1\r\n",
    ];
    for attempt in known {
        let mut request = attempt.to_vec();
        request.extend_from_slice(b"Host: localhost\r\nConnection: close\r\n\r\n");
        let shown = String::from_utf8_lossy(attempt);
        let reply = match exchange(addr, &request, TIMEOUT) {
            Answer::Reply(reply) => reply,
            Answer::Closed => continue, // Nothing said, nothing leaked.
            silent => panic!("{shown}: {silent:?}"),
        };
        assert!(!reply.text().contains(SECRET), "{shown} leaked the secret");
        assert!(
            !reply.text().contains("root:"),
            "{shown} leaked /etc/passwd"
        );
        assert!(
            matches!(reply.status, 400 | 404),
            "{shown} answered {}",
            reply.status
        );
    }
    let mut runner = TestRunner::new(Config {
        cases: 300,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&target, |target| {
            let request =
                format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            let answer = exchange(addr, request.as_bytes(), TIMEOUT);
            let Answer::Reply(reply) = answer else {
                return Err(TestCaseError::fail(format!("{target}: {answer:?}")));
            };
            prop_assert!(!reply.text().contains(SECRET), "{target} leaked");
            prop_assert!(
                matches!(reply.status, 200 | 301 | 404),
                "{target}: {}",
                reply.status
            );
            Ok(())
        })
        .unwrap_or_else(|err| panic!("{err}"));
}

// ---------------------------------------------------------------- where it listens

#[test]
fn serve_listens_on_loopback_unless_told_otherwise() {
    let project = Fixture::copy_with_own_frontend();
    let served = Served::start(project.root(), &[]);
    assert_eq!(served.addr.ip(), std::net::Ipv4Addr::LOCALHOST);
    // The socket itself, as the system lists it: bound to 127.0.0.1.
    #[cfg(target_os = "linux")]
    {
        let port = format!("{:04X}", served.addr.port());
        let listening: Vec<String> = std::fs::read_to_string("/proc/net/tcp")
            .unwrap()
            .lines()
            .filter(|line| line.split_whitespace().nth(3) == Some("0A"))
            .filter_map(|line| line.split_whitespace().nth(1).map(str::to_owned))
            .filter(|local| local.ends_with(&format!(":{port}")))
            .collect();
        assert_eq!(listening, [format!("0100007F:{port}")]);
    }
    assert_eq!(get(served.addr, "/").status, 200);
}

#[test]
fn a_name_pointed_at_the_preview_is_refused() {
    // DNS rebinding: a page on another site points its own name at 127.0.0.1,
    // then reads the preview or posts to the stand-in as if same-origin.
    let server = InProcess::start(true);
    let addr = server.addr();
    let ask = |host: &str, head: &str| {
        let answer = exchange(
            addr,
            format!("{head}\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
            TIMEOUT,
        );
        match answer {
            Answer::Reply(reply) => reply,
            other => panic!("{host}: {other:?}"),
        }
    };
    let port = addr.port();
    for host in [
        format!("rebound.example:{port}"),
        "rebound.example".into(),
        format!("localhost.rebound.example:{port}"),
    ] {
        let page = ask(&host, "GET / HTTP/1.1");
        assert_eq!(page.status, 403, "{host}");
        assert!(page.text().contains("IP address or localhost"), "{host}");
        let post = ask(
            &host,
            &format!("POST /f/{FORM_ID} HTTP/1.1\r\nContent-Length: 0"),
        );
        assert_eq!(post.status, 403, "{host}");
    }
    assert!(
        !server.site.submissions().exists(),
        "nothing was saved from a refused post"
    );
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(ask(&host, "GET / HTTP/1.1").status, 200, "{host}");
    }
}
