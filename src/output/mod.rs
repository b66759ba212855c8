//! Writing `dist/`: every file goes into a staging folder beside it, which
//! replaces the old folder only once the whole site is written. A failed
//! build therefore leaves the previous `dist/` exactly as it was.

pub mod compress;
pub mod minify;

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::diagnostics::{Diagnostic, Result};
use crate::render::OutputFile;

/// Lowercase hexadecimal of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `name-HASH.ext`: the hash of `contents`, so a changed file gets a new name
/// and hosts may cache every asset forever.
pub fn hashed_name(stem: &str, extension: &str, contents: &[u8]) -> String {
    let digest = hex(&Sha256::digest(contents));
    format!("{stem}-{}.{extension}", &digest[..10])
}

/// Writes `files` into a fresh staging folder beside `out`, then swaps it in.
pub fn write_site(out: &Path, files: &[OutputFile]) -> Result<()> {
    let staging = sibling(out, "staging");
    remove_if_present(&staging)?;
    for file in files {
        let path = safe_join(&staging, &file.path)?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|err| Diagnostic::io("create", parent, err))?;
        }
        std::fs::write(&path, &file.contents).map_err(|err| Diagnostic::io("write", &path, err))?;
    }
    swap_in(&staging, out)
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
    fn hashed_names_follow_content() {
        let a = hashed_name("site", "css", b"a");
        assert!(a.starts_with("site-") && a.ends_with(".css") && a.len() == "site-".len() + 10 + 4);
        assert_ne!(a, hashed_name("site", "css", b"b"));
    }

    #[test]
    fn the_site_is_swapped_in_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        write_site(&out, &[OutputFile::text("a.html", "one".into())]).unwrap();
        write_site(&out, &[OutputFile::text("b/c.html", "two".into())]).unwrap();
        assert!(!out.join("a.html").exists());
        assert_eq!(
            std::fs::read_to_string(out.join("b/c.html")).unwrap(),
            "two"
        );
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, ["dist"]);
    }

    #[test]
    fn paths_outside_the_output_are_refused() {
        for bad in ["../x", "/etc/x", "a/../../x", "a\\..\\x", ""] {
            assert!(safe_join(Path::new("/out"), bad).is_err(), "{bad}");
        }
    }
}
