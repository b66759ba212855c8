//! The HTTP side of the preview: listening, the worker threads, routing, and
//! the headers every response carries.
//!
//! tiny_http reads each connection's request head on a thread of its own, so a
//! client that stalls mid-request holds only that thread. Requests then go to
//! a small fixed pool of workers; the two kinds that may wait on a client for
//! long (a live-reload stream, a form post's body) are handed to threads of
//! their own, each kind capped, so they never take a worker from the pages.
//! tiny_http's pool can leave connections queued behind busy ones after a
//! burst; [`stranded_connections`] frees them.

use std::io::{Cursor, Read};
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;

use tiny_http::{Header, Method, Request, Response, ResponseBox, StatusCode};

use super::preview::Preview;
use super::request_path::path_of;
use super::{dev_assets, form_service, live_reload, static_files, stranded_connections};
use crate::diagnostics::{Diagnostic, Result};
use crate::render::headers;

pub(crate) const TEXT_PLAIN: &str = "text/plain; charset=utf-8";

/// Workers serving pages and assets.
const WORKERS: usize = 8;
/// Open live-reload streams at once (one per open tab).
const MAX_STREAMS: usize = 64;
/// Form posts being read or answered at once.
const MAX_FORM_POSTS: usize = 16;
/// Ports tried after a taken one, so a second preview still starts.
const PORT_TRIES: u16 = 10;

/// A running preview server; dropping it stops the workers.
pub struct HttpServer {
    server: Arc<tiny_http::Server>,
    addr: SocketAddr,
    workers: Vec<JoinHandle<()>>,
    rescue: Option<JoinHandle<()>>,
    stopping: Arc<AtomicBool>,
    preview: Arc<Preview>,
}

impl HttpServer {
    /// Listens on `host:port`, or the next free port when that one is taken
    /// (port 0 lets the system choose), and starts serving `preview`.
    pub fn start(preview: Arc<Preview>, host: IpAddr, port: u16) -> Result<HttpServer> {
        let listener = listen(host, port)?;
        let addr = listener
            .local_addr()
            .map_err(|err| Diagnostic::new("could not read the server's address").caused_by(err))?;
        let server = tiny_http::Server::from_listener(listener, None)
            .map_err(|err| Diagnostic::new("could not start the preview server").caused_by(err))?;
        let server = Arc::new(server);
        let stopping = Arc::new(AtomicBool::new(false));
        let thread_failed = |err: std::io::Error| {
            Diagnostic::new("could not start the preview server's threads").caused_by(err)
        };
        let rescue = stranded_connections::start(addr, stopping.clone()).map_err(thread_failed)?;
        let routes = Arc::new(Routes {
            preview: preview.clone(),
            streams: ThreadLimit::new("live-reload", MAX_STREAMS),
            form_posts: ThreadLimit::new("form-post", MAX_FORM_POSTS),
        });
        let workers = (0..WORKERS)
            .map(|n| {
                let server = server.clone();
                let stopping = stopping.clone();
                let routes = routes.clone();
                std::thread::Builder::new()
                    .name(format!("preview-{n}"))
                    .spawn(move || {
                        while let Ok(request) = server.recv() {
                            if stopping.load(Ordering::Relaxed) {
                                break;
                            }
                            routes.handle(request);
                        }
                    })
                    .map_err(thread_failed)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(HttpServer {
            server,
            addr,
            workers,
            rescue: Some(rescue),
            stopping,
            preview,
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
    pub fn wait(mut self) {
        for worker in std::mem::take(&mut self.workers) {
            let _ = worker.join();
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::Relaxed);
        self.preview.live().close();
        for _ in &self.workers {
            self.server.unblock();
        }
        for worker in self.workers.drain(..).chain(self.rescue.take()) {
            let _ = worker.join();
        }
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

struct Routes {
    preview: Arc<Preview>,
    streams: ThreadLimit,
    form_posts: ThreadLimit,
}

impl Routes {
    fn handle(&self, request: Request) {
        let path = path_of(request.url());
        if path == live_reload::EVENTS_PATH {
            if !is_read(request.method()) {
                return send(request, method_not_allowed("GET, HEAD"));
            }
            let preview = self.preview.clone();
            self.streams.spawn(request, move |request| {
                live_reload::stream(request, &preview)
            });
        } else if path.starts_with(form_service::PATH_PREFIX) {
            let preview = self.preview.clone();
            self.form_posts.spawn(request, move |request| {
                form_service::handle(request, &preview)
            });
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

fn is_read(method: &Method) -> bool {
    matches!(method, Method::Get | Method::Head)
}

/// Runs requests that may wait on their client for long on threads of their
/// own, at most `max` at once; past that the client is asked to come back.
struct ThreadLimit {
    name: &'static str,
    running: Arc<AtomicUsize>,
    max: usize,
}

/// One taken place in a [`ThreadLimit`], given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl ThreadLimit {
    fn new(name: &'static str, max: usize) -> ThreadLimit {
        ThreadLimit {
            name,
            running: Arc::new(AtomicUsize::new(0)),
            max,
        }
    }

    fn spawn(&self, request: Request, job: impl FnOnce(Request) + Send + 'static) {
        if self.running.fetch_add(1, Ordering::AcqRel) >= self.max {
            self.running.fetch_sub(1, Ordering::AcqRel);
            let response = text(503, TEXT_PLAIN, "Too many connections\n".into());
            return send(request, with_header(response, "Retry-After", "2"));
        }
        let slot = Slot(self.running.clone());
        // If the thread cannot start, the request is dropped with the job and
        // tiny_http answers it with a 500.
        let _ = std::thread::Builder::new()
            .name(self.name.into())
            .spawn(move || {
                let _slot = slot;
                job(request);
            });
    }
}

/// `response` with one more header. Names and values come from this module
/// or from a request's own ASCII; a value tiny_http refuses is left out
/// rather than sent broken.
pub(crate) fn with_header(response: ResponseBox, name: &str, value: &str) -> ResponseBox {
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

fn security_headers() -> &'static [(&'static str, String)] {
    static HEADERS: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    HEADERS.get_or_init(headers::security)
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
