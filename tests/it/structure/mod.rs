//! The source tree's shape: files small enough to read whole, production
//! code before tests, folders whose `mod.rs` only hands names on, and
//! dependencies between files that run one way.

mod cycles;
mod files;
mod layout;
mod tokens;
