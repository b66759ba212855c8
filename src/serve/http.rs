//! The HTTP side of the preview: listening, handing requests out, routing,
//! and the headers every response carries.
//!
//! tiny_http reads each connection on a thread of its own and passes on whole
//! request heads. One dispatcher thread takes them and gives every connection
//! a *lane*: its requests are answered in order on one thread, started for
//! its first waiting request and ended when none is left. A connection only
//! ever holds up its own lane, so a client that stops reading its responses,
//! pipelines thousands of requests, dribbles a form body or keeps a
//! live-reload stream open parks one thread and nobody else waits. (A fixed
//! pool of workers let one such client take them all: responses on one
//! connection are written in order, so every worker given one of its
//! requests waited on the first.)
//!
//! tiny_http's pool can leave connections queued behind busy ones after a
//! burst; [`stranded_connections`] frees them. Its accept loop ends at the
//! first failed `accept` (out of file descriptors, say), so the dispatcher
//! then starts accepting again on the same socket.

use std::collections::{HashMap, VecDeque};
use std::io::{Cursor, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tiny_http::{Header, Method, Request, Response, ResponseBox, StatusCode};

use super::preview::Preview;
use super::request_path::path_of;
use super::{
    dev_assets, form_service, host_check, live_reload, static_files, stranded_connections,
};
use crate::diagnostics::{Diagnostic, Result, warn};
use crate::render::headers;

pub(crate) const TEXT_PLAIN: &str = "text/plain; charset=utf-8";

/// Open live-reload streams at once (one per open tab); each parks a thread.
pub const MAX_STREAMS: usize = 1024;
/// Form posts being read or answered at once (each holds up to a body).
const MAX_FORM_POSTS: usize = 64;
/// Longest request target answered; longer ones get 414, as the hosts do.
pub const MAX_TARGET: usize = 8 * 1024;
/// Most bytes of request headers answered; more get 431.
pub const MAX_HEADERS: usize = 32 * 1024;
/// Longest declared body tiny_http may be left to skip. tiny_http 0.12
/// skips an unread body when its request is dropped by allocating a buffer
/// of the whole declared length, so a `Content-Length` of a terabyte aborts
/// the process; past this, the request is answered without ever dropping it
/// (see [`refuse_unread`]).
pub const MAX_SKIPPED_BODY: usize = 16 * 1024 * 1024;
/// Ports tried after a taken one, so a second preview still starts.
const PORT_TRIES: u16 = 10;
/// Pauses before accepting again after tiny_http's accept loop ended,
/// doubling while it keeps failing (fewer threads left behind in a storm).
const ACCEPT_RETRY: Duration = Duration::from_millis(100);
const ACCEPT_RETRY_MAX: Duration = Duration::from_secs(5);

/// A running preview server; dropping it stops accepting and ends the
/// live-reload streams.
pub struct HttpServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    rescue: Option<JoinHandle<()>>,
}

/// What the dispatchers share.
struct Shared {
    routes: Arc<Routes>,
    /// The listening socket, kept to accept on again.
    listener: TcpListener,
    /// Every tiny_http server started on it (one unless accepting failed),
    /// each with its dispatcher.
    servers: Mutex<Vec<(Arc<tiny_http::Server>, JoinHandle<()>)>>,
    stopping: Arc<AtomicBool>,
    /// When the last request came, for the rescue's pace.
    activity: Arc<stranded_connections::Activity>,
    /// The next pause before accepting again, and when accepting last failed.
    retry: Mutex<(Duration, Option<Instant>)>,
}

