//! `curbside serve`: builds into a preview folder (never `dist/`) and serves it
//! as static hosting does, with a stand-in for the form service; with
//! `--watch`, rebuilds on every save and reloads the open pages or shows the error.
//!
//! Plumbing that knows no page: [`server`], [`request`], [`response`].
//! [`routes`] picks a handler: [`host_check`], [`request_path`] and
//! [`static_files`], [`live_reload`], [`dev_assets`], and the form stand-in
//! ([`form_service`], [`form_body`], [`form_validation`], [`submissions`]).
//! [`watch`] and [`rebuild`] act on saves; [`start`] starts it all.

mod dev_assets;
mod form_body;
mod form_service;
mod form_validation;
mod host_check;
mod live_reload;
mod preview;
mod rebuild;
mod request;
mod request_path;
mod response;
mod routes;
mod server;
mod start;
mod static_files;
mod submissions;
mod watch;

pub use dev_assets::LIVE_SCRIPT_TAG;
pub use live_reload::{LiveReload, Outcome};
pub use preview::Preview;
pub use request::BODY_LIMIT;
pub use server::HttpServer;
pub use start::{DEFAULT_OUT, SUBMISSIONS_FILE, ServeOptions, run};
