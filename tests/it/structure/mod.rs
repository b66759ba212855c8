//! The source tree's shape: files small enough to read whole (in src/ and
//! in tests/), one integration test binary, production code before tests,
//! folders whose `mod.rs` only hands names on, and dependencies between
//! files in src/ that run one way.

mod cycles;
mod files;
mod layout;
mod tokens;