impl HttpServer {
    /// Listens on `host:port`, or the next free port when that one is taken
    /// (port 0 lets the system choose), and starts serving `preview`.
    pub fn start(preview: Arc<Preview>, host: IpAddr, port: u16) -> Result<HttpServer> {
        let listener = listen(host, port)?;
        let addr = listener
            .local_addr()
            .map_err(|err| Diagnostic::new("could not read the server's address").caused_by(err))?;
        let shared = Arc::new(Shared {
            routes: Arc::new(Routes {
                preview,
                lanes: Mutex::default(),
                streams: Limit::new(MAX_STREAMS),
                form_posts: Limit::new(MAX_FORM_POSTS),
            }),
            listener,
            servers: Mutex::default(),
            stopping: Arc::new(AtomicBool::new(false)),
            activity: Arc::new(stranded_connections::Activity::new()),
            retry: Mutex::new((ACCEPT_RETRY, None)),
        });
        shared
            .accept()
            .map_err(|err| Diagnostic::new("could not start the preview server").caused_by(err))?;
        let rescue =
            stranded_connections::start(addr, shared.activity.clone(), shared.stopping.clone())
                .map_err(|err| {
                    Diagnostic::new("could not start the preview server's threads").caused_by(err)
                })?;
        Ok(HttpServer {
            addr,
            shared,
            rescue: Some(rescue),
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
        self.shared.stopping.store(true, Ordering::Relaxed);
        self.shared.routes.preview.live().close();
        let servers = std::mem::take(&mut *lock(&self.shared.servers));
        for (server, _) in &servers {
            server.unblock();
        }
        for (_, dispatcher) in servers {
            let _ = dispatcher.join();
        }
        if let Some(rescue) = self.rescue.take() {
            let _ = rescue.join();
        }
    }
}

impl Shared {
    /// Starts a tiny_http server on the listening socket, and its dispatcher.
    fn accept(self: &Arc<Self>) -> std::io::Result<()> {
        let mut servers = lock(&self.servers);
        if self.stopping.load(Ordering::Relaxed) {
            return Ok(());
        }
        let listener = self.listener.try_clone()?;
        let server = tiny_http::Server::from_listener(listener, None)
            .map(Arc::new)
            .map_err(std::io::Error::other)?;
        let dispatcher = {
            let shared = self.clone();
            let server = server.clone();
            std::thread::Builder::new()
                .name("preview-dispatch".into())
                .spawn(move || shared.dispatch(&server))?
        };
        servers.push((server, dispatcher));
        Ok(())
    }

    /// Hands each request of `server` to its connection's lane, until the
    /// server stops.
    fn dispatch(self: &Arc<Self>, server: &tiny_http::Server) {
        loop {
            match server.recv() {
                Ok(request) => {
                    self.activity.touch();
                    self.routes.admit(request);
                }
                Err(_) if self.stopping.load(Ordering::Relaxed) => return,
                Err(err) => {
                    // tiny_http has stopped accepting; its open connections
                    // still come through here. Accept on a new one.
                    let pause = self.next_pause();
                    warn(&format!(
                        "the preview server could not accept a connection ({err}); accepting again in {} ms",
                        pause.as_millis()
                    ));
                    std::thread::sleep(pause);
                    if let Err(err) = self.accept() {
                        warn(&format!("the preview server could not accept again: {err}"));
                    }
                }
            }
        }
    }

    /// How long to wait before accepting again: doubled for every failure
    /// since the last quiet spell, whichever server failed.
    fn next_pause(&self) -> Duration {
        let mut retry = lock(&self.retry);
        let (pause, last) = &mut *retry;
        if last.is_some_and(|at| at.elapsed() > ACCEPT_RETRY_MAX * 4) {
            *pause = ACCEPT_RETRY;
        }
        *last = Some(Instant::now());
        let now = *pause;
        *pause = (now * 2).min(ACCEPT_RETRY_MAX);
        now
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every value kept behind these locks is whole between statements.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
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

struct Routes {
    preview: Arc<Preview>,
    /// The requests waiting in each busy connection's lane, by the
    /// connection's client address (unique among open connections).
    lanes: Mutex<HashMap<SocketAddr, VecDeque<Request>>>,
    streams: Limit,
    form_posts: Limit,
}

impl Routes {
    /// Queues `request` in its connection's lane, starting the lane's
    /// thread if it has none. Never blocks on a client.
    fn admit(self: &Arc<Self>, request: Request) {
        let Some(peer) = request.remote_addr().copied() else {
            // Only Unix sockets have no address; this server listens on TCP.
            return self.spawn_lane(None, request);
        };
        {
            let mut lanes = lock(&self.lanes);
            if let Some(waiting) = lanes.get_mut(&peer) {
                waiting.push_back(request);
                return;
            }
            lanes.insert(peer, VecDeque::new());
        }
        self.spawn_lane(Some(peer), request);
    }

    fn spawn_lane(self: &Arc<Self>, peer: Option<SocketAddr>, first: Request) {
        let routes = self.clone();
        let spawned = std::thread::Builder::new()
            .name("preview-lane".into())
            .spawn(move || routes.run_lane(peer, first));
        if spawned.is_err() {
            // Out of threads: the request went with the closure, and
            // tiny_http answered it 500. Later ones get a new try.
            if let Some(peer) = peer {
                lock(&self.lanes).remove(&peer);
            }
        }
    }

    /// Answers `first`, then the lane's waiting requests in order, until
    /// none is left.
    fn run_lane(&self, peer: Option<SocketAddr>, first: Request) {
        let _lane = LaneEnd { routes: self, peer };
        let mut next = Some(first);
        while let Some(request) = next {
            self.handle(request);
            next = peer.and_then(|peer| {
                let mut lanes = lock(&self.lanes);
                let request = lanes.get_mut(&peer).and_then(VecDeque::pop_front);
                if request.is_none() {
                    lanes.remove(&peer);
                }
                request
            });
        }
    }

    fn handle(&self, request: Request) {
        if request
            .body_length()
            .is_some_and(|length| length > MAX_SKIPPED_BODY)
        {
            return refuse_unread(request);
        }
        if request.url().len() > MAX_TARGET {
            return send(request, text(414, TEXT_PLAIN, "URI too long\n".into()));
        }
        let header_bytes: usize = request
            .headers()
            .iter()
            .map(|h| h.field.as_str().as_str().len() + h.value.as_str().len() + 4)
            .sum();
        if header_bytes > MAX_HEADERS {
            let response = text(431, TEXT_PLAIN, "Request headers too large\n".into());
            return send(request, response);
        }
        // RFC 9110 §5.1, §5.5: a name must be a token, and a NUL, CR or LF
        // in a value is refused.
        let malformed = request.headers().iter().any(|h| {
            let name = h.field.as_str().as_bytes();
            name.is_empty()
                || !name.iter().all(|&b| is_token_byte(b))
                || h.value
                    .as_bytes()
                    .iter()
                    .any(|b| b.is_ascii_control() && *b != b'\t')
        });
        if malformed {
            let response = text(400, TEXT_PLAIN, "Bad request header\n".into());
            return send(request, response);
        }
        if !host_check::allowed(request_header(&request, "Host")) {
            let response = text(
                403,
                TEXT_PLAIN,
                "The preview answers only requests made to an IP address or localhost: open it at the address curbside printed.\n".into(),
            );
            return send(request, response);
        }
        let path = path_of(request.url());
        if path == live_reload::EVENTS_PATH {
            if !is_read(request.method()) {
                return send(request, method_not_allowed("GET, HEAD"));
            }
            // The stream holds this lane's thread while the page is open.
            match self.streams.take() {
                Some(_open) => live_reload::stream(request, &self.preview),
                None => send(request, too_many()),
            }
        } else if path.starts_with(form_service::PATH_PREFIX) {
            match self.form_posts.take() {
                Some(_posting) => form_service::handle(request, &self.preview),
                None => send(request, too_many()),
            }
        } else if !is_read(request.method()) {
            send(request, method_not_allowed("GET, HEAD"));
        } else if let Some(asset) = dev_assets::find(path) {
            let response = text(200, asset.content_type, asset.body);
            send(request, with_header(response, "Cache-Control", "no-cache"));
        } else {
            let response = static_files::respond(&request, &self.preview);
            send(request, response);
        }
    }
}

/// Frees a lane if its thread panics, so the connection's later requests
/// still get a thread (its waiting ones are dropped: tiny_http answers 500).
struct LaneEnd<'a> {
    routes: &'a Routes,
    peer: Option<SocketAddr>,
}

impl Drop for LaneEnd<'_> {
    fn drop(&mut self) {
        if std::thread::panicking()
            && let Some(peer) = self.peer
        {
            let waiting = lock(&self.routes.lanes).remove(&peer);
            drop(waiting);
        }
    }
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

fn is_read(method: &Method) -> bool {
    matches!(method, Method::Get | Method::Head)
}

fn too_many() -> ResponseBox {
    let response = text(503, TEXT_PLAIN, "Too many connections\n".into());
    with_header(response, "Retry-After", "2")
}

/// Counts requests of a kind being answered, at most `max` at once.
struct Limit {
    running: Arc<AtomicUsize>,
    max: usize,
}

/// One taken place in a [`Limit`], given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Limit {
    fn new(max: usize) -> Limit {
        Limit {
            running: Arc::new(AtomicUsize::new(0)),
            max,
        }
    }

    fn take(&self) -> Option<Slot> {
        if self.running.fetch_add(1, Ordering::AcqRel) >= self.max {
            self.running.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Slot(self.running.clone()))
    }
}

/// Answers 413 to a request whose declared body is too long for tiny_http
/// to skip (see [`MAX_SKIPPED_BODY`]), without ever dropping it: `upgrade`
/// is the one way to write an answer and keep the body reader, and the
/// stream it returns is leaked. That parks this connection's tiny_http
/// thread and socket until the process ends: a small price for a request
/// no client sends in earnest, against the whole server aborting.
///
/// `upgrade` writes a head of its own and drops `Content-Length` and
/// `Connection` from it, so that head is an interim `100 Continue` (which
/// clients read past) and the real answer is written by hand after it.
fn refuse_unread(request: Request) {
    let body = "The request body is too large\n";
    let head = format!(
        "HTTP/1.1 413 Payload Too Large\r\nContent-Type: {TEXT_PLAIN}\r\nContent-Length: {}\r\nConnection: close\r\n{}\r\n",
        body.len(),
        security_header_lines()
    );
    let mut stream = request.upgrade("close", Response::empty(StatusCode(100)));
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.as_bytes()))
        .and_then(|()| stream.flush());
    std::mem::forget(stream);
}

