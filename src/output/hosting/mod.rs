//! The hosting a site is built for, each in a file of its own: which files
//! it gets, whether it sends the compressed copies and the site's headers,
//! how it answers a page's other addresses, and what `curbside verify` tells
//! its owner. Adding a hosting is one file here, its line in `Hosting`, and
//! its host test.

mod caddy;
mod choice;
mod cloudflare;
mod facts;
mod github_pages;
mod netlify;
mod nginx;

pub use choice::Hosting;
pub use facts::{Advice, Facts, OtherAddresses};
