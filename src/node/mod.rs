//! The long-lived island server (frontend/scripts/island-server.mjs): bundles
//! with esbuild, renders islands with react-dom/server, minifies stylesheets.
//! JSON lines on its stdin and stdout; its stderr is the terminal's.

mod bridge;
pub mod cache;
mod dependencies;

pub use bridge::{NodeBridge, Stylesheet};
pub use dependencies::ensure_installed;
