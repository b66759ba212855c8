//! Helpers for the serve and serve_hardening tests: raw HTTP over
//! real sockets (nothing between the test and the server normalizes a
//! request), an event-stream reader, small sites to serve, and the real
//! binary running `serve` (on a copy of the project that
//! `Fixture::copy_with_own_frontend` makes).
//!
//! [`Served`] is the one place the Rust tests start `curbside serve` and read
//! its "Serving http://…" line: tests/browser/support/preview.mjs does the
//! same for the JavaScript tests, tests/bench/preview.sh for the shell ones.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use curbside::serve::{HttpServer, Preview};

pub const TIMEOUT: Duration = Duration::from_secs(10);
/// Builds with esbuild and Node take longer on a loaded machine.
pub const BUILD_TIMEOUT: Duration = Duration::from_secs(120);

/// An answer, read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    /// Lower-case names; a repeated header keeps its last value.
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `request` as is and reads the answer until the server closes.
pub fn raw(addr: SocketAddr, request: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect to the preview server");
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    stream.write_all(request).unwrap();
    let mut bytes = Vec::new();
    stream
        .read_to_end(&mut bytes)
        .expect("read the whole answer");
    parse_reply(&bytes)
}

pub fn parse_reply(bytes: &[u8]) -> Reply {
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(bytes)));
    let head = String::from_utf8_lossy(&bytes[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: bytes[split + 4..].to_vec(),
    }
}

/// A request with `Connection: close`, so the answer ends with the socket.
pub fn request(
    addr: SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let mut text = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        text.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    text.push_str("\r\n");
    let mut bytes = text.into_bytes();
    bytes.extend_from_slice(body);
    raw(addr, &bytes)
}

pub fn get(addr: SocketAddr, target: &str) -> Reply {
    request(addr, "GET", target, &[], b"")
}

/// A server-sent event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub kind: String,
    pub data: String,
    pub id: Option<String>,
}

/// An open `/__curbside/events` stream.
pub struct EventStream {
    stream: TcpStream,
    buffer: String,
    pub status: u16,
    pub headers: BTreeMap<String, String>,
}

impl EventStream {
    pub fn open(addr: SocketAddr, last_event_id: Option<&str>) -> EventStream {
        let mut stream = TcpStream::connect(addr).unwrap();
        let mut request = format!(
            "GET /__curbside/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n"
        );
        if let Some(id) = last_event_id {
            request.push_str(&format!("Last-Event-ID: {id}\r\n"));
        }
        request.push_str("\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        let mut events = EventStream {
            stream,
            buffer: String::new(),
            status: 0,
            headers: BTreeMap::new(),
        };
        let deadline = Instant::now() + TIMEOUT;
        while !events.buffer.contains("\r\n\r\n") {
            assert!(events.fill(deadline), "no answer head on the event stream");
        }
        let split = events.buffer.find("\r\n\r\n").unwrap();
        let reply = parse_reply(&events.buffer.as_bytes()[..split + 4]);
        events.status = reply.status;
        events.headers = reply.headers;
        events.buffer.drain(..split + 4);
        events
    }

    /// Reads more; false at the deadline or the stream's end.
    fn fill(&mut self, deadline: Instant) -> bool {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        self.stream.set_read_timeout(Some(left)).unwrap();
        let mut chunk = [0u8; 4096];
        match self.stream.read(&mut chunk) {
            Ok(0) | Err(_) => false,
            Ok(n) => {
                self.buffer.push_str(&String::from_utf8_lossy(&chunk[..n]));
                true
            }
        }
    }

    /// The next dispatched event (one with data), within `timeout`. To show
    /// that no event came, wait for a later one and check its generation,
    /// never for a quiet `timeout`.
    pub fn next(&mut self, timeout: Duration) -> Option<Event> {
        let deadline = Instant::now() + timeout;
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut event = Event {
                    kind: "message".into(),
                    data: String::new(),
                    id: None,
                };
                let mut data = Vec::new();
                for line in block.lines() {
                    if let Some(value) = line.strip_prefix("event: ") {
                        event.kind = value.into();
                    } else if let Some(value) = line.strip_prefix("data: ") {
                        data.push(value.to_string());
                    } else if let Some(value) = line.strip_prefix("id: ") {
                        event.id = Some(value.into());
                    }
                }
                if !data.is_empty() {
                    event.data = data.join("\n");
                    return Some(event);
                }
            }
            if !self.fill(deadline) {
                return None;
            }
        }
    }
}

