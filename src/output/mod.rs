//! Writing `dist/`: every file goes into a staging folder beside it, which
//! replaces the old folder only once the whole site is written. A failed
//! build therefore leaves the previous `dist/` exactly as it was.
//!
//! What is not for visitors (the server configuration, the mark that
//! curbside owns both folders) goes to `dist-server/` beside it, written the
//! same way: nothing internal is ever published with the site.

pub mod compress;
pub mod file;
pub mod headers;
pub mod hosting;
pub mod record;
mod same_bytes;
pub mod server_config;
mod staging;

pub(crate) use staging::resolved;
pub use staging::{MARKER, StagedSite, check_output_folder, server_folder, write_site};
