//! The list of placeholders content authors read, at the top of
//! content/home.yaml, is the build's own ([`placeholders::PLACEHOLDERS`]):
//! every content file that lists placeholders in its comments holds exactly
//! [`placeholders::comment`], so a placeholder added to the build is never
//! missing from what authors see, and none they see is unknown to the build.
//! `CURBSIDE_BLESS=1 cargo test --test it placeholders::` writes it again.

use std::path::{Path, PathBuf};

use curbside::content::placeholders::{self, COMMENT_HEADING};

const BLESS: &str = "CURBSIDE_BLESS=1 cargo test --test it placeholders::";

/// The file that lists the placeholders for everyone (the others point to it).
const LIST: &str = "home.yaml";

fn content() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("content")
}

/// The content files whose comments an author reads: the YAML files and the
/// Markdown pages (comments in their front matter), not the schemas.
fn content_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(content())
        .into_iter()
        .map(|entry| entry.expect("walk content/"))
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| entry.into_path())
        .filter(|path| {
            let extension = path.extension().and_then(|e| e.to_str());
            matches!(extension, Some("yaml" | "yml" | "md"))
        })
        .collect();
    files.sort();
    assert!(
        files.iter().any(|file| file.ends_with(LIST)),
        "content/{LIST} is missing"
    );
    files
}

/// The lines of `text` that are comments and name a placeholder, by index.
fn comments_naming_placeholders(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.trim_start().starts_with('#'))
        .filter(|(_, line)| placeholders::find(line).next().is_some())
        .map(|(index, _)| index)
        .collect()
}

/// Where the list is in `text`: the line range from its heading through the
/// comment lines indented under it.
fn list_in(text: &str) -> Option<std::ops::Range<usize>> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|line| *line == COMMENT_HEADING)?;
    let end = lines[start + 1..]
        .iter()
        .position(|line| !line.starts_with("#   "))
        .map_or(lines.len(), |n| start + 1 + n);
    Some(start..end)
}

#[test]
fn the_content_files_list_every_placeholder_the_build_knows() {
    let expected = placeholders::comment();
    for file in content_files() {
        let shown = file
            .strip_prefix(content())
            .expect("inside content/")
            .display()
            .to_string();
        let text = std::fs::read_to_string(&file).expect("read the content file");
        let naming = comments_naming_placeholders(&text);
        let must_list = shown == LIST || !naming.is_empty();
        if !must_list {
            continue;
        }
        if std::env::var_os("CURBSIDE_BLESS").is_some()
            && let Some(range) = list_in(&text)
        {
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            lines.splice(range, expected.lines().map(str::to_string));
            std::fs::write(&file, lines.join("\n") + "\n").expect("write the content file");
            continue;
        }
        let range = list_in(&text).unwrap_or_else(|| {
            panic!(
                "content/{shown} has no list of placeholders (a comment line `{COMMENT_HEADING}`): run `{BLESS}` once it has that line"
            )
        });
        let written: String = text.lines().collect::<Vec<_>>()[range.clone()]
            .iter()
            .map(|line| format!("{line}\n"))
            .collect();
        assert_eq!(
            written, expected,
            "the placeholders listed in content/{shown} are not the build's (src/content/placeholders.rs): run `{BLESS}`"
        );
        for line in naming {
            assert!(
                range.contains(&line),
                "content/{shown}:{}: a comment names placeholders outside the list; point to the list at the top of content/{LIST} instead",
                line + 1
            );
        }
    }
}