/// Writes `files` (path, contents) under `root`.
pub fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (path, contents) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
}

/// A built site as the generator writes it, plus a secret beside it that
/// no request may reach, and symlinks pointing at it.
pub struct StaticSite {
    pub dir: tempfile::TempDir,
}

pub const SECRET: &str = "TOP-SECRET-OUTSIDE-THE-SITE";

impl StaticSite {
    pub fn new() -> StaticSite {
        let dir = tempfile::tempdir().unwrap();
        write_files(
            dir.path(),
            &[
                (
                    "site/index.html",
                    "<!doctype html><title>Home</title><h1>home page</h1>",
                ),
                (
                    "site/privacypolicy.html",
                    "<!doctype html><title>Privacy</title><h1>privacy policy</h1>",
                ),
                (
                    "site/termsofservice.html",
                    "<!doctype html><title>Terms</title><h1>terms of service</h1>",
                ),
                (
                    "site/404.html",
                    "<!doctype html><title>Not found</title><h1>Page not found</h1><a href=\"/\">Home</a>",
                ),
                ("site/docs/index.html", "<!doctype html><h1>docs index</h1>"),
                ("site/assets/site-0123456789.css", "body{color:red}"),
                ("site/assets/islands-0123456789.js", "export{};"),
                (
                    "site/assets/favicon-0123456789.svg",
                    "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
                ),
                ("site/robots.txt", "User-agent: *\n"),
                ("site/sitemap.xml", "<?xml version=\"1.0\"?><urlset/>"),
                ("site/_headers", "/*\n"),
                ("secret.txt", SECRET),
                ("secret/inner.txt", SECRET),
            ],
        );
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(
                dir.path().join("secret.txt"),
                dir.path().join("site/leak.txt"),
            )
            .unwrap();
            std::os::unix::fs::symlink(dir.path().join("secret"), dir.path().join("site/leakdir"))
                .unwrap();
        }
        StaticSite { dir }
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().join("site")
    }

    pub fn submissions(&self) -> PathBuf {
        self.dir.path().join(".curbside/submissions.jsonl")
    }
}

/// The HTTP server in this process, serving a [`StaticSite`] with the form
/// id `testform`, on a port the system chooses.
pub struct InProcess {
    pub site: StaticSite,
    pub preview: Arc<Preview>,
    pub server: HttpServer,
}

pub const FORM_ID: &str = "testform";

impl InProcess {
    pub fn start(watching: bool) -> InProcess {
        let site = StaticSite::new();
        let preview = Arc::new(Preview::new(site.root(), site.submissions(), watching));
        preview.set_form_id(FORM_ID);
        preview.live().built();
        let server = HttpServer::start(preview.clone(), "127.0.0.1".parse().unwrap(), 0).unwrap();
        InProcess {
            site,
            preview,
            server,
        }
    }

    pub fn addr(&self) -> SocketAddr {
        self.server.addr()
    }
}

/// `curbside serve` running as its own process; killed when dropped.
pub struct Served {
    child: Child,
    lines: Receiver<String>,
    /// Every line printed so far, for failure messages.
    pub log: Vec<String>,
    pub addr: SocketAddr,
}

impl Served {
    /// Starts `curbside serve --port 0 <args>` on `root` and waits until it
    /// says where it serves.
    pub fn start(root: &Path, args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_curbside"))
            .arg("--root")
            .arg(root)
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start curbside serve");
        let (sender, lines) = std::sync::mpsc::channel();
        for output in [
            Box::new(child.stderr.take().unwrap()) as Box<dyn Read + Send>,
            Box::new(child.stdout.take().unwrap()),
        ] {
            let sender = sender.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(output).lines().map_while(Result::ok) {
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let mut served = Served {
            child,
            lines,
            log: Vec::new(),
            addr: "127.0.0.1:0".parse().unwrap(),
        };
        let line = served.wait_for(|line| line.starts_with("Serving http://"), BUILD_TIMEOUT);
        let url = line
            .trim_start_matches("Serving http://")
            .trim_end_matches('/');
        served.addr = url
            .parse()
            .unwrap_or_else(|_| panic!("bad address in {line:?}"));
        served
    }

    /// Waits for a printed line that `wanted` accepts, and returns it.
    pub fn wait_for(&mut self, wanted: impl Fn(&str) -> bool, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            match self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(line) => {
                    self.log.push(line.clone());
                    if wanted(&line) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => panic!(
                    "the expected line never came; the server printed:\n{}",
                    self.log.join("\n")
                ),
            }
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
