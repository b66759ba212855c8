//! Symbolic links under `content/`: followed while they stay in `content/`,
//! refused when they lead out of it, so a build never reads or publishes a
//! file the owner did not put there. The project around `content/` holds
//! what is never for the web (`.git`, `.env`, `target/`, `node_modules/`),
//! so a link into it is refused too, like `/etc/passwd` or a photo library
//! elsewhere.

use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Location, Result};

/// Refuses `relative` (under `content`, `shown` as messages print it) when
/// it, or a folder on its way, is a link out of `content`. A missing path
/// passes: the caller says so.
pub fn check(content: &Path, shown: &Path, relative: &Path) -> Result<()> {
    let path = content.join(relative);
    let (Ok(real), Ok(root)) = (std::fs::canonicalize(&path), std::fs::canonicalize(content))
    else {
        return Ok(());
    };
    if real.starts_with(&root) {
        return Ok(());
    }
    let link = first_link(content, relative).unwrap_or_else(|| relative.to_path_buf());
    let target = std::fs::canonicalize(content.join(&link)).unwrap_or(real);
    Err(Diagnostic::new(format!(
        "{} is a symbolic link to {}, outside {}",
        shown.join(&link).display(),
        target.display(),
        shown.display()
    ))
    .at(Location::file(shown.join(relative)))
    .help(format!("copy the file into {}/ instead of linking to it: the build reads and publishes only what is inside it, never the project's own files (.git, .env) or others elsewhere", shown.display())))
}

/// Refuses the first link anywhere under `content` (in name order) that
/// leads out of it: whichever part of the build would read through it, a
/// page, a picture, a data file or `public/`.
pub fn check_tree(content: &Path, shown: &Path) -> Result<()> {
    // Links are not followed: each is checked where it stands, and a folder
    // it leads to inside `content` is walked where it really is.
    for entry in walkdir::WalkDir::new(content)
        .sort_by_file_name()
        .into_iter()
        .flatten()
    {
        if entry.path_is_symlink() {
            let relative = entry.path().strip_prefix(content).unwrap_or(entry.path());
            check(content, shown, relative)?;
        }
    }
    Ok(())
}

/// The first link met going down along `relative`.
fn first_link(content: &Path, relative: &Path) -> Option<PathBuf> {
    let mut at = PathBuf::new();
    for part in relative.iter() {
        at.push(part);
        let meta = std::fs::symlink_metadata(content.join(&at)).ok()?;
        if meta.file_type().is_symlink() {
            return Some(at);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn links_inside_content_pass_and_links_out_of_it_are_named() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "x").unwrap();
        let project = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join(".env"), "TOKEN=x").unwrap();
        let content = project.path().join("content");
        std::fs::create_dir_all(content.join("public")).unwrap();
        std::fs::write(content.join("a.txt"), "a").unwrap();
        std::os::unix::fs::symlink(content.join("a.txt"), content.join("public/inside")).unwrap();
        std::os::unix::fs::symlink(outside.path(), content.join("public/away")).unwrap();
        std::os::unix::fs::symlink("../../.env", content.join("public/env.txt")).unwrap();
        let shown = Path::new("content");
        assert!(check(&content, shown, Path::new("public/inside")).is_ok());
        let err = check_tree(&content, shown).unwrap_err().to_string();
        assert!(
            err.contains("content/public/away is a symbolic link"),
            "{err}"
        );
        for (relative, link) in [
            ("public/away/secret", "content/public/away"),
            ("public/env.txt", "content/public/env.txt"),
        ] {
            let err = check(&content, shown, Path::new(relative))
                .unwrap_err()
                .to_string();
            assert!(
                err.contains(&format!("{link} is a symbolic link to"))
                    && err.contains("outside content"),
                "{err}"
            );
        }
    }
}
