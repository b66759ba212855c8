//! The build, start to finish: load content, bundle and render the islands,
//! render the pages, write `dist/`; the pages a batch at a time, each written
//! as soon as it can be finished. A [`Builder`] keeps the Node process and
//! the last bundle, so the watch mode can redo only what a change touched.
//!
//! Its files, each using only those before it: `project` (what a build
//! starts from), `report` (what it tells its caller), `node_side` (the
//! bundle, the islands' HTML and the styles, on a thread of its own),
//! `finished` (Node's work as the pages need it), `stream` (the pages, a
//! batch at a time, into the staging folder) and `builder`, which drives
//! them.

mod builder;
mod finished;
mod node_side;
mod project;
mod report;
mod stream;

pub use builder::{Builder, Change};
pub use project::{BuildOptions, Loaded, Project};
pub use report::{BuildReport, peak_rss_kib};
