//! The build's two Node processes: the long-lived island server
//! (frontend/scripts/island-server.mjs), which bundles with esbuild, renders
//! islands with react-dom/server and minifies stylesheets, speaking JSON lines
//! with its stderr the terminal's; and sharp's AVIF encoder, started for a
//! build only when a copy is not cached.

mod avif;
mod bridge;
pub mod cache;
mod dependencies;

pub use avif::SharpAvif;
pub use bridge::{NodeBridge, Stylesheet};
pub use dependencies::ensure_installed;
