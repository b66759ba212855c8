//! The islands registry: which island takes which props. It is the one list
//! the build builds an island's props from, checks a placement's props
//! against, and generates the TypeScript props types
//! (frontend/src/shared/island-types.generated.ts) from.
//!
//! An island that shows content has an entry [`Entry::with_props`], naming
//! its props struct; one that shows none may say so with
//! [`Entry::without_props`]. When a project loads, the registry is checked
//! against the island files (see [`super::find`]): an island file that reads
//! props without an entry, and an entry without an island file, stop the
//! build, naming the file and what to add or remove.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;
use ts_rs::{TS, TypeVisitor};

use super::contact::ContactProps;
use super::pricing::PricingProps;
use super::props::{FormEndpoint, IslandProps};
use crate::content::Site;

/// Where the registry is, for messages.
pub const SOURCE: &str = "src/islands/registry.rs";

/// The islands the registry knows, in the order their props types are
/// declared in frontend/src/shared/island-types.generated.ts.
pub const ISLANDS: &[Entry] = &[
    Entry::with_props::<PricingProps>("pricing"),
    Entry::with_props::<ContactProps>("contact"),
];

/// One island of the registry: its name (the file
/// frontend/src/islands/<name>.tsx) and its props, if it takes any.
#[derive(Clone, Copy)]
pub struct Entry {
    pub name: &'static str,
    props: Option<PropsType>,
}

/// What the build does with a props struct, as functions of that type.
#[derive(Clone, Copy)]
struct PropsType {
    build: fn(&Site, &FormEndpoint) -> serde_json::Result<Value>,
    check: fn(&Value) -> std::result::Result<(), String>,
    declare: fn(&mut Declarations),
    type_name: fn() -> String,
}

impl Entry {
    /// The island `name`, whose props are `P`, built from content.
    pub const fn with_props<P: IslandProps>(name: &'static str) -> Entry {
        Entry {
            name,
            props: Some(PropsType {
                build: build::<P>,
                check: check::<P>,
                declare: declare::<P>,
                type_name: type_name::<P>,
            }),
        }
    }

    /// The island `name`, which shows no content: it gets `{}`.
    pub const fn without_props(name: &'static str) -> Entry {
        Entry { name, props: None }
    }

    /// Whether the island takes props from content.
    pub fn has_props(&self) -> bool {
        self.props.is_some()
    }

    /// The props the island gets from `site`: `{}` when it takes none.
    pub fn props(&self, site: &Site, endpoint: &FormEndpoint) -> serde_json::Result<Value> {
        match &self.props {
            Some(props) => (props.build)(site, endpoint),
            None => Ok(Value::Object(serde_json::Map::new())),
        }
    }

    /// Whether `props` (the island's props with a placement's laid over
    /// them) still read as its props struct: a plan named `"yearly"`, say,
    /// does not. The message is serde's, naming what it expected.
    pub fn check(&self, props: &Value) -> std::result::Result<(), String> {
        match &self.props {
            Some(type_) => (type_.check)(props),
            None => Ok(()),
        }
    }

    /// The entry as it is written in [`ISLANDS`], for messages.
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

/// The entry of the island `name` in `registry`.
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

fn declare<P: IslandProps>(declarations: &mut Declarations) {
    declarations.visit_props::<P>();
}

fn type_name<P: IslandProps>() -> String {
    P::ident(&ts_rs::Config::new())
}

/// The TypeScript declarations of the props of every island in `registry`
/// and of every type they use, in the order a reader meets them: each
/// island's props in the registry's order, each type after the types it
/// names, those in the order it names them. frontend/src/shared/island-types.generated.ts
/// holds exactly this text for [`ISLANDS`].
pub fn typescript_declarations(registry: &[Entry]) -> String {
    let mut declarations = Declarations {
        config: ts_rs::Config::new(),
        declared: BTreeMap::new(),
        roots: Vec::new(),
    };
    for props in registry.iter().filter_map(|entry| entry.props) {
        (props.declare)(&mut declarations);
    }
    let mut out = format!(
        "// Generated from the island registry ({SOURCE}) and its props structs by `CURBSIDE_BLESS=1 cargo test --test island_props`.\n// Do not edit: change the Rust structs, and that test tells you to regenerate this file.\n",
    );
    let mut written = HashSet::new();
    for root in &declarations.roots {
        declarations.write(root, &mut written, &mut out);
    }
    out
}

/// Every type the props use, by TypeScript name, with its declaration.
struct Declarations {
    config: ts_rs::Config,
    /// The declaration (`type Name = …`) of each type and its doc comment;
    /// a generic type is declared once, with its parameters.
    declared: BTreeMap<String, (String, String)>,
    /// The props types, in the registry's order.
    roots: Vec<String>,
}

impl Declarations {
    /// Declares the props type `P` and every type it uses.
    fn visit_props<P: TS + 'static>(&mut self) {
        self.roots.push(P::ident(&self.config));
        self.visit::<P>();
    }

    /// Writes `name`'s declaration into `out`, after those of the types it
    /// names that are not written yet.
    fn write(&self, name: &str, written: &mut HashSet<String>, out: &mut String) {
        let Some((declaration, docs)) = self.declared.get(name) else {
            return;
        };
        if !written.insert(name.to_string()) {
            return;
        }
        let mut named: Vec<(usize, &String)> = self
            .declared
            .keys()
            .filter(|other| *other != name)
            .filter_map(|other| first_use(declaration, other).map(|at| (at, other)))
            .collect();
        named.sort();
        for (_, other) in named {
            self.write(other, written, out);
        }
        out.push('\n');
        out.push_str(&format!("{docs}export {declaration}"));
        out.push('\n');
    }
}

/// Where `declaration` first names the type `name` (as a whole word).
fn first_use(declaration: &str, name: &str) -> Option<usize> {
    let part_of_a_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    declaration
        .match_indices(name)
        .map(|(at, _)| at)
        .find(|&at| {
            let before = declaration[..at].chars().next_back();
            let after = declaration[at + name.len()..].chars().next();
            !before.is_some_and(part_of_a_word) && !after.is_some_and(part_of_a_word)
        })
}

impl TypeVisitor for Declarations {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        // Lists, options and primitives have no declaration of their own:
        // the types inside them do.
        if T::output_path().is_some() {
            let name = T::ident(&self.config);
            if self.declared.contains_key(&name) {
                return;
            }
            let docs = T::docs().unwrap_or_default();
            self.declared.insert(name, (T::decl(&self.config), docs));
        }
        T::visit_dependencies(self);
        T::visit_generics(self);
    }
}

#[cfg(test)]
mod tests {
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
        let declared = typescript_declarations(REGISTRY);
        assert!(!declared.contains("export"), "{declared}");
    }

    #[test]
    fn each_type_is_declared_once_after_the_types_it_uses() {
        let declared = typescript_declarations(ISLANDS);
        let at = |name: &str| {
            let declaration = format!("export type {name}");
            assert_eq!(declared.matches(&declaration).count(), 1, "{name}");
            declared.find(&declaration).unwrap_or_default()
        };
        assert!(at("PlanType") < at("PlanIdentity"));
        assert!(at("PlanIdentity") < at("ContactProps"));
        assert!(at("ZipProps") < at("ContactProps"));
        assert!(at("PricingPlan") < at("PricingProps"));
        at("Plans");
    }
}
