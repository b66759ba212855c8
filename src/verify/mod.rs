//! `curbside verify`: the live site against the last build: every file served
//! with the built bytes and promised headers, addresses answered as the hosting
//! does, nothing internal reachable, the form reaching its service.
//!
//! Each file uses only those before it: `report`, `client`, `pool`, `built`,
//! `headers`, `files`, `addresses`, `run`. What to tell the owner is each
//! hosting's own (`output::hosting`).

mod addresses;
mod built;
mod client;
mod files;
mod headers;
mod pool;
mod report;
mod run;

pub use run::{MAX_FILES, VerifyOptions, run};
