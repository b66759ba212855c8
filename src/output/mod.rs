//! Writing `dist/`: every file goes into a staging folder beside it, which
//! replaces the old folder only once the whole site is written. A failed
//! build therefore leaves the previous `dist/` exactly as it was.
//!
//! What is not for visitors (the server configuration, the mark that
//! curbside owns both folders) goes to `dist-server/` beside it, written the
//! same way: nothing internal is ever published with the site.

pub mod compress;
pub mod host;

use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Result};
use crate::output_file::OutputFile;

/// Refuses an output folder that a build would destroy or that would feed
/// back into the next build: the project itself or a folder above it (the
/// swap replaces `out` whole), or anything inside content/, layouts/ or
/// frontend/.
pub fn check_output_folder(project_root: &Path, out: &Path) -> Result<()> {
    let root = resolved(project_root)?;
    let target = resolved(out)?;
    let refuse = |why: &str| {
        Err(Diagnostic::new(format!(
            "refusing to write the site to {}: {why}",
            out.display()
        ))
        .help("choose a folder of its own for --out, such as dist"))
    };
    if root.starts_with(&target) {
        return refuse("it holds the project, and every build replaces the output folder whole");
    }
    if ["content", "layouts", "frontend"]
        .iter()
        .any(|folder| target.starts_with(root.join(folder)))
    {
        return refuse("it is inside content/, layouts/ or frontend/, the build's own sources");
    }
    Ok(())
}

/// `path` made absolute with links and `..` resolved, even where the end of
/// it does not exist yet.
fn resolved(path: &Path) -> Result<PathBuf> {
    let absolute = std::path::absolute(path).map_err(|err| Diagnostic::io("find", path, err))?;
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => break,
        }
    }
    let mut out =
        std::fs::canonicalize(existing).map_err(|err| Diagnostic::io("find", existing, err))?;
    for name in rest.iter().rev() {
        if name == ".." {
            out.pop();
        } else if name != "." {
            out.push(name);
        }
    }
    Ok(out)
}

/// Marks the server folder, and so the site folder beside it, as
/// curbside's output, which every build replaces whole. A non-empty folder
/// without it is never replaced: it may be anything. (Builds before the
/// server folder existed kept it in the site folder; it counts there too.)
pub const MARKER: &str = ".curbside-output";

/// The folder beside `out` for what is not published: `dist` → `dist-server`.
pub fn server_folder(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!("{name}-server"))
}

/// Writes `site` into `out` and `server` into its [`server_folder`], each
/// through a fresh staging folder swapped in whole. The server folder goes
/// first: it holds the mark that lets the next build replace `out`.
pub fn write_site(out: &Path, site: &[OutputFile], server: &[OutputFile]) -> Result<()> {
    let server_out = server_folder(out);
    check_replaceable(&server_out, &server_out)?;
    check_replaceable(out, &server_out)?;
    let marker = OutputFile::text(
        MARKER,
        format!(
            "Written by curbside: every build replaces this folder and {} whole.\n",
            out.file_name().unwrap_or_default().to_string_lossy()
        ),
    );
    write_folder(&server_out, std::iter::once(&marker).chain(server))?;
    write_folder(out, site.iter())
}

fn write_folder<'a>(out: &Path, files: impl Iterator<Item = &'a OutputFile>) -> Result<()> {
    let staging = sibling(out, "staging");
    remove_if_present(&staging)?;
    std::fs::create_dir_all(&staging).map_err(|err| Diagnostic::io("create", &staging, err))?;
    for file in files {
        let path = safe_join(&staging, &file.path)?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|err| Diagnostic::io("create", parent, err))?;
        }
        std::fs::write(&path, &file.contents).map_err(|err| Diagnostic::io("write", &path, err))?;
    }
    swap_in(&staging, out)
}

/// Refuses to replace a folder that holds something other than what
/// curbside wrote: it must be empty or missing, or carry the mark in itself
/// or in `server_out`.
fn check_replaceable(out: &Path, server_out: &Path) -> Result<()> {
    let Ok(mut entries) = std::fs::read_dir(out) else {
        return Ok(());
    };
    if entries.next().is_none() || out.join(MARKER).is_file() || server_out.join(MARKER).is_file() {
        return Ok(());
    }
    Err(Diagnostic::new(format!(
        "refusing to replace {}: it holds files curbside did not write",
        out.display()
    ))
    .help(format!(
        "every build replaces the output folder and {} beside it whole; pass --out a new or empty folder, or move this one's files elsewhere",
        server_out.file_name().unwrap_or_default().to_string_lossy()
    )))
}

