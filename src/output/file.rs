//! A file of the built site, what every stage hands on.

use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::text::hex;

/// By its path relative to the output folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputFile {
    pub path: String,
    pub contents: Vec<u8>,
}

impl OutputFile {
    pub fn text(path: impl Into<String>, contents: String) -> Self {
        OutputFile {
            path: path.into(),
            contents: contents.into_bytes(),
        }
    }

    /// Under assets/, named after its content, so it may be cached forever.
    pub fn asset(stem: &str, extension: &str, contents: Vec<u8>) -> Self {
        OutputFile {
            path: format!("assets/{}", hashed_name(stem, extension, &contents)),
            contents,
        }
    }
}

/// Copied from disk as a stream, never held whole: how `content/public/`
/// publishes videos and archives.
#[derive(Debug, Clone, Copy)]
pub struct CopiedFile<'a> {
    pub path: &'a str,
    pub source: &'a Path,
    pub shown: &'a Path,
}

/// `name-HASH.ext`: a changed file gets a new name, so assets may be cached forever.
pub fn hashed_name(stem: &str, extension: &str, contents: &[u8]) -> String {
    let digest = hex(&Sha256::digest(contents));
    format!("{stem}-{}.{extension}", &digest[..10])
}

/// Writes `contents` to `path` whole or not at all: into a temporary file
/// beside it, renamed over it once written, so a stopped build, or another
/// writing the same file, never leaves a cut-off one.
pub fn write_whole(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| std::io::Error::other("a file path with no folder"))?;
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(contents)?;
    file.persist(path).map_err(|err| err.error)?;
    Ok(())
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
}
