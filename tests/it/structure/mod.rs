//! The source tree's shape: files small enough to read whole (in src/ and
//! in tests/), one integration test binary, production code before tests,
//! folders whose `mod.rs` only hands names on, dependencies between files
//! in src/ that run one way, and folders that keep the layers lib.rs declares.

mod cycles;
mod files;
mod graph;
mod layers;
mod layout;
mod tokens;
