//! Writing `dist/` through a staging folder that replaces it only once the site
//! is written, so a failed build leaves it as it was. What is not for visitors
//! goes to `dist-server/` the same way: nothing internal is published.

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
