//! `curbside verify`: the live site against the last build: every file served
//! with the built bytes and promised headers, addresses answered as the hosting
//! does, nothing internal reachable, the form reaching its service.
//!
//! Each file uses only those before it: `client`, `finding`, `report`,
//! `pool`, `built`, `headers`, `files`, `addresses`, `run`. A finding's kind
//! says how grave it is and what to do; the words for each hosting are its
//! own (`output::hosting`).

mod addresses;
mod built;
mod client;
mod files;
mod finding;
mod headers;
mod pool;
mod report;
mod run;

pub use run::{MAX_FILES, VerifyOptions, run};
