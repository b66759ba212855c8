//! `content/public/`: files published as they are, at the same paths from the
//! site's root (an icon, a verification page, `.well-known/security.txt`, a PDF).

use std::path::{Path, PathBuf};

use crate::diagnostics::{self, Diagnostic, Location, Result};
use crate::output::file::{CopiedFile, OutputFile};

pub const FOLDER: &str = "public";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicFile {
    /// Its address without the leading `/`: `prices.pdf`.
    pub path: String,
    pub source: PathBuf,
    pub shown: PathBuf,
    /// Its size when listed.
    pub len: u64,
}

/// Text files up to this size are read, to be compressed; the rest are
/// streamed, so memory does not grow with the videos and archives published.
const COMPRESSED_UP_TO: u64 = 8 << 20;

impl PublicFile {
    pub fn compressed(&self) -> bool {
        self.len <= COMPRESSED_UP_TO && crate::output::compress::is_text(&self.path)
    }

    pub fn copied(&self) -> CopiedFile<'_> {
        CopiedFile {
            path: &self.path,
            source: &self.source,
            shown: &self.shown,
        }
    }

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

/// Files computers leave on their own (Finder's, Explorer's): never published,
/// no reason to stop.
fn left_by_the_system(name: &str) -> bool {
    name == ".DS_Store"
        || name.starts_with("._")
        || name.eq_ignore_ascii_case("Thumbs.db")
        || name.eq_ignore_ascii_case("ehthumbs.db")
        || name.eq_ignore_ascii_case("desktop.ini")
        || name == "Icon\r"
        || name == "__MACOSX"
}

/// Lists `dir`, refusing what no hosting would serve as expected and links out
/// of `content/` (the folder around `dir`); a missing folder is empty.
pub fn find(dir: &Path, shown: &Path) -> Result<Vec<PublicFile>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let content = dir.parent().unwrap_or(dir);
    let content_shown = shown.parent().unwrap_or(shown);
    let mut files = Vec::new();
    let mut walk = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = walk.next() {
        let entry = entry.map_err(|err| {
            diagnostics::from_walk(
                &err,
                dir,
                shown,
                "replace the symbolic link with the file itself",
            )
        })?;
        if entry.path_is_symlink() || entry.depth() == 0 {
            let relative = entry.path().strip_prefix(content).unwrap_or(entry.path());
            crate::confined::check(content, content_shown, relative)?;
        }
        if left_by_the_system(&entry.file_name().to_string_lossy()) {
            if entry.file_type().is_dir() {
                walk.skip_current_dir();
            }
            continue;
        }
        if entry.file_type().is_dir() {
            continue;
        }
        if !entry.file_type().is_file() {
            return Err(not_a_regular_file(
                &shown.join(entry.path().strip_prefix(dir).unwrap_or(entry.path())),
            ));
        }
        let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let path = relative.to_string_lossy().replace('\\', "/");
        let file_shown = shown.join(relative);
        check_name(&path, &file_shown)?;
        let len = entry
            .metadata()
            .map_err(|err| {
                diagnostics::from_walk(&err, dir, shown, "check the file's permissions")
            })?
            .len();
        files.push(PublicFile {
            path,
            source: entry.path().to_path_buf(),
            shown: file_shown,
            len,
        });
    }
    Ok(files)
}

/// A named pipe, a socket or a device: reading one would wait forever or
/// never end, and no hosting serves it.
pub fn not_a_regular_file(shown: &Path) -> Diagnostic {
    Diagnostic::new(format!(
        "{} is not a regular file (it is a named pipe, a socket or a device)",
        shown.display()
    ))
    .at(Location::file(shown))
    .help("remove it from content/, and save the file you meant in its place")
}

/// Pictures here carrying metadata (EXIF with its GPS, XMP, text chunks) are
/// published as they are: the owner is told how to publish a clean copy.
pub fn warnings(files: &[PublicFile]) -> Vec<String> {
    const MARKS: [&[u8]; 6] = [
        b"Exif\0\0",
        b"http://ns.adobe.com/xap/1.0/",
        b"eXIf",
        b"tEXt",
        b"iTXt",
        b"zTXt",
    ];
    let picture = |path: &str| {
        let lower = path.to_ascii_lowercase();
        [
            ".jpg", ".jpeg", ".png", ".webp", ".gif", ".tif", ".tiff", ".heic",
        ]
        .iter()
        .any(|ext| lower.ends_with(ext))
    };
    files
        .iter()
        .filter(|file| picture(&file.path))
        .filter(|file| {
            // These formats keep their metadata near the start.
            let Ok(mut head) = std::fs::File::open(&file.source) else {
                return false;
            };
            let mut bytes = Vec::new();
            use std::io::Read;
            let _ = (&mut head).take(256 << 10).read_to_end(&mut bytes);
            MARKS
                .iter()
                .any(|mark| bytes.windows(mark.len()).any(|w| w == *mark))
        })
        .map(|file| {
            format!(
                "{} is published as it is, with the camera details, GPS position or notes saved in it; to publish a clean copy, move it out of content/public/ and place it in a page as a picture",
                file.shown.display()
            )
        })
        .collect()
}

/// Refuses names hosting would hide or the build writes.
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

/// Refuses a public file taking the place of one the build writes (`generated`)
/// or of a page (`pages`, without `.html`, which hosting would answer with the file).
pub fn check_collisions(files: &[PublicFile], generated: &[String], pages: &[&str]) -> Result<()> {
    for file in files {
        let clash = generated
            .iter()
            .find(|name| **name == file.path)
            .map(|name| format!("the build's own {name}"))
            .or_else(|| {
                pages
                    .iter()
                    .find(|slug| {
                        file.path == **slug
                            || file.path == format!("{slug}/index.html")
                            || file.path == format!("{slug}/index.htm")
                    })
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
        assert!(name("files/.env").is_err());
        assert!(name("docs/.well-known/x").is_err());
        assert!(name("assets/logo.png").is_err());
        assert!(name("prices.pdf.gz").is_err());
    }
}
