//! The folders of src/ (and its top-level files) are layers, declared once:
//! the groups of `pub mod` lines in src/lib.rs, lowest first, a blank line
//! between groups. A module may use the modules of the groups before its
//! own, never one of its own group or a later one; so no two folders use
//! each other, through any number of steps.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::cycles::Tree;
use super::files::{read, src, write_file};
use super::graph::{self, Edges};

#[test]
fn modules_use_only_the_layers_below_their_own() {
    let problems = layering(&src());
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The checker itself, on a tree that keeps its layers and then on the same
/// tree with one import turned against them.
#[test]
fn the_layer_check_finds_a_folder_cycle_and_an_import_against_the_order() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let write = |path: &str, text: &str| write_file(dir.path(), path, text);
    write(
        "lib.rs",
        "//! Doc.\n\npub mod low;\n\npub mod middle;\npub mod side;\n\npub mod high;\n",
    );
    write("low.rs", "pub fn base() {}\n");
    write("middle/mod.rs", "mod inner;\npub use inner::work;\n");
    write("middle/inner.rs", "pub fn work() { crate::low::base(); }\n");
    write("side.rs", "pub fn other() {}\n");
    write("high/mod.rs", "pub mod top;\n");
    write(
        "high/top.rs",
        "use crate::middle::work;\npub fn run() { work(); crate::side::other(); }\n",
    );
    assert_eq!(layering(dir.path()), Vec::<String>::new());

    // One file of `middle` calls up into `high`: a cycle between folders, and
    // an import against the order, both pointing at the line.
    write(
        "middle/inner.rs",
        "pub fn work() { crate::low::base(); }\nfn up() { crate::high::top::run(); }\n",
    );
    let problems = layering(dir.path()).join("\n");
    assert!(problems.contains("`middle` uses `high`"), "{problems}");
    assert!(problems.contains("middle/inner.rs:2"), "{problems}");
    assert!(problems.contains("a cycle between folders"), "{problems}");

    // Within one layer, too: `side` may not use `middle`, beside it.
    write("middle/inner.rs", "pub fn work() { crate::low::base(); }\n");
    write("side.rs", "pub fn other() { crate::middle::work(); }\n");
    let problems = layering(dir.path()).join("\n");
    assert!(problems.contains("`side` uses `middle`"), "{problems}");
    assert!(!problems.contains("cycle"), "{problems}");
}

/// What breaks the layering of the crate at `src`: cycles between modules,
/// then each import against the declared order, with the line that makes it.
fn layering(src: &Path) -> Vec<String> {
    let layers = declared_layers(&read(&src.join("lib.rs")));
    let tree = Tree::load(src);
    let module_of = |file: &Path| top_module(src, file);
    let mut between: Edges<String> = BTreeMap::new();
    for (file, out) in tree.edges() {
        let Some(from) = module_of(file) else {
            continue;
        };
        for (to_file, line) in out {
            let Some(to) = module_of(&to_file) else {
                continue;
            };
            if to != from {
                between
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_insert_with(|| format!("{}:{line}", tree.shown(file)));
            }
        }
    }
    let mut problems: Vec<String> =
        graph::cycles(&between, &|module| format!("`{module}`"), &|module, at| {
            format!("`{module}` ({at})")
        })
        .into_iter()
        .map(|cycle| format!("a cycle between folders: {cycle}"))
        .collect();
    let undeclared: Vec<&String> = between
        .keys()
        .filter(|module| !layers.contains_key(*module))
        .collect();
    if !undeclared.is_empty() {
        problems.push(format!("modules in no layer of lib.rs: {undeclared:?}"));
    }
    for (from, out) in &between {
        for (to, at) in out {
            if let (Some(low), Some(high)) = (layers.get(to), layers.get(from))
                && low >= high
            {
                problems.push(format!(
                    "`{from}` uses `{to}` ({at}), which lib.rs declares {} it: move what both need into a lower layer, or hand it in from above",
                    if low == high { "beside" } else { "above" }
                ));
            }
        }
    }
    problems
}

/// Each `pub mod` of lib.rs with the number of its group, lowest first.
fn declared_layers(lib: &str) -> BTreeMap<String, usize> {
    let mut layers = BTreeMap::new();
    let mut layer = 0;
    let mut in_group = false;
    for line in lib.lines() {
        let line = line.trim();
        if let Some(name) = line
            .strip_prefix("pub mod ")
            .and_then(|rest| rest.strip_suffix(';'))
        {
            layers.insert(name.to_string(), layer);
            in_group = true;
        } else if in_group && (line.is_empty() || line.starts_with("//")) {
            layer += 1;
            in_group = false;
        }
    }
    layers
}

/// The module of the crate root a file of src/ belongs to (`media` for
/// src/media/svg/copy.rs); none for lib.rs and main.rs, the root itself.
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let relative: PathBuf = file.strip_prefix(src).ok()?.to_path_buf();
    let first = relative
        .components()
        .next()?
        .as_os_str()
        .to_str()?
        .to_string();
    match first.as_str() {
        "lib.rs" | "main.rs" => None,
        name => Some(name.trim_end_matches(".rs").to_string()),
    }
}
