//! The interactive parts: one React component per file of
//! frontend/src/islands/, named `{{ islands.<name> }}` in layouts. Props come
//! from the [`registry`] (structs in [`pricing`], [`contact`], [`props`]); the
//! moment it hydrates, from its `export const hydration`.

mod built;
pub mod contact;
mod discovery;
pub mod pricing;
pub mod props;
pub mod registry;

pub use built::{Bundle, RenderedIsland};
pub use discovery::{FOLDER, Island, find};
