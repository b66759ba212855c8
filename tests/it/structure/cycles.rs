//! Dependencies between files in src/ run one way. A file depends on
//! another when a `use`, or a path in its code, names an item defined there
//! (re-exports are followed to the file that defines the item; a module
//! named as a whole counts as its own file). Declaring a child module with
//! `mod` is not a dependency.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::files::{read, rust_files, shown, src, write_file};
use super::graph;
use super::tokens::{Token, tokens};

#[test]
fn no_cycle_between_files_in_src() {
    let tree = Tree::load(&src());
    let unreached: Vec<String> = rust_files(&src())
        .iter()
        .filter(|file| !tree.files.contains_key(*file))
        .map(|file| shown(file))
        .collect();
    assert!(
        unreached.is_empty(),
        "files no `mod` reaches: {unreached:?}"
    );
    let cycles = tree.cycles();
    assert!(
        cycles.is_empty(),
        "dependency cycles between files:\n{}",
        cycles.join("\n\n")
    );
}

/// The cycle finder itself, on a tree with one cycle and one tree without.
#[test]
fn the_cycle_finder_finds_a_cycle_through_a_re_export() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let write = |path: &str, text: &str| write_file(dir.path(), path, text);
    write("lib.rs", "pub mod a;\npub mod b;\n");
    write("a/mod.rs", "mod inner;\npub use inner::Thing;\n");
    write(
        "a/inner.rs",
        "pub struct Thing;\nfn f() { crate::b::other(); }\n",
    );
    write(
        "b.rs",
        "use crate::a::Thing;\npub fn other() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
    );
    let cycles = Tree::load(dir.path()).cycles();
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert!(cycles[0].contains("a/inner.rs"), "{}", cycles[0]);
    assert!(cycles[0].contains("b.rs"), "{}", cycles[0]);
    assert!(!cycles[0].contains("a/mod.rs"), "{}", cycles[0]);

    write("a/inner.rs", "pub struct Thing;\n// crate::b::other()\n");
    assert!(Tree::load(dir.path()).cycles().is_empty());
}

/// A module path from the crate root, such as `["content", "model"]`.
type ModPath = Vec<String>;

/// What one file says: its child modules, the names it defines, what it
/// imports, and the paths its code names.
#[derive(Default)]
struct FileFacts {
    module: ModPath,
    children: BTreeSet<String>,
    defines: BTreeSet<String>,
    /// A name brought in by `use` → the absolute path it stands for.
    bindings: BTreeMap<String, ModPath>,
    /// `use path::*`, absolute.
    globs: Vec<ModPath>,
    /// Every absolute path this file names, with its line.
    names: Vec<(ModPath, usize)>,
}

pub(super) struct Tree {
    files: BTreeMap<PathBuf, FileFacts>,
    modules: BTreeMap<ModPath, PathBuf>,
    root: PathBuf,
}

impl Tree {
    pub(super) fn load(src: &Path) -> Tree {
        let mut tree = Tree {
            files: BTreeMap::new(),
            modules: BTreeMap::new(),
            root: src.to_path_buf(),
        };
        let mut queue = vec![(src.join("lib.rs"), Vec::new())];
        while let Some((file, module)) = queue.pop() {
            let facts = scan(&read(&file), module.clone());
            let dir = if file.ends_with("lib.rs") || file.ends_with("mod.rs") {
                file.parent().expect("a parent").to_path_buf()
            } else {
                file.with_extension("")
            };
            for child in &facts.children {
                let flat = dir.join(format!("{child}.rs"));
                let nested = dir.join(child).join("mod.rs");
                let child_file = if flat.exists() { flat } else { nested };
                let mut child_module = module.clone();
                child_module.push(child.clone());
                queue.push((child_file, child_module));
            }
            tree.modules.insert(module, file.clone());
            tree.files.insert(file, facts);
        }
        // The binary: its `curbside::` paths are the library's.
        let main = src.join("main.rs");
        if main.exists() {
            let facts = scan(&read(&main), vec!["<main>".to_string()]);
            tree.files.insert(main, facts);
        }
        tree
    }

