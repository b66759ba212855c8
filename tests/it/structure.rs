//! The source tree's shape: files small enough to read whole, production
//! code before tests, folders whose `mod.rs` only hands names on, and
//! dependencies between files that run one way.
//!
//! A file depends on another when a `use`, or a path in its code, names an
//! item defined there (re-exports are followed to the file that defines the
//! item; a module named as a whole counts as its own file). Declaring a child
//! module with `mod` is not a dependency.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MOST_LINES: usize = 500;

#[test]
fn no_file_in_src_is_over_the_line_limit() {
    let mut long = Vec::new();
    for file in rust_files(&src()) {
        let lines = read(&file).lines().count();
        if lines > MOST_LINES {
            long.push(format!("{} has {lines} lines", shown(&file)));
        }
    }
    assert!(
        long.is_empty(),
        "files over {MOST_LINES} lines (split them by job):\n{}",
        long.join("\n")
    );
}

#[test]
fn a_folders_mod_rs_only_says_what_it_does_and_hands_names_on() {
    let mut busy = Vec::new();
    for file in rust_files(&src()) {
        if file.ends_with("mod.rs")
            && let Some(line) = first_code_line(&read(&file))
        {
            busy.push(format!("{}:{line}", shown(&file)));
        }
    }
    assert!(
        busy.is_empty(),
        "code in a mod.rs (move it into a file of the folder):\n{}",
        busy.join("\n")
    );
}

/// The first line that is not a comment, a `mod` or a `use`.
fn first_code_line(text: &str) -> Option<usize> {
    let mut in_use = false;
    for (at, line) in text.lines().enumerate() {
        let line = line.trim();
        let bare = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|visibility| line.strip_prefix(visibility))
            .unwrap_or(line);
        if in_use || bare.starts_with("use ") {
            // A `use` may run over several lines, to its `;`.
            in_use = !line.ends_with(';');
        } else if !(line.is_empty() || line.starts_with("//") || bare.starts_with("mod ")) {
            return Some(at + 1);
        }
    }
    None
}

#[test]
fn the_mod_rs_check_finds_code() {
    let handing_on = "//! Doc.\n\nmod a;\npub mod b;\n\npub use a::{\n    X,\n    Y,\n};\n";
    assert_eq!(first_code_line(handing_on), None);
    assert_eq!(
        first_code_line(&format!("{handing_on}\npub fn f() {{}}\n")),
        Some(11)
    );
}

#[test]
fn production_code_comes_before_tests() {
    let mut late = Vec::new();
    for file in rust_files(&src()) {
        if let Some(line) = code_after_tests(&read(&file)) {
            late.push(format!("{}:{line}", shown(&file)));
        }
    }
    assert!(
        late.is_empty(),
        "items after a #[cfg(test)] module (move them above it):\n{}",
        late.join("\n")
    );
}

/// The line of the first top-level item after the first `#[cfg(test)]`
/// one that is not itself marked `#[cfg(test)]`.
fn code_after_tests(text: &str) -> Option<usize> {
    let tokens = tokens(text);
    let (mut seen_test, mut marked) = (false, false);
    let mut i = 0;
    while i < tokens.len() {
        let (token, line) = &tokens[i];
        if *token == Token::Punct(';') {
            i += 1;
            continue;
        }
        if *token == Token::Punct('#') {
            // An attribute, `#[…]` or `#![…]`: its words, to its `]`.
            let mut words = Vec::new();
            let mut depth = 0;
            i += 1;
            while let Some((token, _)) = tokens.get(i) {
                match token {
                    Token::Punct('[') => depth += 1,
                    Token::Punct(']') => depth -= 1,
                    Token::Ident(word) => words.push(word.as_str()),
                    _ => {}
                }
                i += 1;
                if depth == 0 && *token == Token::Punct(']') {
                    break;
                }
            }
            if words == ["cfg", "test"] {
                seen_test = true;
                marked = true;
            }
            continue;
        }
        if seen_test && !std::mem::take(&mut marked) {
            return Some(*line);
        }
        // The item, to its `;` or its closing `}` at the top level.
        let mut depth = 0i32;
        while let Some((token, _)) = tokens.get(i) {
            i += 1;
            match token {
                Token::Punct('{' | '(' | '[') => depth += 1,
                Token::Punct(')' | ']') => depth -= 1,
                Token::Punct('}') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                Token::Punct(';') if depth == 0 => break,
                _ => {}
            }
        }
    }
    None
}

