//! The interactive parts of the site: one React component per file in
//! frontend/src/islands/, found by listing that folder. Each file's name is
//! the island's name in layouts (`{{ islands.<name> }}`); its props come from
//! its entry in the [`registry`] (each island's props struct in its module
//! here: [`pricing`], [`contact`], sharing [`props`]), and when it
//! hydrates from its own `export const hydration` (read by the Node process,
//! [`crate::node`]).

mod built;
pub mod contact;
mod discovery;
pub mod pricing;
pub mod props;
pub mod registry;

pub use built::{Bundle, RenderedIsland};
pub use discovery::{FOLDER, Island, find};
