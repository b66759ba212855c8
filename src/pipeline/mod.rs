//! The build, start to finish: content, islands, pages, `dist/`, the pages a
//! batch at a time. A [`Builder`] keeps Node and the last bundle, so watch mode
//! redoes only what a change touched.
//!
//! Each file uses only those before it: `project`, `report`, `node_side`
//! (Node's work, on its own thread), `finished` (that work as pages need it),
//! `stream` (the pages into the staging folder), `builder`.

mod builder;
mod finished;
mod node_side;
mod project;
mod report;
mod stream;

pub use builder::{Builder, Change};
pub use project::{BuildOptions, Loaded, Project};
pub use report::{BuildReport, peak_rss_kib};