#[test]
fn the_tests_last_check_finds_code_after_tests() {
    let tests = "#[cfg(test)]\nmod tests {\n    fn a() {}\n}\n";
    assert_eq!(code_after_tests(&format!("fn f() {{}}\n\n{tests}")), None);
    let more = "\n#[cfg(test)]\n/// More.\nmod more {}\n";
    assert_eq!(code_after_tests(&format!("{tests}{more}")), None);
    assert_eq!(
        code_after_tests(&format!("{tests}\n/// Late.\npub fn g() {{}}\n")),
        Some(7)
    );
    let text = "#[cfg(test)]\nmod tests {\n    const T: &str = \"a\nfn not_code() {}\";\n}\n";
    assert_eq!(code_after_tests(text), None);
}

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
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().expect("a parent")).expect("a folder");
        fs::write(path, text).expect("a file");
    };
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

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn shown(file: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    file.strip_prefix(root)
        .unwrap_or(file)
        .display()
        .to_string()
}

fn read(file: &Path) -> String {
    fs::read_to_string(file).unwrap_or_else(|error| panic!("{}: {error}", file.display()))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
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

struct Tree {
    files: BTreeMap<PathBuf, FileFacts>,
    modules: BTreeMap<ModPath, PathBuf>,
    root: PathBuf,
}

impl Tree {
    fn load(src: &Path) -> Tree {
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
    fn edges(&self) -> BTreeMap<&PathBuf, BTreeMap<PathBuf, usize>> {
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
        let edges = self.edges();
        let name = |file: &Path| {
            file.strip_prefix(&self.root)
                .unwrap_or(file)
                .display()
                .to_string()
        };
        let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
        let mut cycles = Vec::new();
        for start in edges.keys() {
            if seen.contains(*start) {
                continue;
            }
            // The shortest way from `start` back to itself, if any.
            let mut came_from: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
            let mut frontier = vec![(*start).clone()];
            let mut closed = None;
            'search: while !frontier.is_empty() {
                let mut next = Vec::new();
                for file in frontier {
                    for target in edges.get(&file).into_iter().flat_map(|out| out.keys()) {
                        if target == *start {
                            closed = Some(file.clone());
                            break 'search;
                        }
                        if !came_from.contains_key(target) {
                            came_from.insert(target.clone(), file.clone());
                            next.push(target.clone());
                        }
                    }
                }
                frontier = next;
            }
            let Some(mut last) = closed else { continue };
            let mut chain = vec![(*start).clone()];
            while last != **start {
                chain.push(last.clone());
                last = came_from[&last].clone();
            }
            chain[1..].reverse();
            chain.push((*start).clone());
            seen.extend(chain.iter().cloned());
            let steps: Vec<String> = chain
                .windows(2)
                .map(|pair| format!("{}:{}", name(&pair[0]), edges[&pair[0]][&pair[1]]))
                .collect();
            cycles.push(format!("{} → {}", steps.join(" → "), name(start)));
        }
        cycles
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Found {
    Item,
    Module,
    /// Not found in the module the path reached: that module's file.
    Guessed,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Path, // `::`
    Punct(char),
}

/// Rust source as identifiers, `::` and punctuation, with their lines;
/// comments, strings, characters and numbers left out.
fn tokens(source: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if (c == 'r' || c == 'b') && raw_string_start(&chars, i).is_some() {
            let (hashes, body) = raw_string_start(&chars, i).unwrap_or_default();
            i = body;
            loop {
                if i >= chars.len() {
                    break;
                }
                if chars[i] == '"' && (0..hashes).all(|k| at(i + 1 + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
        } else if c == '"' || (c == 'b' && at(i + 1) == '"') {
            i += if c == 'b' { 2 } else { 1 };
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if at(i) == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A character ('x', '\n', '\u{..}') or a lifetime ('a).
            if at(i + 1) == '\\' {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // `r#name` is the name.
            if word == "r" && at(i) == '#' {
                i += 1;
                continue;
            }
            out.push((Token::Ident(word), line));
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push((Token::Path, line));
            i += 2;
        } else {
            out.push((Token::Punct(c), line));
            i += 1;
        }
    }
    out
}

/// `r"`, `r#"`, `br"`…: how many `#`, and where the text starts.
fn raw_string_start(chars: &[char], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if chars.get(j) == Some(&'b') {
        j += 1;
    }
    if chars.get(j) != Some(&'r') {
        return None;
    }
    j += 1;
    let mut hashes = 0;
    while chars.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    (chars.get(j) == Some(&'"')).then_some((hashes, j + 1))
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
