//! The Markdown pages: front matter, and the pictures and island blocks in their text.

use std::path::Path;

use rayon::prelude::*;

use super::markdown;
use super::model::{Page, PageIsland, PageIslandSetting, PageMeta};
use super::placeholders;
use super::site::{PAGES_FOLDER, REQUIRED_PAGES};
use super::yaml::{self, locate_key};
use crate::diagnostics::{self, Diagnostic, Location, Result};
use crate::media::Library;
use crate::text::{line_column, read_text};

/// Reads every `*.md` of pages/; `check` sees each page's text as written.
pub(super) fn load_pages(
    content: &Path,
    shown: &Path,
    pictures: &Library,
    check: impl Fn(&str, &Path) -> Result<()> + Sync,
) -> Result<Vec<Page>> {
    let dir = content.join(PAGES_FOLDER);
    let shown_dir = shown.join(PAGES_FOLDER);
    if !dir.is_dir() {
        return Err(Diagnostic::new("the pages folder is missing")
            .at(Location::file(&shown_dir))
            .help(format!(
                "create it, with at least {}",
                REQUIRED_PAGES
                    .iter()
                    .map(|page| format!("{page}.md"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )));
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&dir)
        .follow_links(true)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|err| {
            diagnostics::from_walk(
                &err,
                &dir,
                &shown_dir,
                "remove the symbolic link; pages must be plain files",
            )
        })?;
        let path = entry.path();
        if entry.path_is_symlink() {
            let relative = path.strip_prefix(content).unwrap_or(path);
            crate::confined::check(content, shown, relative)?;
        }
        if !entry.file_type().is_file() || path.extension().is_none_or(|ext| ext != "md") {
            continue;
        }
        files.push(path.to_path_buf());
    }
    // On every core; the first failing file in name order is reported, as one
    // at a time would.
    let loaded: Vec<Result<Page>> = files
        .par_iter()
        .map(|path| {
            let relative = path.strip_prefix(&dir).unwrap_or(path);
            load_page(path, &shown_dir.join(relative), relative, pictures, &check)
        })
        .collect();
    let pages = loaded.into_iter().collect::<Result<Vec<Page>>>()?;
    for required in REQUIRED_PAGES {
        if !pages.iter().any(|page| page.slug == *required) {
            return Err(Diagnostic::new(format!("the page /{required} is missing"))
                .at(Location::file(shown_dir.join(format!("{required}.md"))))
                .help("create this file: every page's footer links to it"));
        }
    }
    Ok(pages)
}

fn load_page(
    path: &Path,
    shown: &Path,
    relative: &Path,
    pictures: &Library,
    check: &impl Fn(&str, &Path) -> Result<()>,
) -> Result<Page> {
    let slug = relative
        .with_extension("")
        .to_string_lossy()
        .replace('\\', "/");
    let valid_slug = slug
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !["index", "404", "assets"].contains(&slug.as_str());
    if !valid_slug {
        return Err(Diagnostic::new(format!("\"{slug}\" cannot be a page address"))
            .at(Location::file(shown))
            .help("name pages with lowercase letters, digits and dashes, directly in content/pages/, for example `about-us.md`; index, 404 and assets are taken"));
    }
    let text = read_text(path, shown)?;
    let (front, front_line, body, body_line) = yaml::split_front_matter(&text, shown)?;
    let meta: PageMeta = yaml::parse(front, shown, front_line - 1)?;
    check(&text, shown)?;
    if let Some((offset, name)) = placeholders::first_unknown(body) {
        let (line, column) = line_column(&body.as_bytes()[..offset]);
        let (message, help) = placeholders::unknown_message(name);
        return Err(Diagnostic::new(message)
            .at(Location::at(shown, line + body_line - 1, column))
            .help(help));
    }
    for picture in markdown::pictures(body) {
        let (line, column) = line_column(&body.as_bytes()[..picture.offset]);
        let at = Location::at(shown, line + body_line - 1, column);
        if !picture.described {
            return Err(Diagnostic::new(format!("the picture `{}` has no alt text", picture.src))
                .at(at)
                .help(format!(
                    "say what it shows between the brackets, such as `![Our truck at the curb]({})`: screen readers read it aloud; for a picture that is pure decoration, write `![\"\"]({})`",
                    picture.src, picture.src
                )));
        }
        pictures.place(PAGES_FOLDER, &picture.src, &at)?;
    }
    let islands = page_islands(body, shown, body_line)?;
    if meta.date.is_some() != meta.date_label.is_some() {
        let given = if meta.date.is_some() {
            "date"
        } else {
            "date_label"
        };
        let (line, column) = locate_key(front, &[given]).unwrap_or((1, 1));
        return Err(Diagnostic::new("`date` and `date_label` go together")
            .at(Location::at(shown, line + front_line - 1, column))
            .help("give both, for example `date_label: Last updated` and `date: 2025-08-25`, or neither"));
    }
    Ok(Page {
        slug,
        meta,
        body: body.to_string(),
        islands,
    })
}

/// A page's island blocks, each part at its place in the file; the island and
/// settings are checked as the page renders.
fn page_islands(body: &str, shown: &Path, body_line: usize) -> Result<Vec<PageIsland>> {
    let at = |offset: usize| {
        let (line, column) = line_column(&body.as_bytes()[..offset.min(body.len())]);
        Location::at(shown, line + body_line - 1, column)
    };
    let blocks = markdown::islands(body).map_err(|wrong| {
        Diagnostic::new(format!(
            "`{}` in an island block is not a setting",
            wrong.line
        ))
        .at(at(wrong.offset))
        .help(
            "write one setting a line as `name: value`, such as `plan: annual` or `hydrate: idle`",
        )
    })?;
    Ok(blocks
        .into_iter()
        .map(|block| PageIsland {
            name: block.name,
            at: at(block.name_offset),
            settings: block
                .settings
                .into_iter()
                .map(|setting| PageIslandSetting {
                    key: setting.key,
                    key_at: at(setting.key_offset),
                    value: setting.value,
                    value_at: at(setting.value_offset),
                })
                .collect(),
        })
        .collect())
}
