//! The props contract between the build and the islands' TypeScript. The islands
//! registry (src/islands/registry.rs) and the props structs it names are its source:
//!
//! - frontend/src/shared/island-types.generated.ts is generated from them, so island code is
//!   typed by what the build really sends;
//! - frontend/test/fixtures/island-props.json is the JSON a real build emits,
//!   which the island tests render from.
//!
//! Either file going stale fails here; `CURBSIDE_BLESS=1 cargo test --test it
//! island_props::` rewrites both. The JSON is compared by shape (keys and kinds
//! of value), not by words, so a site owner's content edits never fail a test.

use std::path::Path;

use crate::support::fixture::{Fixture, project_root};
use curbside::islands::registry;
use scraper::{Html, Selector};
use serde_json::{Map, Value};

const TYPES: &str = "frontend/src/shared/island-types.generated.ts";
const EMITTED: &str = "frontend/test/fixtures/island-props.json";
const BLESS: &str = "CURBSIDE_BLESS=1 cargo test --test it island_props::";

fn blessing() -> bool {
    std::env::var_os("CURBSIDE_BLESS").is_some()
}

#[test]
fn the_typescript_props_types_are_generated_from_the_rust_structs() {
    let exported = tempfile::tempdir().expect("a folder to export into");
    let generated = registry::export_typescript(registry::ISLANDS, exported.path())
        .unwrap_or_else(|err| panic!("ts-rs could not export the props types: {err}"));
    let path = project_root().join(TYPES);
    if blessing() {
        std::fs::write(&path, &generated).expect("write the generated types");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{TYPES} is not what the islands registry (src/islands/registry.rs) generates: run `{BLESS}`, then fix the TypeScript it breaks"
    );
}

#[test]
fn the_island_tests_render_from_the_props_a_real_build_emits() {
    let fixture = Fixture::copy_of_project();
    fixture.with_frontend();
    let output = fixture.build();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let emitted = emitted_props(&fixture.root().join("dist/index.html"));
    let path = project_root().join(EMITTED);
    if blessing() {
        let text = serde_json::to_string_pretty(&emitted).expect("props are JSON") + "\n";
        std::fs::write(&path, text).expect("write the emitted props");
        return;
    }
    let committed: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_default())
            .unwrap_or(Value::Null);
    assert_eq!(
        shape(&committed),
        shape(&emitted),
        "{EMITTED} no longer has the shape of the props the build emits: run `{BLESS}`, then fix the island tests it breaks"
    );
}

/// Every island's props on the home page, by island name.
fn emitted_props(page: &Path) -> Value {
    let html = Html::parse_document(&std::fs::read_to_string(page).expect("read the home page"));
    let scripts =
        Selector::parse("script[type='application/json'][id^='props-']").expect("selector");
    let mut props = Map::new();
    for script in html.select(&scripts) {
        let id = script.value().id().expect("the selector matched an id");
        let json: Value =
            serde_json::from_str(&script.text().collect::<String>()).expect("props are JSON");
        props.insert(id.trim_start_matches("props-").to_string(), json);
    }
    assert!(
        props.len() >= 2,
        "the home page holds the pricing and contact islands: {props:?}"
    );
    Value::Object(props)
}

/// The keys and kinds of a JSON value, without its words and numbers; a
/// list's shape is the shape of its first item.
fn shape(value: &Value) -> Value {
    match value {
        Value::Null => "null".into(),
        Value::Bool(_) => "boolean".into(),
        Value::Number(_) => "number".into(),
        Value::String(_) => "string".into(),
        Value::Array(items) => Value::Array(items.first().map(shape).into_iter().collect()),
        Value::Object(fields) => {
            Value::Object(fields.iter().map(|(k, v)| (k.clone(), shape(v))).collect())
        }
    }
}
