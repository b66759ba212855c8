//! The server the attacks run against, in a process of its own (this test
//! binary, started again to run [`server_process`]), and raw exchanges with
//! it that tell an answer from a close and from silence.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::server::*;

/// How soon a probe must be answered after an attack. Generous: the two
/// cores of a test machine are shared with builds and other suites.
pub(super) const PROBE: Duration = Duration::from_secs(3);
/// How soon the server's threads must be back to their idle count once the
/// clients left (every connection thread ends within the longest timeout).
const THREADS_BACK: Duration = Duration::from_secs(15);
/// The environment variable that makes [`server_process`] serve.
const CHILD: &str = "CURBSIDE_HARDENING_SERVER";
/// A file large enough that a client that never reads cannot take it whole
/// into its socket buffers.
pub(super) const BIG_FILE: &str = "big.bin";
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

pub(super) struct ServerProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stderr: Arc<Mutex<String>>,
    /// Ends when the process's stderr closes.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    pub(super) addr: SocketAddr,
}

impl ServerProcess {
    pub(super) fn start() -> ServerProcess {
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

    pub(super) fn tell(&mut self, command: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{command}").unwrap();
        stdin.flush().unwrap();
    }

    /// A page and a missing one are answered correctly within [`PROBE`].
    pub(super) fn probe(&self, after: &str) {
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

    pub(super) fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// The server process's threads, as the system counts them.
    #[cfg(target_os = "linux")]
    pub(super) fn threads(&self) -> usize {
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
    pub(super) fn back_to(&self, idle: usize, after: &str) {
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
    pub(super) fn finish(mut self) {
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
pub(super) enum Answer {
    Reply(Reply),
    /// The server closed (or reset) the connection without a word.
    Closed,
    /// No answer, and no close, within the time given.
    Silent(Vec<u8>),
}

/// Sends `bytes`, ends the sending side, and reads until the server closes.
pub(super) fn exchange(addr: SocketAddr, bytes: &[u8], within: Duration) -> Answer {
    let mut stream = TcpStream::connect_timeout(&addr, within).expect("connect");
    stream.set_write_timeout(Some(within)).unwrap();
    // The server may answer and close before reading everything sent.
    let _ = stream.write_all(bytes);
    let _ = stream.shutdown(Shutdown::Write);
    read_answer(stream, within)
}

pub(super) fn read_answer(mut stream: TcpStream, within: Duration) -> Answer {
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
pub(super) fn status_or_close(answer: &Answer, what: &str) -> Option<u16> {
    match answer {
        Answer::Reply(reply) => Some(reply.status),
        Answer::Closed => None,
        Answer::Silent(got) => panic!(
            "{what}: neither answered nor closed; got {:?}",
            String::from_utf8_lossy(got)
        ),
    }
}

pub(super) fn post_sign_up(addr: SocketAddr) -> (u16, String) {
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
