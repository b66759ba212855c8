//! Symbolic links under `content/`: followed inside the project, refused
//! leading out, so a build never reads or publishes a file the owner did not
//! put there (`/etc/passwd` behind a link, a photo library elsewhere).

use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Location, Result};

/// Refuses `relative` when it, or a folder on its way, is a link out of
/// `project`. A missing path passes: the caller says so.
pub fn check(project: &Path, content: &Path, shown: &Path, relative: &Path) -> Result<()> {
    let path = content.join(relative);
    let (Ok(real), Ok(root)) = (std::fs::canonicalize(&path), std::fs::canonicalize(project))
    else {
        return Ok(());
    };
    if real.starts_with(&root) {
        return Ok(());
    }
    let link = first_link(content, relative).unwrap_or_else(|| relative.to_path_buf());
    let target = std::fs::canonicalize(content.join(&link)).unwrap_or(real);
    Err(Diagnostic::new(format!(
        "{} is a symbolic link to {}, outside the project",
        shown.join(&link).display(),
        target.display()
    ))
    .at(Location::file(shown.join(relative)))
    .help("copy the file into content/ instead of linking to it: the build reads and publishes only what is inside the project"))
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
    fn links_inside_pass_and_links_outside_are_named() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), "x").unwrap();
        let project = tempfile::tempdir().unwrap();
        let content = project.path().join("content");
        std::fs::create_dir_all(content.join("public")).unwrap();
        std::fs::write(content.join("a.txt"), "a").unwrap();
        std::os::unix::fs::symlink(content.join("a.txt"), content.join("public/inside")).unwrap();
        std::os::unix::fs::symlink(outside.path(), content.join("public/away")).unwrap();
        let shown = Path::new("content");
        let inside = Path::new("public/inside");
        assert!(check(project.path(), &content, shown, inside).is_ok());
        let away = Path::new("public/away/secret");
        let err = check(project.path(), &content, shown, away)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("content/public/away is a symbolic link to")
                && err.contains("outside the project"),
            "{err}"
        );
    }
}
