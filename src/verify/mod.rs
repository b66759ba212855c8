//! `curbside verify`: the live site checked against the last build. Every
//! published file must be served with the bytes that were built, with the
//! headers its hosting promises; addresses must behave as that hosting
//! serves them; nothing internal may be reachable; the form must reach its
//! service.
//!
//! Its files, each using only those before it: `report` (what was found),
//! `advice` (what to do, per hosting), `client` (asking the site's origin),
//! `pool` (many requests, a few at a time), `built` (what the build wrote),
//! `headers` (one answer's headers), `files` and `addresses` (the checks)
//! and `run`, which runs them.

mod addresses;
mod advice;
mod built;
mod client;
mod files;
mod headers;
mod pool;
mod report;
mod run;

pub use run::{MAX_FILES, VerifyOptions, run};
