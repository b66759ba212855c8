//! The staging folder a build writes into, swapped in for `dist/` and
//! `dist-server/` once the site is written.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::file::{CopiedFile, OutputFile};
use super::same_bytes::{same_file_contents, same_files};
use crate::diagnostics::{Diagnostic, Result};

/// Refuses an output folder a build would destroy or read back: the project or
/// a folder above it (the swap replaces `out` whole), or one inside content/,
/// layouts/ or frontend/.
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

/// `path` absolute, links and `..` resolved, even where its end does not exist yet.
pub(crate) fn resolved(path: &Path) -> Result<PathBuf> {
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

/// Marks the server folder, and so the site beside it, as curbside's output,
/// replaced whole by every build; a non-empty folder without it is never
/// replaced. (Older builds kept it in the site folder; it counts there too.)
pub const MARKER: &str = ".curbside-output";

/// The folder beside `out` for what is not published: `dist` → `dist-server`.
pub fn server_folder(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!("{name}-server"))
}

/// Writes `site` into `out` and `server` into its [`server_folder`], each
/// swapped in whole; the server folder first, as it holds the mark that lets
/// the next build replace `out`.
pub fn write_site(out: &Path, site: &[OutputFile], server: &[OutputFile]) -> Result<()> {
    let mut staged = StagedSite::open(out)?;
    staged.write(site)?;
    staged.finish(server)
}

/// A site being written into a staging folder beside `out`, file by file; only
/// [`StagedSite::finish`] puts it in place, and dropped before that, it is removed.
pub struct StagedSite {
    out: PathBuf,
    staging: PathBuf,
    /// The last build's site, whose unchanged files are linked, not written.
    previous: Option<PathBuf>,
    folders: HashSet<PathBuf>,
    files: usize,
    finished: bool,
}

impl StagedSite {
    /// Refuses an `out` (or server folder) curbside did not write; starts a staging folder.
    pub fn open(out: &Path) -> Result<StagedSite> {
        let server_out = server_folder(out);
        check_replaceable(&server_out, &server_out)?;
        check_replaceable(out, &server_out)?;
        let staging = sibling(out, "staging");
        remove_if_present(&staging)?;
        std::fs::create_dir_all(&staging).map_err(|err| Diagnostic::io("create", &staging, err))?;
        Ok(StagedSite {
            previous: out.is_dir().then(|| out.to_path_buf()),
            out: out.to_path_buf(),
            folders: HashSet::from([staging.clone()]),
            staging,
            files: 0,
            finished: false,
        })
    }

    pub fn write(&mut self, files: &[OutputFile]) -> Result<()> {
        let paths = self.staged_paths(files.iter().map(|file| file.path.as_str()))?;
        let written: Vec<Result<()>> = files
            .par_iter()
            .zip(&paths)
            .map(|(file, path)| self.write_one(file, path))
            .collect();
        self.files += files.len();
        written.into_iter().collect()
    }

    /// Each file's path in the staging folder, its folders made once, first, so
    /// the files can be written on every core.
    fn staged_paths<'p>(
        &mut self,
        relative: impl Iterator<Item = &'p str>,
    ) -> Result<Vec<PathBuf>> {
        let paths: Vec<PathBuf> = relative
            .map(|path| safe_join(&self.staging, path))
            .collect::<Result<_>>()?;
        for folder in paths.iter().filter_map(|path| path.parent()) {
            if !self.folders.contains(folder) {
                std::fs::create_dir_all(folder)
                    .map_err(|err| Diagnostic::io("create", folder, err))?;
                self.folders.insert(folder.to_path_buf());
            }
        }
        Ok(paths)
    }

    /// A file the previous site holds with the same bytes is hard-linked: no
    /// data and no new inode, which on ext4 costs more the more files were
    /// deleted in the last minute (every build deletes the site it replaces).
    /// The previous site is never changed.
    fn write_one(&self, file: &OutputFile, path: &Path) -> Result<()> {
        if let Some(previous) = &self.previous
            && let Ok(old) = safe_join(previous, &file.path)
            && same_file_contents(&old, &file.contents)
            && std::fs::hard_link(&old, path).is_ok()
        {
            return Ok(());
        }
        std::fs::write(path, &file.contents).map_err(|err| Diagnostic::io("write", path, err))
    }

    /// Copies `files` as streams, on every core; one the previous site holds
    /// with the same bytes (compared a block at a time) is linked.
    pub fn copy(&mut self, files: &[CopiedFile<'_>]) -> Result<()> {
        let paths = self.staged_paths(files.iter().map(|file| file.path))?;
        let copied: Vec<Result<()>> = files
            .par_iter()
            .zip(&paths)
            .map(|(file, path)| {
                if let Some(previous) = &self.previous
                    && let Ok(old) = safe_join(previous, file.path)
                    && same_files(&old, file.source)
                    && std::fs::hard_link(&old, path).is_ok()
                {
                    return Ok(());
                }
                std::fs::copy(file.source, path)
                    .map(|_| ())
                    .map_err(|err| Diagnostic::io("copy", file.shown, err))
            })
            .collect();
        self.files += files.len();
        copied.into_iter().collect()
    }

    pub fn files(&self) -> usize {
        self.files
    }

    /// Writes the server folder (through its own staging folder), then puts the
    /// site in place of `out`.
    pub fn finish(mut self, server: &[OutputFile]) -> Result<()> {
        let marker = OutputFile::text(
            MARKER,
            format!(
                "Written by curbside: every build replaces this folder and {} whole.\n",
                self.out.file_name().unwrap_or_default().to_string_lossy()
            ),
        );
        write_folder(
            &server_folder(&self.out),
            std::iter::once(&marker).chain(server),
        )?;
        // From here the staging folder is `out`, or removed below on failure.
        self.finished = true;
        let result = swap_in(&self.staging, &self.out);
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&self.staging);
        }
        result
    }
}

