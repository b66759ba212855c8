//! The preview's HTTP plumbing: listening, a thread per connection, a clock on
//! every read and write; tiny_http only writes answers. Requests are read here,
//! within [`request`]'s limits: tiny_http's own server reads each head with no
//! limit or timeout before its caller sees it.

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

/// Open connections, each a thread (some 20 KB idle) and a file descriptor;
/// more are closed. Room for a thousand idle clients and a thousand tabs.
pub const MAX_CONNECTIONS: usize = 2048;
/// Silence allowed before a kept-alive request: Node's default; a browser just reconnects.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(5);
/// Time for a request head once begun; a dribbling client holds a thread no longer.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// Time for a body: at most 64 KiB, under a second on a slow phone.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Wait for a client that stopped reading (a frozen tab, a dead live-reload stream).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// After a refusal, what the client still sends is read and dropped this long,
/// so it sees the answer (closing on unread bytes sends a reset that can discard it).
const LINGER: Duration = Duration::from_secs(1);
/// Enough for what was in flight; an endless sender is cut off sooner.
const LINGER_BYTES: u64 = 256 * 1024;
/// Pause after a failed accept (no descriptor left): no core spins.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);
/// Ample for a request; untouched stack costs no memory.
const STACK_SIZE: usize = 512 * 1024;
/// Accept queue: std's 128 overflows when a thousand clients connect at once,
/// and each dropped attempt costs a client a one-second retry.
const BACKLOG: i32 = 4096;
/// Ports tried after a taken one, so a second preview starts.
const PORT_TRIES: u16 = 10;

/// A running preview server; dropping it stops accepting and ends the live-reload streams.
pub struct HttpServer {
    addr: SocketAddr,
    preview: Arc<Preview>,
    stopping: Arc<AtomicBool>,
}

impl HttpServer {
    /// Listens on `host:port`, or the next free port (0: the system's choice).
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

    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

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
        // Wakes the accepting thread to see `stopping` (a wildcard address is
        // reached through loopback on Linux).
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
        // Over the limit, or out of threads: closed.
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

struct Open(Arc<AtomicUsize>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Answers one connection's requests until it closes, goes quiet or is refused.
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
    // Only once the body is known to be accepted.
    if continues {
        let mut out = stream;
        out.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
            .map_err(|_| Refusal::Gone)?;
    }
    reader.get_mut().deadline = Instant::now() + BODY_TIMEOUT;
    request.body = request::read_body(reader, length)?;
    Ok(request)
}

/// Writes `answer` (`None` to a refused request) with the security headers;
/// whether the connection goes on.
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

/// Ends a connection after a refusal, reading on a moment so the client sees it.
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

/// A listening socket as std makes one (reusing a TIME_WAIT address), with a longer queue.
fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    #[cfg(unix)]
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(BACKLOG)?;
    Ok(socket.into())
}
