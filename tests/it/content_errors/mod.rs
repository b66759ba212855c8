//! Broken content and layouts, through the real binary.
//!
//! Each case copies the repository's own content/ and layouts/ into a
//! temporary folder, makes one mistake a site owner could make, runs
//! `curbside build`, and checks (see `Fixture::build_fails_at`) that the build
//! fails without a panic, reports the mistake at the file, line and column
//! given in the case with a `help:` line saying what to change, and leaves the
//! previous `dist/` untouched.
//!
//! The whole message of every case (stderr from its `error:` line on; only
//! builds that reach Node print anything before it, Node's own log) is also
//! a snapshot in `snapshots/` beside these files, named after the case's
//! module and test (`it__content_errors__yaml__yaml_unclosed_quote.snap`),
//! so that any change to a message shows up in review. After changing a
//! message on purpose, refresh the snapshots and read the diff before
//! committing:
//!
//! ```sh
//! INSTA_UPDATE=always cargo test --test it content_errors:: && git diff tests/it
//! # or, with cargo-insta installed (`cargo install cargo-insta`):
//! cargo insta test --test it --review -- content_errors::
//! ```
//!
//! Content and layout syntax errors are found before Node starts, so these
//! cases need no frontend. Errors found while rendering the pages come after
//! the islands step; those cases link the project's frontend/.

mod case;
mod files;
mod islands;
mod keys;
mod layouts;
mod pages;
mod placeholders;
mod values;
mod yaml;