impl Drop for StagedSite {
    fn drop(&mut self) {
        if !self.finished {
            // Nothing half-written is left beside the output.
            let _ = std::fs::remove_dir_all(&self.staging);
        }
    }
}

/// Writes the server folder through a staging folder of its own.
fn write_folder<'a>(out: &Path, files: impl Iterator<Item = &'a OutputFile>) -> Result<()> {
    let staging = sibling(out, "staging");
    remove_if_present(&staging)?;
    let written = std::fs::create_dir_all(&staging)
        .map_err(|err| Diagnostic::io("create", &staging, err))
        .and_then(|()| {
            files.into_iter().try_for_each(|file| {
                let path = safe_join(&staging, &file.path)?;
                if let Some(folder) = path.parent() {
                    std::fs::create_dir_all(folder)
                        .map_err(|err| Diagnostic::io("create", folder, err))?;
                }
                std::fs::write(&path, &file.contents)
                    .map_err(|err| Diagnostic::io("write", &path, err))
            })
        })
        .and_then(|()| swap_in(&staging, out));
    if written.is_err() {
        // Nothing half-written is left beside the output.
        let _ = std::fs::remove_dir_all(&staging);
    }
    written
}

/// Refuses to replace a folder holding anything curbside did not write: it must
/// be empty, missing, or marked (itself or `server_out`).
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

/// Replaces `out` with `staging`; the old folder is moved aside first and
/// removed last, so `out` is never half-written.
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

    /// What a folder holds, by name, sorted.
    fn names_in(dir: &Path) -> Vec<std::ffi::OsString> {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    }

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
        assert_eq!(names_in(dir.path()), ["dist", "dist-server"]);
    }

    #[test]
    fn a_write_failing_after_earlier_files_were_staged_leaves_the_site_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        write_site(&out, &[OutputFile::text("a.html", "old".into())], &[]).unwrap();
        {
            let mut staged = StagedSite::open(&out).unwrap();
            staged
                .write(&[OutputFile::text("b.html", "new".into())])
                .unwrap();
            assert!(dir.path().join(".dist.staging/b.html").is_file());
            // A file where the next file's folder should be: that write fails.
            let late = OutputFile::text("b.html/c.html", "late".into());
            assert!(staged.write(&[late]).is_err());
        }
        assert_eq!(std::fs::read_to_string(out.join("a.html")).unwrap(), "old");
        assert!(!out.join("b.html").exists());
        assert_eq!(names_in(dir.path()), ["dist", "dist-server"]);
    }

    #[test]
    fn unchanged_files_are_linked_to_the_previous_site_and_changed_ones_written() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        let files = |b: &str| {
            [
                OutputFile::text("a.html", "same".into()),
                OutputFile::text("b.html", b.into()),
            ]
        };
        write_site(&out, &files("one"), &[]).unwrap();
        let inode = |name: &str| std::fs::metadata(out.join(name)).unwrap().ino();
        let (a, b) = (inode("a.html"), inode("b.html"));
        // A file changed behind the build's back is written again too.
        std::fs::write(out.join("a.html"), "edit").unwrap();
        write_site(&out, &files("two"), &[]).unwrap();
        assert_ne!(inode("a.html"), a);
        assert_eq!(std::fs::read_to_string(out.join("a.html")).unwrap(), "same");
        let a = inode("a.html");
        write_site(&out, &files("two"), &[]).unwrap();
        assert_eq!(inode("a.html"), a);
        assert_ne!(inode("b.html"), b);
        assert_eq!(std::fs::read_to_string(out.join("b.html")).unwrap(), "two");
        assert_eq!(std::fs::metadata(out.join("a.html")).unwrap().nlink(), 1);
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
        // Nor a server folder curbside did not write; the site is then left alone.
        std::fs::remove_file(out.join("notes.txt")).unwrap();
        let server = dir.path().join("docs-server");
        std::fs::create_dir_all(&server).unwrap();
        std::fs::write(server.join("site.conf"), "mine").unwrap();
        assert!(write_site(&out, &[OutputFile::text("a.html", "x".into())], &[]).is_err());
        assert!(std::fs::read_dir(&out).unwrap().next().is_none());
        std::fs::remove_file(server.join("site.conf")).unwrap();
        // Empty folders, or curbside's, are fine; the mark is beside the site.
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
