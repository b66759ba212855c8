//! The preview's HTTP plumbing: listening, one thread per connection, and
//! the clock on every read and write.
//!
//! The server accepts connections itself and reads each request head and
//! body within hard limits ([`request`]), so a client decides neither how
//! much the server holds nor for how long. tiny_http's own server cannot be
//! used for that: it only accepts on a listener it owns, and reads each head
//! on a pool thread, without limit or timeout, before any request reaches
//! the caller (so an HTTP/2 preface, an endless header or a silent client
//! is out of the caller's reach). tiny_http still builds and writes every
//! answer (status line, `Date`, length or chunks, no body for `HEAD`).

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tiny_http::{HTTPVersion, Method, ResponseBox};

use super::limit::Limit;
use super::preview::Preview;
use super::request::{self, Framing, Refusal, Request};
use super::response::{self, Reply, TEXT_PLAIN, with_header};
use super::routes::Routes;
use crate::diagnostics::{Diagnostic, Result};

/// Open connections at once. Each holds a thread (about 20 KB of memory
/// while idle) and a file descriptor; beyond this, new ones are closed at
/// once. Room for a thousand idle clients and a thousand open tabs.
pub const MAX_CONNECTIONS: usize = 2048;
/// How long a kept-alive connection may stay silent before a request: 5 s
/// is Node's default, and a browser simply opens a new connection later.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a request head may take once it began. A browser sends its
/// head at once; a client dribbling it holds a thread no longer.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a body may take to arrive: at most 64 KiB, well under a second
/// even on a slow phone link.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a write may wait for a client that stopped reading (a huge file
/// to a frozen tab, a dead live-reload stream) before the connection ends.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// After a refused request, what the client still sends is read and dropped
/// for this long, at most [`LINGER_BYTES`], so it sees the answer before the
/// close (closing on unread bytes sends a reset that can discard it).
const LINGER: Duration = Duration::from_secs(1);
const LINGER_BYTES: u64 = 256 * 1024;
/// When accepting fails (no file descriptor left), new connections wait in
/// the system's queue this long before the next try, instead of spinning.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);
/// Stack of a connection thread; what a request needs is far less, and
/// untouched stack costs no memory.
const STACK_SIZE: usize = 512 * 1024;
/// Ports tried after a taken one, so a second preview still starts.
const PORT_TRIES: u16 = 10;

/// A running preview server; dropping it stops accepting and ends the
/// live-reload streams.
pub struct HttpServer {
    addr: SocketAddr,
    preview: Arc<Preview>,
    stopping: Arc<AtomicBool>,
    accepting: Option<JoinHandle<()>>,
}

