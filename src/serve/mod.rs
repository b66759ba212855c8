//! `curbside serve`: builds the site into a preview folder (never `dist/`,
//! which only ever holds production builds) and serves it the way static
//! hosting does, with a local stand-in for the form service. With `--watch`, it
//! rebuilds on every save and reloads the open pages, or shows them the
//! build's error.
//!
//! - plumbing, which knows no page or form: [`server`] (listening, one
//!   thread per connection, timeouts, tiny_http writing answers),
//!   [`request`] (read within hard limits, or refused), [`response`] (a
//!   leaf every handler imports)
//! - [`routes`] picks a handler: [`host_check`] (no DNS rebinding),
//!   [`request_path`] and [`static_files`] (URLs to files, as static hosting
//!   maps them), [`live_reload`] and [`dev_assets`], and the form stand-in:
//!   [`form_service`], [`form_body`], [`form_validation`], [`submissions`]
//! - [`watch`], [`rebuild`]: which saves matter, and rebuilding on them
//! - [`start`]: `curbside serve` itself, which starts all of it

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
