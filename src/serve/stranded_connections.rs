//! Works around a flaw of tiny_http 0.12's connection pool, which would
//! otherwise let one burst of connections stall later ones for good.
//!
//! tiny_http reads each connection on a pool thread. When a connection
//! arrives while the pool counts a thread as idle, the connection is queued
//! for that thread instead of getting a new one; but the count is only
//! updated once the woken thread runs, so in a burst several connections are
//! queued for one idle thread. That thread takes the first; the others wait
//! until some pool thread finishes its connection, which for a keep-alive
//! browser, a live-reload stream or a stalled client may be never.
//!
//! A queued connection is picked up whenever a pool thread finishes a
//! connection, and a connection arriving while no thread is idle gets a new
//! thread that, once done, takes the next queued one. So an empty connection
//! opened now and then (it ends at once) frees one queued connection each
//! time. It costs a loopback connect every [`INTERVAL`] (every
//! [`IDLE_INTERVAL`] when no request came for a while), and never reaches
//! the request handlers: tiny_http drops it before it is a request.
//!
//! Measured: on a fresh server, 40 kept-alive connections opened at once
//! left 1 to 36 of them unanswered in most bursts without this, none with it
//! (`a_burst_of_kept_alive_connections_is_answered` in
//! tests/serve_hardening.rs fails without it). Nothing cleaner fits
//! tiny_http's public API: the stall happens before a request exists, so
//! no way of calling `recv` reaches it; `from_listener` only takes a
//! listener that tiny_http accepts on itself, so connections cannot be
//! handed over one by one; and a read timeout set on the listening socket,
//! the one way to bound pool threads, would also time out its `accept`,
//! which ends tiny_http's accept loop. A real fix is in tiny_http (update
//! the idle count under the queue's lock) or another server.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a stranded connection waits at most (per connection ahead of
/// it) while the server is in use.
pub const INTERVAL: Duration = Duration::from_millis(25);
/// The same when no request has come for [`IDLE_AFTER`]: a server left open
/// in a tab costs a tenth of the connects (about 1% of a core otherwise).
/// The first request of a burst ends it.
pub const IDLE_INTERVAL: Duration = Duration::from_millis(250);
pub const IDLE_AFTER: Duration = Duration::from_secs(5);

/// When the server last received a request.
pub struct Activity {
    started: Instant,
    /// Milliseconds from `started`.
    last: AtomicU64,
}

impl Default for Activity {
    fn default() -> Self {
        Activity::new()
    }
}

impl Activity {
    pub fn new() -> Activity {
        Activity {
            started: Instant::now(),
            last: AtomicU64::new(0),
        }
    }

    /// A request came.
    pub fn touch(&self) {
        let now = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(now, Ordering::Relaxed);
    }

    fn idle(&self) -> bool {
        let last = Duration::from_millis(self.last.load(Ordering::Relaxed));
        self.started.elapsed().saturating_sub(last) > IDLE_AFTER
    }
}

/// Opens an empty connection to `server` every [`INTERVAL`] (or
/// [`IDLE_INTERVAL`] while idle) until `stopping`.
pub fn start(
    server: SocketAddr,
    activity: Arc<Activity>,
    stopping: Arc<AtomicBool>,
) -> std::io::Result<JoinHandle<()>> {
    let target = reachable(server);
    std::thread::Builder::new()
        .name("connection-rescue".into())
        .spawn(move || {
            while !stopping.load(Ordering::Relaxed) {
                // Closed at once: tiny_http reads nothing and ends the connection.
                drop(TcpStream::connect_timeout(&target, INTERVAL));
                let pause = if activity.idle() {
                    IDLE_INTERVAL
                } else {
                    INTERVAL
                };
                std::thread::sleep(pause);
            }
        })
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
