//! Rules each file keeps on its own: a line limit, a `mod.rs` that only
//! hands names on, production code before tests; and the integration tests
//! in one binary.

use std::fs;
use std::path::Path;

use super::files::{read, rust_files, shown, src, tests};
use super::tokens::{Token, tokens};

const MOST_LINES: usize = 500;
/// Test files may run longer (a case often writes out a whole fixture), to
/// this many lines.
const MOST_TEST_LINES: usize = 800;

#[test]
fn no_file_in_src_is_over_the_line_limit() {
    let long = longer_than(&src(), MOST_LINES);
    assert!(
        long.is_empty(),
        "files over {MOST_LINES} lines (split them by job):\n{}",
        long.join("\n")
    );
}

#[test]
fn no_file_under_tests_is_over_the_line_limit() {
    let long = longer_than(&tests(), MOST_TEST_LINES);
    assert!(
        long.is_empty(),
        "files over {MOST_TEST_LINES} lines (split them by job into a folder of modules):\n{}",
        long.join("\n")
    );
}

/// Each Rust file under `dir` with more than `most` lines, with its count.
fn longer_than(dir: &Path, most: usize) -> Vec<String> {
    rust_files(dir)
        .iter()
        .filter_map(|file| {
            let lines = read(file).lines().count();
            (lines > most).then(|| format!("{} has {lines} lines", shown(file)))
        })
        .collect()
}

/// Cargo makes a test binary of each `tests/*.rs` and `tests/*/main.rs`, and
/// each links the whole crate with its dependencies: the integration tests
/// are modules of the one binary, tests/it/.
#[test]
fn the_integration_tests_are_one_binary() {
    let tests = tests();
    let entries = fs::read_dir(&tests).unwrap_or_else(|e| panic!("{}: {e}", tests.display()));
    let mut binaries: Vec<String> = entries
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| {
            path.extension().is_some_and(|ext| ext == "rs") || path.join("main.rs").is_file()
        })
        .map(|path| shown(&path))
        .collect();
    binaries.sort();
    assert_eq!(
        binaries,
        ["tests/it"],
        "integration test binaries (make each a module of tests/it/main.rs instead)"
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