/// `response` with one more header. Names and values come from this module
/// or from a request's own ASCII; a value tiny_http refuses, or one with a
/// control character (a line break would end the header early: tiny_http
/// takes a lone `\n` as part of a request line), is left out rather than
/// sent broken.
pub(crate) fn with_header(response: ResponseBox, name: &str, value: &str) -> ResponseBox {
    if value.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
        return response;
    }
    match Header::from_bytes(name.as_bytes(), value.as_bytes()) {
        Ok(header) => response.with_header(header),
        Err(()) => response,
    }
}

/// Sends `response` with the site's security headers, as `_headers` gives
/// them to the hosts.
pub(crate) fn send(request: Request, mut response: ResponseBox) {
    for (name, value) in security_headers() {
        if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(header);
        }
    }
    // A client that went away needs no answer.
    let _ = request.respond(response);
}

/// The security headers as raw lines, for responses written by hand.
pub(crate) fn security_header_lines() -> String {
    security_headers()
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect()
}

/// The headers of the last good build. One server runs per process, and
/// every response of it carries the same headers, so they live here rather
/// than being threaded through every handler.
static SECURITY_HEADERS: std::sync::RwLock<Vec<(&'static str, String)>> =
    std::sync::RwLock::new(Vec::new());

/// Sets the security headers after a build: the hashes of the inline
/// stylesheet and script change with them.
pub(crate) fn set_security_headers(inline: &headers::InlineSources) {
    if let Ok(mut headers) = SECURITY_HEADERS.write() {
        *headers = headers::security(inline);
    }
}

fn security_headers() -> Vec<(&'static str, String)> {
    match SECURITY_HEADERS.read() {
        Ok(headers) if !headers.is_empty() => headers.clone(),
        _ => headers::security(&headers::InlineSources::default()),
    }
}

pub(crate) fn text(status: u16, content_type: &str, body: String) -> ResponseBox {
    bytes(status, content_type, body.into_bytes())
}

pub(crate) fn bytes(status: u16, content_type: &str, body: Vec<u8>) -> ResponseBox {
    let length = body.len();
    let response = Response::new(
        StatusCode(status),
        Vec::new(),
        Box::new(Cursor::new(body)) as Box<dyn Read + Send>,
        Some(length),
        None,
    );
    with_header(response, "Content-Type", content_type)
}

pub(crate) fn empty(status: u16) -> ResponseBox {
    Response::empty(StatusCode(status)).boxed()
}

pub(crate) fn method_not_allowed(allow: &str) -> ResponseBox {
    let response = text(405, TEXT_PLAIN, "Method not allowed\n".into());
    with_header(response, "Allow", allow)
}

/// The value of the request header `name`, if any.
pub(crate) fn request_header<'a>(request: &'a Request, name: &str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}
