//! The interactive parts of the site: one React component per file in
//! frontend/src/islands/, found by listing that folder. Each file's name is
//! the island's name in layouts (`{{ islands.<name> }}`); its props come from
//! its module here ([`pricing`], [`menu`], [`contact`], sharing [`props`]),
//! and when it hydrates from its own `export const hydration` (read by the
//! Node process, [`crate::node`]).

pub mod contact;
pub mod menu;
pub mod pricing;
pub mod props;

use std::path::Path;

use crate::diagnostics::{Diagnostic, Location, Result};
use crate::output::file::OutputFile;

/// Where the islands live, inside the frontend folder.
pub const FOLDER: &str = "src/islands";

/// The names of the islands in `dir` (`<name>.tsx`), sorted. `shown` is the
/// folder as the site owner sees it, for messages.
pub fn find(dir: &Path, shown: &Path) -> Result<Vec<String>> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        Diagnostic::new(format!("cannot list the islands: {e}"))
            .at(Location::file(shown))
            .help(
                "frontend/src/islands/ holds one <name>.tsx file per interactive part of the site",
            )
    })?;
    let mut names = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| {
                Diagnostic::new(format!("cannot list the islands: {e}")).at(Location::file(shown))
            })?
            .path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".tsx"))
        else {
            continue;
        };
        if !is_island_name(name) {
            return Err(Diagnostic::new(format!("\"{name}.tsx\" is not a usable island name"))
                .at(Location::file(shown.join(format!("{name}.tsx"))))
                .help("name island files with lower-case letters, digits and dashes, starting with a letter (for example `opening-hours.tsx`): the name becomes `{{ islands.<name> }}` in layouts and part of the page's markup"));
        }
        names.push(name.to_string());
    }
    names.sort();
    Ok(names)
}

/// Lower-case letters, digits and dashes, starting with a letter: safe in
/// file names, HTML attributes, element ids and template keys.
fn is_island_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// An island's server-rendered HTML for one placement's props.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedIsland {
    /// `visible`, `idle` or `media:<query>`, as the island's file says; read
    /// by frontend/src/runtime/islands.ts unless the placement says otherwise.
    pub hydrate: String,
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

#[cfg(test)]
mod tests {
    use super::is_island_name;

    #[test]
    fn island_names_are_safe_in_markup_and_templates() {
        for good in ["menu", "opening-hours", "map2"] {
            assert!(is_island_name(good), "{good}");
        }
        for bad in ["", "Menu", "2map", "-menu", "my_menu", "menu.client", "mén"] {
            assert!(!is_island_name(bad), "{bad}");
        }
    }
}