/// Replaces `out` with `staging`. The old folder is moved aside first and
/// removed last, so at no point is there a half-written site at `out`.
fn swap_in(staging: &Path, out: &Path) -> Result<()> {
    let old = sibling(out, "old");
    remove_if_present(&old)?;
    if out.exists() {
        std::fs::rename(out, &old).map_err(|err| Diagnostic::io("move aside", out, err))?;
    }
    if let Err(err) = std::fs::rename(staging, out) {
        // Put the previous site back before reporting.
        let _ = std::fs::rename(&old, out);
        return Err(Diagnostic::io("move the new site into", out, err));
    }
    remove_if_present(&old)
}

fn sibling(out: &Path, suffix: &str) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".{name}.{suffix}"))
}

fn remove_if_present(path: &Path) -> Result<()> {
    match std::fs::remove_dir_all(path) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
            Err(Diagnostic::io("remove", path, err))
        }
        _ => Ok(()),
    }
}

/// `root/relative`, refusing anything that would land outside `root`.
fn safe_join(root: &Path, relative: &str) -> Result<PathBuf> {
    let ok = !relative.is_empty()
        && relative
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains('\\'));
    if ok {
        Ok(root.join(relative))
    } else {
        Err(Diagnostic::new(format!(
            "refusing to write the output file \"{relative}\""
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_is_swapped_in_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        write_site(&out, &[OutputFile::text("a.html", "one".into())], &[]).unwrap();
        write_site(&out, &[OutputFile::text("b/c.html", "two".into())], &[]).unwrap();
        assert!(!out.join("a.html").exists());
        assert_eq!(
            std::fs::read_to_string(out.join("b/c.html")).unwrap(),
            "two"
        );
        let mut leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        leftovers.sort();
        assert_eq!(leftovers, ["dist", "dist-server"]);
    }

    #[test]
    fn output_folders_that_would_destroy_the_project_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("site");
        std::fs::create_dir_all(root.join("content")).unwrap();
        for bad in [
            ".",
            "..",
            "../..",
            "content",
            "content/out",
            "frontend/x",
            "./dist/..",
        ] {
            assert!(
                check_output_folder(&root, &root.join(bad)).is_err(),
                "{bad} accepted"
            );
        }
        for good in ["dist", "../elsewhere", "out/site", "contents"] {
            assert!(
                check_output_folder(&root, &root.join(good)).is_ok(),
                "{good} refused"
            );
        }
    }

    #[test]
    fn a_folder_curbside_did_not_write_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("docs");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("notes.txt"), "mine").unwrap();
        let err = write_site(&out, &[OutputFile::text("a.html", "x".into())], &[]).unwrap_err();
        assert!(
            err.message.starts_with("refusing to replace"),
            "{}",
            err.message
        );
        assert_eq!(
            std::fs::read_to_string(out.join("notes.txt")).unwrap(),
            "mine"
        );
        // Nor is a server folder curbside did not write, and the site is
        // then left alone too.
        std::fs::remove_file(out.join("notes.txt")).unwrap();
        let server = dir.path().join("docs-server");
        std::fs::create_dir_all(&server).unwrap();
        std::fs::write(server.join("site.conf"), "mine").unwrap();
        assert!(write_site(&out, &[OutputFile::text("a.html", "x".into())], &[]).is_err());
        assert!(std::fs::read_dir(&out).unwrap().next().is_none());
        std::fs::remove_file(server.join("site.conf")).unwrap();
        // Empty folders, or ones curbside wrote, are fine; the mark is
        // beside the site, never in it.
        write_site(&out, &[OutputFile::text("a.html", "x".into())], &[]).unwrap();
        write_site(&out, &[OutputFile::text("b.html", "y".into())], &[]).unwrap();
        assert!(server.join(MARKER).is_file() && !out.join(MARKER).exists());
        assert!(!out.join("a.html").exists() && out.join("b.html").is_file());
    }

    #[test]
    fn a_site_marked_by_an_earlier_build_in_its_own_folder_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join(MARKER), "").unwrap();
        std::fs::write(out.join("old.html"), "").unwrap();
        write_site(&out, &[OutputFile::text("new.html", "x".into())], &[]).unwrap();
        assert!(!out.join("old.html").exists() && !out.join(MARKER).exists());
    }

    #[test]
    fn paths_outside_the_output_are_refused() {
        for bad in ["../x", "/etc/x", "a/../../x", "a\\..\\x", ""] {
            assert!(safe_join(Path::new("/out"), bad).is_err(), "{bad}");
        }
    }
}