    /// The file that defines what `path` names, and whether it was found
    /// (rather than guessed as the last module on the way). A module named
    /// whole is `Module`: its file is only a dependency through what the
    /// code then takes from it.
    fn resolve(&self, path: &[String], hops: usize) -> Option<(PathBuf, Found)> {
        let mut module: ModPath = Vec::new();
        let mut file = self.modules.get(&module)?;
        for (i, segment) in path.iter().enumerate() {
            let facts = &self.files[file];
            if facts.children.contains(segment) {
                module.push(segment.clone());
                file = self.modules.get(&module)?;
                continue;
            }
            if segment == "*" || facts.defines.contains(segment) || hops > 16 {
                return Some((file.clone(), Found::Item));
            }
            if let Some(target) = facts.bindings.get(segment) {
                let mut next = target.clone();
                next.extend(path[i + 1..].iter().cloned());
                if let Some(found) = self.resolve(&next, hops + 1) {
                    return Some(found);
                }
            }
            for glob in &facts.globs {
                let mut next = glob.clone();
                next.extend(path[i..].iter().cloned());
                if let Some((found, how)) = self.resolve(&next, hops + 1)
                    && how != Found::Guessed
                {
                    return Some((found, how));
                }
            }
            return Some((file.clone(), Found::Guessed));
        }
        Some((file.clone(), Found::Module))
    }

    /// Each file's dependencies, with the line that makes each one.
    pub(super) fn edges(&self) -> BTreeMap<&PathBuf, BTreeMap<PathBuf, usize>> {
        let mut edges: BTreeMap<&PathBuf, BTreeMap<PathBuf, usize>> = BTreeMap::new();
        for (file, facts) in &self.files {
            let out = edges.entry(file).or_default();
            for (path, line) in &facts.names {
                if let Some((target, how)) = self.resolve(path, 0)
                    && how != Found::Module
                    && &target != file
                {
                    out.entry(target).or_insert(*line);
                }
            }
        }
        edges
    }

    /// Every cycle, one per strongly connected group of files, as
    /// `a.rs:line → b.rs:line → a.rs`.
    fn cycles(&self) -> Vec<String> {
        let edges: BTreeMap<PathBuf, BTreeMap<PathBuf, String>> = self
            .edges()
            .into_iter()
            .map(|(file, out)| {
                let out = out.into_iter().map(|(to, line)| (to, line.to_string()));
                (file.clone(), out.collect())
            })
            .collect();
        let name = |file: &PathBuf| self.shown(file);
        graph::cycles(&edges, &name, &|from, line| {
            format!("{}:{line}", name(from))
        })
    }

