//! What Node makes of the islands: the bundle and each placement's server
//! HTML.

use std::collections::BTreeMap;

use crate::output::file::OutputFile;

/// An island's server-rendered HTML for one placement's props.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedIsland {
    /// `visible`, `idle` or `media:<query>`, as the island's file says; read
    /// by frontend/src/runtime/islands.ts unless the placement says otherwise.
    pub hydrate: String,
    pub html: String,
}

/// The bundled islands: the runtime entry's URL path, the inline script that
/// starts it (frontend/src/entries/loader.ts), the head's inline script that fetches
/// the islands' code early on a touch-first screen (frontend/src/entries/early-fetch.ts),
/// every file to write, and each island's files (its own chunk first, then
/// every chunk it imports, React's among them), as paths like the entry's.
#[derive(Debug, Clone)]
pub struct Bundle {
    pub entry: String,
    pub loader: String,
    pub preload: String,
    pub files: Vec<OutputFile>,
    pub island_files: BTreeMap<String, Vec<String>>,
}