impl HttpServer {
    /// Listens on `host:port`, or the next free port when that one is taken
    /// (port 0 lets the system choose), and starts serving `preview`.
    pub fn start(preview: Arc<Preview>, host: IpAddr, port: u16) -> Result<HttpServer> {
        let listener = listen(host, port)?;
        let addr = listener
            .local_addr()
            .map_err(|err| Diagnostic::new("could not read the server's address").caused_by(err))?;
        let stopping = Arc::new(AtomicBool::new(false));
        let routes = Arc::new(Routes::new(preview.clone()));
        let accepting = {
            let stopping = stopping.clone();
            std::thread::Builder::new()
                .name("preview-accept".into())
                .spawn(move || accept(&listener, &routes, &stopping))
                .map_err(|err| {
                    Diagnostic::new("could not start the preview server").caused_by(err)
                })?
        };
        Ok(HttpServer {
            addr,
            preview,
            stopping,
            accepting: Some(accepting),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The address to open in a browser.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves until the process ends.
    pub fn wait(self) {
        loop {
            std::thread::park();
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::Relaxed);
        self.preview.live().close();
        // Wakes the accepting thread, which then sees `stopping`.
        drop(TcpStream::connect_timeout(
            &reachable(self.addr),
            IDLE_TIMEOUT,
        ));
        if let Some(accepting) = self.accepting.take() {
            let _ = accepting.join();
        }
    }
}

fn accept(listener: &TcpListener, routes: &Arc<Routes>, stopping: &AtomicBool) {
    let connections = Limit::new(MAX_CONNECTIONS);
    for incoming in listener.incoming() {
        if stopping.load(Ordering::Relaxed) {
            return;
        }
        let Ok(stream) = incoming else {
            std::thread::sleep(ACCEPT_PAUSE);
            continue;
        };
        // Over the limit, or out of threads: the connection is closed.
        let Some(slot) = connections.take() else {
            continue;
        };
        let routes = routes.clone();
        let _ = std::thread::Builder::new()
            .name("preview-connection".into())
            .stack_size(STACK_SIZE)
            .spawn(move || {
                let _slot = slot;
                serve(&stream, &routes);
            });
    }
}

/// Answers the requests of one connection in order, until it closes, goes
/// quiet, or sends something that is refused.
fn serve(stream: &TcpStream, routes: &Routes) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let mut reader = BufReader::new(Timed {
        stream,
        deadline: Instant::now(),
    });
    loop {
        let request = match next_request(stream, &mut reader) {
            Ok(request) => request,
            Err(Refusal::Gone) => return,
            Err(Refusal::Status(status, text)) => {
                let answer = response::text(status, TEXT_PLAIN, text.into());
                let _ = write(stream, answer, HTTPVersion(1, 1), &[], false, true);
                return linger(stream, &mut reader);
            }
        };
        let closes = request.closes();
        match routes.answer(&request) {
            Reply::Response(answer) => {
                let head_only = request.method == Method::Head;
                let version = request.version.clone();
                let written = write(stream, answer, version, &request.headers, head_only, closes);
                if written.is_err() || closes {
                    return;
                }
            }
            Reply::Stream(write) => return write(&mut &*stream),
        }
    }
}

/// Reads the next request whole, within [`IDLE_TIMEOUT`], [`HEAD_TIMEOUT`]
/// and [`BODY_TIMEOUT`].
fn next_request(
    stream: &TcpStream,
    reader: &mut BufReader<Timed<'_>>,
) -> std::result::Result<Request, Refusal> {
    reader.get_mut().deadline = Instant::now() + IDLE_TIMEOUT;
    if reader.fill_buf().map_or(true, |bytes| bytes.is_empty()) {
        return Err(Refusal::Gone);
    }
    reader.get_mut().deadline = Instant::now() + HEAD_TIMEOUT;
    let mut request = request::read_head(reader)?;
    let framing = request.framing()?;
    // Told to go on only once the body is known to be accepted.
    if request.expects_continue()? && framing != Framing::Length(0) {
        let mut out = stream;
        out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .map_err(|_| Refusal::Gone)?;
    }
    reader.get_mut().deadline = Instant::now() + BODY_TIMEOUT;
    request::read_body(reader, &mut request, framing)?;
    Ok(request)
}

fn write(
    stream: &TcpStream,
    answer: ResponseBox,
    version: HTTPVersion,
    request_headers: &[tiny_http::Header],
    head_only: bool,
    closes: bool,
) -> std::io::Result<()> {
    let mut answer = response::with_security_headers(answer);
    if closes {
        answer = with_header(answer, "Connection", "close");
    }
    let mut out = BufWriter::new(stream);
    answer.raw_print(&mut out, version, request_headers, head_only, None)?;
    out.flush()
}

/// Ends a connection after a refusal: no more answers, and what the client
/// still sends is read for a moment so it can see the refusal.
fn linger(stream: &TcpStream, reader: &mut BufReader<Timed<'_>>) {
    let _ = stream.shutdown(Shutdown::Write);
    reader.get_mut().deadline = Instant::now() + LINGER;
    let _ = std::io::copy(&mut reader.take(LINGER_BYTES), &mut std::io::sink());
}

/// A connection's reading side, failing with `TimedOut` past `deadline`.
struct Timed<'a> {
    stream: &'a TcpStream,
    deadline: Instant,
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        let mut stream = self.stream;
        stream.read(buf)
    }
}

fn listen(host: IpAddr, port: u16) -> Result<TcpListener> {
    let tries = if port == 0 { 1 } else { PORT_TRIES };
    let mut last_error = None;
    for candidate in (0..tries).filter_map(|offset| port.checked_add(offset)) {
        match TcpListener::bind((host, candidate)) {
            Ok(listener) => return Ok(listener),
            Err(err) if err.kind() == std::io::ErrorKind::AddrInUse => last_error = Some(err),
            Err(err) => {
                return Err(Diagnostic::new(format!(
                    "could not listen on {}",
                    SocketAddr::new(host, candidate)
                ))
                .caused_by(err)
                .help("check the address given with --host"));
            }
        }
    }
    let last = port.saturating_add(tries - 1);
    let mut diagnostic = Diagnostic::new(format!("ports {port} to {last} on {host} are all taken"))
        .help("pass a free port with --port, or --port 0 to let the system choose one");
    if let Some(err) = last_error {
        diagnostic = diagnostic.caused_by(err);
    }
    Err(diagnostic)
}

/// The address to connect to for a server listening on `addr`: a wildcard
/// address is reached through loopback.
fn reachable(addr: SocketAddr) -> SocketAddr {
    let ip = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, addr.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcard_addresses_are_reached_through_loopback() {
        let at = |s: &str| s.parse::<SocketAddr>().unwrap();
        assert_eq!(reachable(at("0.0.0.0:80")), at("127.0.0.1:80"));
        assert_eq!(reachable(at("[::]:80")), at("[::1]:80"));
        assert_eq!(reachable(at("192.168.1.2:80")), at("192.168.1.2:80"));
    }
}
