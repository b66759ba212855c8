use std::collections::HashMap;

use serde::Serialize;

use super::markers::marker;
use super::placements::Placements;
use crate::islands::RenderedIsland;

/// What pages link or inline. Most exists only once Node is done, after every
/// page is rendered (so content and layout mistakes come first): until then,
/// markers that a [`Placer`](super::Placer) replaces.
#[derive(Debug, Clone, Serialize)]
pub struct AssetUrls {
    /// In every page's `<style>`.
    pub inline_css: String,
    pub nojs_css: String,
    pub favicon: String,
    pub islands: String,
    /// frontend/src/entries/loader.ts.
    pub islands_loader: String,
    /// For `<meta http-equiv>`: allows the inline style and scripts by their hashes.
    pub csp: String,
}

impl AssetUrls {
    /// Markers for what Node makes; the icon as a `data:` URL, one request less.
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
            csp: marker(META_CSP),
        }
    }
}

pub struct BuiltAssets<'a> {
    /// By `OnPage::render_key`.
    pub islands: &'a HashMap<String, RenderedIsland>,
    pub placements: &'a Placements,
    pub islands_entry: &'a str,
    pub islands_loader: &'a str,
    /// Each island's files, its own chunk first, one space apart.
    pub island_files: &'a HashMap<String, String>,
    /// No `</style` (checked by the build).
    pub inline_css: &'a str,
    pub nojs_css: &'a str,
    pub meta_csp: &'a str,
}

/// Names of the markers of [`AssetUrls::pending`]; islands' are their own names.
pub(super) const ISLANDS_ENTRY: &str = "islands-entry";
pub(super) const ISLANDS_LOADER: &str = "islands-loader";
pub(super) const INLINE_CSS: &str = "inline-css";
pub(super) const NOJS_CSS: &str = "nojs-css";
pub(super) const META_CSP: &str = "csp";
