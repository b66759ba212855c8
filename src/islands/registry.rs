//! The islands registry: which island takes which props. The build builds props
//! from it, checks placements against it, and exports the TypeScript types from
//! it. An island that shows content has an [`Entry::with_props`]; one that
//! shows none may have an [`Entry::without_props`]. A loading project checks it
//! against the island files ([`super::find`]): props read without an entry, or
//! an entry without a file, stop the build.

use std::path::Path;

use serde_json::Value;

use super::contact::ContactProps;
use super::pricing::PricingProps;
use super::props::{FormEndpoint, IslandProps};
use crate::content::Site;

pub const SOURCE: &str = "src/islands/registry.rs";

/// The file every props type's `#[ts(export_to)]` names.
pub const TYPES_FILE: &str = "island-types.generated.ts";

pub const ISLANDS: &[Entry] = &[
    Entry::with_props::<PricingProps>("pricing"),
    Entry::with_props::<ContactProps>("contact"),
];

/// An island (`frontend/src/islands/<name>.tsx`) and its props, if any.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
    props: Option<PropsType>,
}

#[derive(Clone, Copy)]
struct PropsType {
    build: fn(&Site, &FormEndpoint) -> serde_json::Result<Value>,
    check: fn(&Value) -> std::result::Result<(), String>,
    export: fn(&ts_rs::Config) -> Result<(), ts_rs::ExportError>,
    type_name: fn() -> String,
}

impl Entry {
    pub const fn with_props<P: IslandProps>(name: &'static str) -> Entry {
        Entry {
            name,
            props: Some(PropsType {
                build: build::<P>,
                check: check::<P>,
                export: P::export_all,
                type_name: type_name::<P>,
            }),
        }
    }

    /// An island that shows no content: it gets `{}`.
    pub const fn without_props(name: &'static str) -> Entry {
        Entry { name, props: None }
    }

    pub fn has_props(&self) -> bool {
        self.props.is_some()
    }

    pub fn props(&self, site: &Site, endpoint: &FormEndpoint) -> serde_json::Result<Value> {
        match &self.props {
            Some(props) => (props.build)(site, endpoint),
            None => Ok(Value::Object(serde_json::Map::new())),
        }
    }

    /// Whether `props` (with a placement's laid over) still read as the struct:
    /// a plan `"yearly"` does not. The message is serde's.
    pub fn check(&self, props: &Value) -> std::result::Result<(), String> {
        match &self.props {
            Some(type_) => (type_.check)(props),
            None => Ok(()),
        }
    }

    pub fn as_written(&self) -> String {
        match &self.props {
            Some(props) => format!(
                "Entry::with_props::<{}>(\"{}\")",
                (props.type_name)(),
                self.name
            ),
            None => format!("Entry::without_props(\"{}\")", self.name),
        }
    }
}

pub fn entry(registry: &'static [Entry], name: &str) -> Option<&'static Entry> {
    registry.iter().find(|entry| entry.name == name)
}

fn build<P: IslandProps>(site: &Site, endpoint: &FormEndpoint) -> serde_json::Result<Value> {
    serde_json::to_value(P::from_site(site, endpoint))
}

fn check<P: IslandProps>(props: &Value) -> std::result::Result<(), String> {
    serde_json::from_value::<P>(props.clone())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn type_name<P: IslandProps>() -> String {
    P::ident(&ts_rs::Config::new())
}

/// Exports the props types of `registry`, and the types they use, into
/// [`TYPES_FILE`] in `dir` with ts-rs; returns its text. `dir` must be new:
/// ts-rs adds to a file it already wrote in this process.
pub fn export_typescript(registry: &[Entry], dir: &Path) -> Result<String, String> {
    let config = ts_rs::Config::new().with_out_dir(dir);
    for props in registry.iter().filter_map(|entry| entry.props) {
        (props.export)(&config).map_err(|err| err.to_string())?;
    }
    let exported = match std::fs::read_to_string(dir.join(TYPES_FILE)) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(err) => return Err(format!("{}: {err}", dir.join(TYPES_FILE).display())),
    };
    Ok(format!(
        "// From the island registry ({SOURCE}) and its props structs: `CURBSIDE_BLESS=1 cargo test --test it island_props::` writes it.\n{exported}"
    ))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn every_island_is_named_once() {
        let mut names = HashSet::new();
        for entry in ISLANDS {
            assert!(names.insert(entry.name), "{} twice", entry.name);
        }
    }

    #[test]
    fn entries_are_shown_as_they_are_written() {
        assert_eq!(
            Entry::with_props::<PricingProps>("pricing").as_written(),
            "Entry::with_props::<PricingProps>(\"pricing\")"
        );
        assert_eq!(
            Entry::without_props("wave").as_written(),
            "Entry::without_props(\"wave\")"
        );
    }

    #[test]
    fn an_island_without_props_gets_none_and_declares_none() {
        const REGISTRY: &[Entry] = &[Entry::without_props("wave")];
        assert!(!REGISTRY[0].has_props());
        assert_eq!(REGISTRY[0].check(&serde_json::json!({"any": 1})), Ok(()));
        let dir = tempfile::tempdir().unwrap();
        let declared = export_typescript(REGISTRY, dir.path()).unwrap();
        assert!(!declared.contains("export"), "{declared}");
    }

    #[test]
    fn every_type_the_props_use_is_declared_once_in_the_one_file() {
        let dir = tempfile::tempdir().unwrap();
        let declared = export_typescript(ISLANDS, dir.path()).unwrap();
        assert!(!declared.contains("import"), "{declared}");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "every type in {TYPES_FILE}"
        );
        for name in [
            "PlanType",
            "PlanIdentity",
            "ZipProps",
            "ContactProps",
            "PricingPlan",
            "PricingProps",
            "Plans<P>",
        ] {
            let declaration = format!("export type {name} =");
            assert_eq!(declared.matches(&declaration).count(), 1, "{name}");
        }
    }
}