    /// A file as the failures show it, from src/.
    pub(super) fn shown(&self, file: &Path) -> String {
        file.strip_prefix(&self.root)
            .unwrap_or(file)
            .display()
            .to_string()
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Found {
    Item,
    Module,
    /// Not found in the module the path reached: that module's file.
    Guessed,
}

const ITEM_KEYWORDS: &[&str] = &[
    "fn", "struct", "enum", "trait", "const", "static", "type", "union",
];

fn scan(source: &str, module: ModPath) -> FileFacts {
    let tokens = tokens(source);
    let mut facts = FileFacts {
        module,
        ..FileFacts::default()
    };
    let ident = |i: usize| match tokens.get(i) {
        Some((Token::Ident(word), _)) => Some(word.as_str()),
        _ => None,
    };
    // First pass: child modules and top-level names, which later paths need.
    let mut depth = 0usize;
    for i in 0..tokens.len() {
        match &tokens[i].0 {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => depth = depth.saturating_sub(1),
            Token::Ident(word) if depth == 0 => {
                if word == "mod"
                    && let Some(name) = ident(i + 1)
                    && tokens.get(i + 2).map(|t| &t.0) == Some(&Token::Punct(';'))
                {
                    facts.children.insert(name.to_string());
                } else if ITEM_KEYWORDS.contains(&word.as_str())
                    && let Some(name) = ident(i + 1)
                    && !ITEM_KEYWORDS.contains(&name)
                {
                    facts.defines.insert(name.to_string());
                } else if word == "macro_rules"
                    && let Some(name) = ident(i + 2)
                {
                    facts.defines.insert(name.to_string());
                }
            }
            _ => {}
        }
    }
    // Second pass: `use` trees and paths in code. Inside an inline module
    // (`mod tests { … }`) `super` is still this file.
    let mut inline: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < tokens.len() {
        let (token, line) = &tokens[i];
        match token {
            Token::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Token::Punct('}') => {
                if inline.last() == Some(&depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Token::Ident(word) if word == "mod" && ident(i + 1).is_some() => {
                if tokens.get(i + 2).map(|t| &t.0) == Some(&Token::Punct('{')) {
                    inline.push(depth + 1);
                }
                i += 2;
            }
            Token::Ident(word) if word == "use" => {
                let (paths, end) = use_tree(&tokens, i + 1, Vec::new());
                for (path, alias) in paths {
                    let Some(absolute) = facts.absolute(&path, inline.len()) else {
                        continue;
                    };
                    if path.last().map(String::as_str) == Some("*") {
                        let mut glob = absolute.clone();
                        glob.pop();
                        if inline.is_empty() {
                            facts.globs.push(glob);
                        }
                    } else if let Some(alias) = alias {
                        facts.bindings.insert(alias, absolute.clone());
                    }
                    facts.names.push((absolute, *line));
                }
                i = end;
            }
            Token::Ident(first) => {
                // A path in code: `a::b::c`, not preceded by `::`.
                let after_path = i > 0 && tokens[i - 1].0 == Token::Path;
                let mut path = vec![first.clone()];
                let mut j = i + 1;
                while tokens.get(j).map(|t| &t.0) == Some(&Token::Path)
                    && let Some(next) = ident(j + 1)
                {
                    path.push(next.to_string());
                    j += 2;
                }
                if !after_path
                    && path.len() > 1
                    && let Some(absolute) = facts.absolute(&path, inline.len())
                {
                    facts.names.push((absolute, *line));
                }
                i = j.max(i + 1);
            }
            _ => i += 1,
        }
    }
    facts
}

impl FileFacts {
    /// `path` from the crate root, or `None` for another crate's.
    fn absolute(&self, path: &[String], inline_depth: usize) -> Option<ModPath> {
        let first = path.first()?;
        let mut module = self.module.clone();
        let mut inline_depth = inline_depth;
        let mut rest = path;
        match first.as_str() {
            "crate" | "curbside" => {
                module.clear();
                rest = &path[1..];
            }
            "self" => rest = &path[1..],
            "super" => {
                while rest.first().map(String::as_str) == Some("super") {
                    if inline_depth > 0 {
                        inline_depth -= 1;
                    } else {
                        module.pop();
                    }
                    rest = &rest[1..];
                }
            }
            name if self.children.contains(name) => {}
            name if self.bindings.contains_key(name) => {
                module = self.bindings[name].clone();
                rest = &path[1..];
            }
            _ => return None,
        }
        if module.first().map(String::as_str) == Some("<main>") {
            return None;
        }
        module.extend(rest.iter().cloned());
        Some(module)
    }
}

/// A path a `use` names, and the name it binds there if any.
type UsePath = (Vec<String>, Option<String>);

/// The paths of a `use` tree starting at `i`, each with the name it binds,
/// and the index after the tree.
fn use_tree(tokens: &[(Token, usize)], mut i: usize, prefix: Vec<String>) -> (Vec<UsePath>, usize) {
    let mut paths = Vec::new();
    let mut path = prefix.clone();
    while let Some((token, _)) = tokens.get(i) {
        match token {
            Token::Ident(word) if word == "as" => {
                if let Some((Token::Ident(alias), _)) = tokens.get(i + 1) {
                    paths.push((path.clone(), Some(alias.clone())));
                    path = prefix.clone();
                }
                i += 2;
                continue;
            }
            Token::Ident(word) => path.push(word.clone()),
            Token::Path => {}
            Token::Punct('*') => path.push("*".to_string()),
            Token::Punct('{') => {
                let (inner, end) = use_tree(tokens, i + 1, path.clone());
                paths.extend(inner);
                path = prefix.clone();
                i = end;
                continue;
            }
            Token::Punct(',') | Token::Punct('}') | Token::Punct(';') => {
                if path.len() > prefix.len() {
                    paths.push(finish(path.clone()));
                }
                path = prefix.clone();
                if *token != Token::Punct(',') {
                    return (paths, i + 1);
                }
            }
            Token::Punct(_) => {}
        }
        i += 1;
    }
    (paths, i)
}

/// A `use` path and the name it binds (`a::b::{self}` binds `b`).
fn finish(mut path: Vec<String>) -> UsePath {
    if path.last().map(String::as_str) == Some("self") {
        path.pop();
    }
    let alias = path.last().filter(|name| *name != "*").cloned();
    (path, alias)
}
