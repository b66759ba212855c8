//! What pages link or inline, first as markers and then as built.

use std::collections::HashMap;

use serde::Serialize;

use super::markers::marker;
use super::placements::Placements;
use crate::islands::RenderedIsland;

/// What pages link or inline. Most of it exists only once Node has bundled
/// the islands and minified the stylesheets, after every page is rendered (so
/// content and layout mistakes are reported first): until then those fields
/// hold markers, which a [`Placer`](super::Placer) replaces.
#[derive(Debug, Clone, Serialize)]
pub struct AssetUrls {
    /// The site's stylesheet, placed in every page's `<style>`.
    pub inline_css: String,
    pub nojs_css: String,
    pub favicon: String,
    /// The islands runtime.
    pub islands: String,
    /// The inline script that starts the runtime (frontend/src/entries/loader.ts).
    pub islands_loader: String,
    /// The head's inline script that fetches the islands' code early on a
    /// touch-first screen (frontend/src/entries/early-fetch.ts).
    pub islands_preload: String,
    /// The files that script fetches, for its `data-files`: the runtime's and
    /// those of the islands the page places, known once the page is placed.
    pub islands_files: String,
    /// The Content-Security-Policy of `<meta http-equiv>`: it allows the
    /// inline stylesheet and script by their hashes, known only once built.
    pub csp: String,
}

impl AssetUrls {
    /// Markers for everything Node makes, and the icon as a `data:` URL: one
    /// request less while the first page loads.
    pub fn pending(favicon_svg: &[u8]) -> AssetUrls {
        use base64::Engine as _;
        AssetUrls {
            inline_css: marker(INLINE_CSS),
            nojs_css: marker(NOJS_CSS),
            favicon: format!(
                "data:image/svg+xml;base64,{}",
                base64::engine::general_purpose::STANDARD.encode(favicon_svg)
            ),
            islands: marker(ISLANDS_ENTRY),
            islands_loader: marker(ISLANDS_LOADER),
            islands_preload: marker(ISLANDS_PRELOAD),
            islands_files: marker(ISLANDS_FILES),
            csp: marker(META_CSP),
        }
    }
}

/// What replaces the markers of [`AssetUrls::pending`] and the islands.
pub struct BuiltAssets<'a> {
    /// Node's server HTML of each placement, by `OnPage::render_key`.
    pub islands: &'a HashMap<String, RenderedIsland>,
    /// What the islands' markers stand for.
    pub placements: &'a Placements,
    /// The runtime's URL path.
    pub islands_entry: &'a str,
    pub islands_loader: &'a str,
    pub islands_preload: &'a str,
    /// Each island's files, its own chunk first: URL paths, one space apart.
    pub island_files: &'a HashMap<String, String>,
    /// Minified; no `</style` (checked by the build).
    pub inline_css: &'a str,
    pub nojs_css: &'a str,
    /// The policy for `<meta http-equiv="Content-Security-Policy">`.
    pub meta_csp: &'a str,
}

/// Names of the markers of [`AssetUrls::pending`]; islands' are their own names.
pub(super) const ISLANDS_ENTRY: &str = "islands-entry";
pub(super) const ISLANDS_LOADER: &str = "islands-loader";
pub(super) const ISLANDS_PRELOAD: &str = "islands-preload";
/// Filled for each page by [`Placer::place`](super::Placer::place).
pub(super) const ISLANDS_FILES: &str = "islands-files";
pub(super) const INLINE_CSS: &str = "inline-css";
pub(super) const NOJS_CSS: &str = "nojs-css";
pub(super) const META_CSP: &str = "csp";
