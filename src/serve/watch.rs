//! Which saves matter, and what each asks to rebuild. Folders are watched, not
//! files, so an editor's atomic save (write a temporary file, rename it over)
//! is a change of the file. node_modules/, hidden folders and the output folder
//! are never watched.

use std::path::{Component, Path};
use std::sync::mpsc::Sender;
use std::time::Duration;

use notify::event::{AccessKind, AccessMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::diagnostics::{Diagnostic, Result};
use crate::pipeline::{Change, Project};

pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// Sends each debounced batch of changes to `changes` until the value returned is dropped.
pub fn start(
    project: &Project,
    changes: Sender<DebounceEventResult>,
) -> Result<Debouncer<RecommendedWatcher, RecommendedCache>> {
    let failed = |path: &Path, err: notify::Error| {
        Diagnostic::new(format!("could not watch {} for changes", path.display()))
            .caused_by(err)
            .help("on Linux, raise fs.inotify.max_user_watches, or run `curbside serve` without --watch")
    };
    let mut debouncer =
        new_debouncer(DEBOUNCE, None, changes).map_err(|err| failed(&project.root, err))?;
    for dir in [project.content(), project.layouts()] {
        debouncer
            .watch(&dir, RecursiveMode::Recursive)
            .map_err(|err| failed(&dir, err))?;
    }
    // frontend/ itself only for its own files; its folders one by one, but
    // node_modules/ and hidden ones.
    let frontend = project.frontend();
    debouncer
        .watch(&frontend, RecursiveMode::NonRecursive)
        .map_err(|err| failed(&frontend, err))?;
    let entries = std::fs::read_dir(&frontend)
        .map_err(|err| Diagnostic::io("read the folder", &frontend, err))?;
    for entry in entries.filter_map(|e| e.ok()) {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() && !is_ignored_name(&name.to_string_lossy()) {
            debouncer
                .watch(&path, RecursiveMode::Recursive)
                .map_err(|err| failed(&path, err))?;
        }
    }
    Ok(debouncer)
}

/// Opening or reading is an event too (inotify): every build reads the sources,
/// so each would trigger the next.
pub fn is_read(event: &Event) -> bool {
    matches!(event.kind, EventKind::Access(kind) if kind != AccessKind::Close(AccessMode::Write))
}

/// What a change to `path` (relative to the project) asks for; `None` if it
/// does not affect the site.
pub fn classify(path: &Path) -> Option<Change> {
    let parts: Vec<String> = path
        .components()
        .map(|c| match c {
            Component::Normal(part) => part.to_string_lossy().into_owned(),
            _ => String::new(),
        })
        .collect();
    // Published, so watched.
    if parts
        .iter()
        .any(|part| is_ignored_name(part) && part != ".well-known")
    {
        return None;
    }
    match parts.as_slice() {
        [top, _, ..] if top == "content" || top == "layouts" => Some(Change::Pages),
        // Settings in frontend/ itself; the island server in scripts/. A name
        // without an extension is a folder.
        [top, file] if top == "frontend" => file.contains('.').then_some(Change::Restart),
        [top, dir, _, ..] if top == "frontend" && dir == "scripts" => Some(Change::Restart),
        [top, dir, _, ..] if top == "frontend" && dir == "test" => None,
        [top, .., file] if top == "frontend" && is_test_file(file) => None,
        [top, _, _, ..] if top == "frontend" => Some(Change::Frontend),
        _ => None,
    }
}

/// Never watched: hidden names, editors' backups and scratch files (vim's
/// `.x.swp` and `4913`, emacs' `.#x`, JetBrains' safe-write files).
fn is_ignored_name(name: &str) -> bool {
    name.is_empty()
        || name == "node_modules"
        || name.starts_with('.')
        || name == "4913"
        || name.ends_with('~')
        || (name.starts_with('#') && name.ends_with('#'))
        || [
            ".swp",
            ".swx",
            ".swo",
            ".tmp",
            ".bak",
            "___jb_tmp___",
            "___jb_old___",
        ]
        .iter()
        .any(|suffix| name.ends_with(suffix))
}

fn is_test_file(name: &str) -> bool {
    name.contains(".test.") || name.contains(".spec.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(path: &str) -> Option<Change> {
        classify(Path::new(path))
    }

    #[test]
    fn content_and_layouts_rerender_pages() {
        assert_eq!(kind("content/plans.yaml"), Some(Change::Pages));
        assert_eq!(kind("content/pages/privacypolicy.md"), Some(Change::Pages));
        assert_eq!(kind("layouts/assets/site.css"), Some(Change::Pages));
    }

    #[test]
    fn frontend_changes_rebundle_or_restart() {
        assert_eq!(
            kind("frontend/src/islands/pricing.tsx"),
            Some(Change::Frontend)
        );
        assert_eq!(
            kind("frontend/src/entries/runtime.ts"),
            Some(Change::Frontend)
        );
        assert_eq!(kind("frontend/package.json"), Some(Change::Restart));
        assert_eq!(kind("frontend/package-lock.json"), Some(Change::Restart));
        assert_eq!(
            kind("frontend/scripts/island-server.mjs"),
            Some(Change::Restart)
        );
        assert_eq!(kind("frontend/test/contact.test.tsx"), None);
        assert_eq!(kind("frontend/src/zip.test.ts"), None);
    }

    #[test]
    fn scratch_files_and_other_folders_are_ignored() {
        for path in [
            "content/.plans.yaml.swp",
            "content/plans.yaml~",
            "content/4913",
            "content/.#plans.yaml",
            "content/#plans.yaml#",
            "layouts/base.html.tmp",
            "layouts/base.html___jb_tmp___",
            "frontend/node_modules/react/index.js",
            "frontend/.cache/x.js",
            "frontend/src/.hidden.ts",
            "dist/index.html",
            ".curbside/preview/index.html",
            "src/main.rs",
            "content",
            "frontend/src",
            "README.md",
        ] {
            assert_eq!(kind(path), None, "{path}");
        }
    }

    #[test]
    fn reading_a_file_is_not_a_change() {
        let event = |kind| Event::new(kind);
        assert!(is_read(&event(EventKind::Access(AccessKind::Open(
            AccessMode::Any
        )))));
        assert!(is_read(&event(EventKind::Access(AccessKind::Close(
            AccessMode::Read
        )))));
        assert!(!is_read(&event(EventKind::Access(AccessKind::Close(
            AccessMode::Write
        )))));
        assert!(!is_read(&event(EventKind::Modify(
            notify::event::ModifyKind::Any
        ))));
        assert!(!is_read(&event(EventKind::Create(
            notify::event::CreateKind::File
        ))));
    }

    #[test]
    fn the_largest_rebuild_wins() {
        assert!(Change::Pages < Change::Frontend && Change::Frontend < Change::Restart);
    }
}
