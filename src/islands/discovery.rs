//! Finding the islands: the files of frontend/src/islands/, checked against the registry.

use std::path::Path;

use serde_json::Value;

use super::props::FormEndpoint;
use super::registry::{self, Entry};
use crate::content::Site;
use crate::diagnostics::{Diagnostic, Location, Result};

pub const FOLDER: &str = "src/islands";

/// An island file with its registry entry; only one that reads no props may have none.
#[derive(Clone)]
pub struct Island {
    pub name: String,
    entry: Option<&'static Entry>,
}

impl Island {
    /// Built from `site`: `{}` for an island that takes none.
    pub fn props(&self, site: &Site, endpoint: &FormEndpoint) -> Result<Value> {
        let props = match self.entry {
            Some(entry) => entry.props(site, endpoint),
            None => Ok(Value::Object(serde_json::Map::new())),
        };
        props.map_err(|e| {
            Diagnostic::new(format!(
                "the props of island \"{}\" cannot be written as JSON: {e}",
                self.name
            ))
        })
    }

    /// Whether `props`, a placement's laid over, still read as the island's
    /// struct; serde's message if not.
    pub fn check(&self, props: &Value) -> std::result::Result<(), String> {
        self.entry.map_or(Ok(()), |entry| entry.check(props))
    }
}

/// The islands of `dir` by name, each with its entry in [`registry::ISLANDS`];
/// `shown` names the folder in messages.
pub fn find(dir: &Path, shown: &Path) -> Result<Vec<Island>> {
    find_in(dir, shown, registry::ISLANDS)
}

/// [`find`] against `registry`: props read without an entry, or an entry
/// without a file, is an error saying what to add or remove.
fn find_in(dir: &Path, shown: &Path, registry: &'static [Entry]) -> Result<Vec<Island>> {
    let mut islands = Vec::new();
    for name in file_names(dir, shown)? {
        let entry = registry::entry(registry, &name);
        let file = format!("{name}.tsx");
        if entry.is_none() {
            let source = std::fs::read_to_string(dir.join(&file)).map_err(|e| {
                Diagnostic::new(format!("cannot read the island: {e}"))
                    .at(Location::file(shown.join(&file)))
            })?;
            if let Some(why) = reads_props(&source) {
                let struct_name = props_struct_name(&name);
                return Err(Diagnostic::new(format!(
                    "the island `{name}` reads props ({why}), but the island registry has no entry for it, so it would get none"
                ))
                .at(Location::file(shown.join(&file)))
                .help(format!(
                    "add `Entry::with_props::<{struct_name}>(\"{name}\")` to ISLANDS in {}, and a struct {struct_name} beside the others in src/islands/ that implements IslandProps (built from content), then run `CURBSIDE_BLESS=1 cargo test --test it island_props::` for its TypeScript type; or, if the island shows no content, add `Entry::without_props(\"{name}\")`",
                    registry::SOURCE
                )));
            }
        }
        islands.push(Island { name, entry });
    }
    if let Some(entry) = registry
        .iter()
        .find(|entry| !islands.iter().any(|island| island.name == entry.name))
    {
        let name = entry.name;
        return Err(Diagnostic::new(format!(
            "the island registry has an entry for the island `{name}`, but there is no island file {name}.tsx"
        ))
        .at(Location::file(shown))
        .help(format!(
            "add the island's file, {}, or remove `{}` from ISLANDS in {}",
            shown.join(format!("{name}.tsx")).display(),
            entry.as_written(),
            registry::SOURCE
        )));
    }
    Ok(islands)
}

fn file_names(dir: &Path, shown: &Path) -> Result<Vec<String>> {
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

/// Why the source shows that the island reads props: it imports the generated
/// types, or its component takes parameters.
fn reads_props(source: &str) -> Option<&'static str> {
    let imports_types = ["../shared/island-types", "../shared/island-types.generated"]
        .iter()
        .any(|module| {
            ["", ".js", ".ts"].iter().any(|extension| {
                ['"', '\'']
                    .iter()
                    .any(|quote| source.contains(&format!("{quote}{module}{extension}{quote}")))
            })
        });
    if imports_types {
        return Some("its file imports the generated props types");
    }
    let component = source.find("export default function")?;
    let parameters = &source[component..];
    let parameters = parameters[parameters.find('(')? + 1..].trim_start();
    (!parameters.starts_with(')')).then_some("its component takes parameters")
}

/// `opening-hours` → `OpeningHoursProps`.
fn props_struct_name(name: &str) -> String {
    let mut out: String = name
        .split('-')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect();
    out.push_str("Props");
    out
}

/// Safe in file names, attributes, element ids and template keys.
fn is_island_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn island_names_are_safe_in_markup_and_templates() {
        for good in ["menu", "opening-hours", "map2"] {
            assert!(is_island_name(good), "{good}");
        }
        for bad in ["", "Menu", "2map", "-menu", "my_menu", "menu.client", "mén"] {
            assert!(!is_island_name(bad), "{bad}");
        }
        for entry in registry::ISLANDS {
            assert!(is_island_name(entry.name), "{}", entry.name);
        }
    }

    #[test]
    fn an_island_reads_props_when_it_imports_their_types_or_its_component_takes_some() {
        for reads in [
            "import type { MenuProps } from \"../shared/island-types\";",
            "import type { MenuProps } from '../shared/island-types.generated.js';",
            "export default function Hours({ days }: { days: string[] }) {",
            "export default function Hours(\n  props: HoursProps,\n) {",
        ] {
            assert!(reads_props(reads).is_some(), "{reads}");
        }
        for reads_none in [
            "import { useState } from \"react\";\nexport default function Wave() {",
            "export default function Wave( ) {",
            "import { plan } from \"../shared/plan\";\nimport \"../shared/island-types-free\";",
        ] {
            assert_eq!(reads_props(reads_none), None, "{reads_none}");
        }
    }

    #[test]
    fn props_structs_are_named_after_their_island() {
        assert_eq!(props_struct_name("menu"), "MenuProps");
        assert_eq!(props_struct_name("opening-hours"), "OpeningHoursProps");
        assert_eq!(props_struct_name("map2"), "Map2Props");
    }

    #[test]
    fn an_entry_without_props_says_explicitly_that_its_island_takes_none() {
        const REGISTRY: &[Entry] = &[Entry::without_props("wave")];
        let dir = tempfile::tempdir().expect("a temporary folder");
        // Reads props by its source, registered as taking none: the entry decides.
        std::fs::write(
            dir.path().join("wave.tsx"),
            "import type { MenuProps } from \"../shared/island-types\";\nexport default function Wave(_: MenuProps) { return null; }\n",
        )
        .expect("write the island");
        let islands = find_in(dir.path(), Path::new("islands"), REGISTRY).expect("found");
        assert_eq!(islands.len(), 1);
        assert_eq!(islands[0].check(&serde_json::json!({ "any": 1 })), Ok(()));

        std::fs::remove_file(dir.path().join("wave.tsx")).expect("remove the island");
        let missing = find_in(dir.path(), Path::new("islands"), REGISTRY)
            .err()
            .expect("an entry without a file");
        assert!(
            missing
                .to_string()
                .contains("remove `Entry::without_props(\"wave\")`"),
            "{missing}"
        );
    }
}
