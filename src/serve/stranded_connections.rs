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
//! time. It costs a loopback connect every [`INTERVAL`], and never reaches
//! the request handlers: tiny_http drops it before it is a request.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a stranded connection waits at most (per connection ahead of it).
pub const INTERVAL: Duration = Duration::from_millis(25);

/// Opens an empty connection to `server` every [`INTERVAL`] until `stopping`.
pub fn start(server: SocketAddr, stopping: Arc<AtomicBool>) -> std::io::Result<JoinHandle<()>> {
    let target = reachable(server);
    std::thread::Builder::new()
        .name("connection-rescue".into())
        .spawn(move || {
            let off = std::env::var_os("CURBSIDE_NO_RESCUE").is_some();
            while !stopping.load(Ordering::Relaxed) {
                if off {
                    std::thread::sleep(INTERVAL);
                    continue;
                }
                // Closed at once: tiny_http reads nothing and ends the connection.
                drop(TcpStream::connect_timeout(&target, INTERVAL));
                std::thread::sleep(INTERVAL);
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
