//! The interactive parts of the site (React islands in frontend/src/islands/):
//! which there are, how the browser starts each, and what the Node process
//! ([`crate::node`]) makes of them.

use serde_json::Value;

use crate::output_file::OutputFile;

/// An interactive part of a page, and when the browser hydrates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Island {
    pub name: &'static str,
    /// `visible`, `idle` or `media:<query>`; read by frontend/src/runtime.ts.
    pub hydrate: &'static str,
}

pub const PRICING: Island = Island {
    name: "pricing",
    hydrate: "visible",
};
/// Only phones need the menu; on wider screens its JavaScript is never
/// fetched, and on phones only once the visitor scrolls or taps.
pub const MENU: Island = Island {
    name: "menu",
    hydrate: "media:(max-width: 47.99rem)",
};
pub const CONTACT: Island = Island {
    name: "contact",
    hydrate: "visible",
};

/// An island with its props and server-rendered HTML.
#[derive(Debug, Clone)]
pub struct RenderedIsland {
    pub island: Island,
    pub props: Value,
    pub html: String,
}

/// The bundled islands: the runtime entry's URL path, the inline script that
/// starts it (frontend/src/loader.ts) and every file to write.
#[derive(Debug, Clone)]
pub struct Bundle {
    pub entry: String,
    pub loader: String,
    pub files: Vec<OutputFile>,
}
