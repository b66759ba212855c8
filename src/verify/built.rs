//! What the last build wrote, as the live site must serve it: each file by its
//! address, and the build's record from the server folder.

use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Result};
use crate::output::hosting::Hosting;
use crate::output::record::{BuildRecord, RECORD_FILE};
use crate::output::server_folder;

#[derive(Debug, Clone)]
pub struct Published {
    pub file: String,
    pub address: String,
    pub size: u64,
}

impl Published {
    pub fn is_page(&self) -> bool {
        self.file.ends_with(".html")
    }

    /// Under assets/, named after its content (`site-0123456789.css`,
    /// `islands-7GIBGFFZ.js`): the only kind cached for good.
    pub fn is_hashed_asset(&self) -> bool {
        self.file.starts_with("assets/")
    }
}

/// What a Cache-Control value says of how long a copy lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheTerms {
    pub max_age: Option<u64>,
    pub immutable: bool,
}

impl CacheTerms {
    pub fn of(value: &str) -> CacheTerms {
        let lower = value.to_ascii_lowercase();
        let max_age = lower.split(',').find_map(|part| {
            part.trim()
                .strip_prefix("max-age=")
                .and_then(|age| age.trim().parse::<u64>().ok())
        });
        CacheTerms {
            max_age,
            immutable: lower.contains("immutable"),
        }
    }
}

pub struct Built {
    pub out: PathBuf,
    pub record: BuildRecord,
    pub hosting: Hosting,
    /// Pages first; not the 404 page.
    pub files: Vec<Published>,
    /// What unknown addresses answer with.
    pub not_found: Vec<u8>,
    /// The caching the build asks for its hashed assets, read once.
    pub asset_cache: CacheTerms,
}

impl Built {
    pub fn read(out: &Path) -> Result<Built> {
        let server = server_folder(out);
        let record_path = server.join(RECORD_FILE);
        let text = std::fs::read_to_string(&record_path).map_err(|err| {
            Diagnostic::new(format!(
                "there is no build to verify against: {} is missing",
                record_path.display()
            ))
            .caused_by(err)
            .help(format!(
                "build the site first (curbside build --hosting HOSTING --out {}), then verify the deployment of that build",
                out.display()
            ))
        })?;
        let record: BuildRecord = serde_json::from_str(&text).map_err(|err| {
            Diagnostic::new(format!("could not read {}", record_path.display()))
                .caused_by(err)
                .help("build the site again with this curbside")
        })?;
        let hosting = record.hosting().ok_or_else(|| {
            Diagnostic::new(format!(
                "{} names a hosting this curbside does not know, \"{}\"",
                record_path.display(),
                record.hosting
            ))
            .help("build the site again with this curbside")
        })?;
        let not_found_path = out.join("404.html");
        let not_found = std::fs::read(&not_found_path)
            .map_err(|err| Diagnostic::io("read", &not_found_path, err))?;
        let mut files = published(out, hosting)?;
        files.sort_by_key(|file| (!file.is_page(), file.address.clone()));
        Ok(Built {
            out: out.to_path_buf(),
            asset_cache: CacheTerms::of(&record.asset_cache_control),
            record,
            hosting,
            files,
            not_found,
        })
    }

    pub fn bytes(&self, file: &Published) -> Result<Vec<u8>> {
        let path = self.out.join(&file.file);
        std::fs::read(&path).map_err(|err| Diagnostic::io("read", &path, err))
    }

    pub fn pages(&self) -> impl Iterator<Item = &Published> {
        self.files.iter().filter(|file| file.is_page())
    }
}

/// The files served at their own address: not the precompressed copies,
/// `_headers`, `_redirects`, or dotfiles outside `.well-known/`.
fn published(out: &Path, hosting: Hosting) -> Result<Vec<Published>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(out).min_depth(1) {
        let entry = entry.map_err(|err| {
            crate::diagnostics::from_walk(&err, out, out, "publish only files in the site folder")
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(out) else {
            continue;
        };
        let file = relative.to_string_lossy().replace('\\', "/");
        let hidden_dot = file
            .split('/')
            .any(|part| part.starts_with('.') && part != ".well-known");
        let copy =
            hosting.facts().precompressed && (file.ends_with(".br") || file.ends_with(".gz"));
        if hidden_dot || copy || file == "_headers" || file == "_redirects" || file == "404.html" {
            continue;
        }
        let size = entry.metadata().map(|meta| meta.len()).unwrap_or(0);
        files.push(Published {
            address: address_of(&file),
            file,
            size,
        });
    }
    Ok(files)
}

/// Pages without `.html`, the home page at `/`.
pub fn address_of(file: &str) -> String {
    let encoded: String = percent_encoding::utf8_percent_encode(file, PATH).to_string();
    match encoded.strip_suffix(".html") {
        Some("index") => "/".to_string(),
        Some(page) => format!("/{page}"),
        None => format!("/{encoded}"),
    }
}

const PATH: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}');

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(address_of("index.html"), "/");
        assert_eq!(address_of("privacypolicy.html"), "/privacypolicy");
        assert_eq!(address_of("assets/a b.js"), "/assets/a%20b.js");
    }
}
