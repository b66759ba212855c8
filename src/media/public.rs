//! `content/public/`: files published as they are, under the same names and
//! folders, at the root of the site: a home-screen icon, a search console's
//! verification page, `.well-known/security.txt`, a price sheet as PDF.

use std::path::{Path, PathBuf};

use crate::diagnostics::{self, Diagnostic, Location, Result};
use crate::output::file::OutputFile;

/// The folder under `content/`.
pub const FOLDER: &str = "public";

/// A file to publish as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicFile {
    /// Its address on the site, without the leading `/`: `prices.pdf`,
    /// `.well-known/security.txt`.
    pub path: String,
    pub source: PathBuf,
    /// As messages name it: `content/public/prices.pdf`.
    pub shown: PathBuf,
}

impl PublicFile {
    pub fn read(&self) -> Result<OutputFile> {
        let contents = std::fs::read(&self.source).map_err(|err| {
            Diagnostic::io("read", &self.shown, err).at(Location::file(&self.shown))
        })?;
        Ok(OutputFile {
            path: self.path.clone(),
            contents,
        })
    }
}

/// Lists `content/public/` (`dir`, shown as `shown`), refusing what no hosting
/// would serve as expected. A missing folder is an empty one.
pub fn find(dir: &Path, shown: &Path) -> Result<Vec<PublicFile>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|err| {
            diagnostics::from_walk(
                &err,
                dir,
                shown,
                "replace the symbolic link with the file itself",
            )
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let path = relative.to_string_lossy().replace('\\', "/");
        let file_shown = shown.join(relative);
        check_name(&path, &file_shown)?;
        files.push(PublicFile {
            path,
            source: entry.path().to_path_buf(),
            shown: file_shown,
        });
    }
    Ok(files)
}

/// Refuses names hosting services would hide or that the build writes itself.
fn check_name(path: &str, shown: &Path) -> Result<()> {
    let at = || Location::file(shown);
    let parts: Vec<&str> = path.split('/').collect();
    let dotted = parts.iter().enumerate().any(|(i, part)| {
        part.starts_with('.') && !(i == 0 && *part == ".well-known" && parts.len() > 1)
    });
    if dotted {
        return Err(Diagnostic::new(format!(
            "{} is a dotfile (or in a folder whose name starts with a dot), which is never published",
            shown.display()
        ))
        .at(at())
        .help("hosting services hide such files, and they are often private (.env, .DS_Store, .git): remove it from content/public/, or rename it without the dot; only the folder .well-known/ is published (for security.txt and domain checks)"));
    }
    if parts.first() == Some(&"assets") {
        return Err(Diagnostic::new(format!(
            "{} is in assets/, the folder the build writes its own files into",
            shown.display()
        ))
        .at(at())
        .help("move it to another folder of content/public/, such as files/ or images/"));
    }
    if path.ends_with(".gz") || path.ends_with(".br") {
        return Err(Diagnostic::new(format!(
            "{} ends in .gz or .br, which the nginx and Caddy configurations hide (they are the compressed copies of other files)",
            shown.display()
        ))
        .at(at())
        .help("publish it as a .zip, or under a name without .gz or .br"));
    }
    Ok(())
}

/// Refuses a public file that would take the place of one the build
/// writes: `generated` lists those paths (`index.html`, `about.html`,
/// `sitemap.xml`…); `pages` the pages' addresses without `.html`, which
/// hosting would answer with the public file instead of the page.
pub fn check_collisions(files: &[PublicFile], generated: &[String], pages: &[&str]) -> Result<()> {
    for file in files {
        let clash = generated
            .iter()
            .find(|name| **name == file.path)
            .map(|name| format!("the build's own {name}"))
            .or_else(|| {
                pages
                    .iter()
                    .find(|slug| **slug == file.path)
                    .map(|slug| format!("the page /{slug}"))
            });
        if let Some(clash) = clash {
            return Err(Diagnostic::new(format!(
                "{} would be published at /{}, the address of {clash}",
                file.shown.display(),
                file.path
            ))
            .at(Location::file(&file.shown))
            .help("rename the file; the pages and the files the build writes (index.html, 404.html, sitemap.xml, robots.txt, _headers, _redirects, assets/) keep their addresses"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(path: &str) -> Result<()> {
        check_name(path, &Path::new("content/public").join(path))
    }

    #[test]
    fn well_known_is_the_only_dotted_folder_published() {
        assert!(name(".well-known/security.txt").is_ok());
        assert!(name("apple-touch-icon.png").is_ok());
        assert!(name(".env").is_err());
        assert!(name(".well-known").is_err());
        assert!(name("files/.DS_Store").is_err());
        assert!(name("docs/.well-known/x").is_err());
        assert!(name("assets/logo.png").is_err());
        assert!(name("prices.pdf.gz").is_err());
    }
}
