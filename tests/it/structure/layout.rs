//! Rules each file in src/ keeps on its own: a line limit, a `mod.rs` that
//! only hands names on, production code before tests.

use super::files::{read, rust_files, shown, src};
use super::tokens::{Token, tokens};

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
