//! What Node makes of the islands: the bundle and each placement's HTML.

use std::collections::BTreeMap;

use crate::output::file::OutputFile;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedIsland {
    /// As the island's file says; the runtime reads it unless the placement says otherwise.
    pub hydrate: String,
    pub html: String,
}

/// The bundle: the runtime's URL path, the inline loader
/// (frontend/src/entries/loader.ts), the files, and each
/// island's files (its chunk first, then those it imports).
#[derive(Debug, Clone)]
pub struct Bundle {
    pub entry: String,
    pub loader: String,
    pub files: Vec<OutputFile>,
    pub island_files: BTreeMap<String, Vec<String>>,
}
