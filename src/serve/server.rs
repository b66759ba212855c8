//! The preview's HTTP plumbing: listening, one thread per connection, the
//! clock on every read and write, and tiny_http writing every answer.
//!
//! Connections are accepted and requests read here, within the limits of
//! [`request`]: tiny_http's own server accepts only on a listener it owns
//! and reads each head on its pool thread, with no limit or timeout, before
//! any request reaches its caller (an HTTP/2 preface, an endless header or a
//! silent client was out of reach).

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use socket2::{Domain, Socket, Type};
use tiny_http::{HTTPVersion, Method, ResponseBox};

use super::preview::Preview;
use super::request::{self, Refusal, Request};
use super::response::{self, Answer, TEXT_PLAIN, with_header};
use super::routes;
use crate::diagnostics::{Diagnostic, Result};

/// Open connections at once, each a thread (some 20 KB while idle) and a
/// file descriptor; more are closed at once. Room for a thousand idle
/// clients and a thousand open tabs.
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
/// After a refusal, what the client still sends is read and dropped for this
/// long, at most [`LINGER_BYTES`], so it sees the answer (closing on unread
/// bytes sends a reset that can discard it).
const LINGER: Duration = Duration::from_secs(1);
/// Enough for what a client had in flight; one sending without end is cut
/// off after it rather than read for the whole second.
const LINGER_BYTES: u64 = 256 * 1024;
/// When accepting fails (no file descriptor left), the pause before the
/// next try: connections wait in the system's queue, no core spins.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);
/// A connection thread's stack: far more than a request needs, and
/// untouched stack costs no memory.
const STACK_SIZE: usize = 512 * 1024;
/// Connections waiting to be accepted. The 128 std asks for overflows when
/// a thousand clients connect at once, and each dropped connection attempt
/// costs a client (any client) a one-second retry.
const BACKLOG: i32 = 4096;
/// Ports tried after a taken one, so a second preview still starts.
const PORT_TRIES: u16 = 10;

/// A running preview server; dropping it stops accepting and ends the
/// live-reload streams.
pub struct HttpServer {
    addr: SocketAddr,
    preview: Arc<Preview>,
    stopping: Arc<AtomicBool>,
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
        let (accepting, serving) = (stopping.clone(), preview.clone());
        std::thread::Builder::new()
            .name("preview-accept".into())
            .spawn(move || accept(&listener, &serving, &accepting))
            .map_err(|err| Diagnostic::new("could not start the preview server").caused_by(err))?;
        Ok(HttpServer {
            addr,
            preview,
            stopping,
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
        // The accepting thread sees `stopping` at its next connection: this
        // one (a wildcard address is reached through loopback on Linux).
        drop(TcpStream::connect_timeout(&self.addr, IDLE_TIMEOUT));
    }
}

fn accept(listener: &TcpListener, preview: &Arc<Preview>, stopping: &AtomicBool) {
    let open = Arc::new(AtomicUsize::new(0));
    for incoming in listener.incoming() {
        if stopping.load(Ordering::Relaxed) {
            return;
        }
        let Ok(stream) = incoming else {
            std::thread::sleep(ACCEPT_PAUSE);
            continue;
        };
        // Over the limit, or out of threads: the connection is closed.
        let counted = Open(open.clone());
        if open.fetch_add(1, Ordering::AcqRel) >= MAX_CONNECTIONS {
            continue;
        }
        let preview = preview.clone();
        let _ = std::thread::Builder::new()
            .name("preview-connection".into())
            .stack_size(STACK_SIZE)
            .spawn(move || {
                let _counted = counted;
                serve(&stream, &preview);
            });
    }
}

/// One open connection, counted until dropped.
struct Open(Arc<AtomicUsize>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Answers the requests of one connection in order, until it closes, goes
/// quiet, or sends something that is refused.
fn serve(stream: &TcpStream, preview: &Arc<Preview>) {
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let mut reader = BufReader::new(Timed {
        stream,
        deadline: Instant::now(),
    });
    loop {
        match next_request(stream, &mut reader) {
            Err(Refusal::Gone) => return,
            Err(Refusal::Status(status, text)) => {
                let answer = response::text(status, TEXT_PLAIN, text.into());
                write(stream, preview, answer, None);
                return linger(stream, &mut reader);
            }
            Ok(request) => match routes::answer(&request, preview) {
                Answer::Response(answer) => {
                    if !write(stream, preview, answer, Some(&request)) {
                        return;
                    }
                }
                Answer::Stream(write) => return write(&mut &*stream),
            },
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
    let (length, continues) = request.body_length()?;
    // Told to go on only once the body is known to be accepted.
    if continues {
        let mut out = stream;
        out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .map_err(|_| Refusal::Gone)?;
    }
    reader.get_mut().deadline = Instant::now() + BODY_TIMEOUT;
    request.body = request::read_body(reader, length)?;
    Ok(request)
}

/// Writes `answer` to `request` (to a refused one: `None`), with the
/// security headers of `preview`; whether the connection goes on.
fn write(
    stream: &TcpStream,
    preview: &Preview,
    mut answer: ResponseBox,
    request: Option<&Request>,
) -> bool {
    let closes = request.is_none_or(Request::closes);
    for (name, value) in preview.security_headers() {
        answer = with_header(answer, name, &value);
    }
    let (version, headers, head_only) = match request {
        Some(r) => (r.version.clone(), &r.headers[..], r.method == Method::Head),
        None => (HTTPVersion(1, 1), &[][..], false),
    };
    let mut out = BufWriter::new(stream);
    let written = answer.raw_print(&mut out, version, headers, head_only, None);
    written.and_then(|()| out.flush()).is_ok() && !closes
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
        match bind(SocketAddr::new(host, candidate)) {
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

/// A listening socket as std makes one (reusing an address left in
/// TIME_WAIT by a previous run), with a longer queue.
fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    #[cfg(unix)]
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(BACKLOG)?;
    Ok(socket.into())
}
