//! The preview server against hostile, broken, slow and numerous clients,
//! over real sockets on 127.0.0.1: malformed and oversized requests, bodies
//! that lie about their length, hundreds of connections at once, a hundred
//! idle live-reload tabs, clients that dribble or never read. After every
//! attack a probe must be answered promptly, and the server's stderr must
//! show no panic: the server runs in a process of its own (this test
//! binary, started again to run `server_process::server_process`) so its
//! output can be read.
//!
//! Every loop here is bounded in count and time, and all traffic goes to
//! the loopback address the server listens on.

mod clients;
mod limits;
mod malformed;
mod reach;
mod server_process;
