//! The Node.js process: one long-lived island server
//! (frontend/scripts/island-server.mjs) that bundles the islands with esbuild,
//! renders each island's HTML with react-dom/server and minifies the
//! stylesheets. Requests and replies are JSON lines on its stdin and stdout;
//! its stderr is the terminal's.

mod bridge;
pub mod cache;
mod dependencies;

pub use bridge::{NodeBridge, Stylesheet};
pub use dependencies::ensure_installed;
