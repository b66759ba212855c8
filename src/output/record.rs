//! The build's record for `curbside verify`: hosting, address, the headers to
//! send, sample values left. In the server folder, so never published and
//! always the site's.

use serde::{Deserialize, Serialize};

use super::file::OutputFile;
use super::headers::{IMMUTABLE, InlineSources, security};
use super::hosting::Hosting;

pub const RECORD_FILE: &str = "build.json";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildRecord {
    /// As typed.
    pub hosting: String,
    /// `url` of business.yaml, which canonical links and the sitemap name.
    pub url: String,
    /// Each security header every answer must carry.
    pub headers: Vec<(String, String)>,
    pub asset_cache_control: String,
    /// business.yaml values still holding samples.
    pub samples: Vec<String>,
}

impl BuildRecord {
    pub fn new(
        hosting: Hosting,
        url: &str,
        inline: &InlineSources,
        samples: &[&str],
    ) -> BuildRecord {
        BuildRecord {
            hosting: hosting_name(hosting),
            url: url.to_string(),
            headers: security(inline)
                .into_iter()
                .map(|(name, value)| (name.to_string(), value))
                .collect(),
            asset_cache_control: IMMUTABLE.to_string(),
            samples: samples.iter().map(|name| name.to_string()).collect(),
        }
    }

    pub fn file(&self) -> OutputFile {
        // Cannot fail for strings and vectors.
        let json = serde_json::to_string_pretty(self).unwrap_or_default();
        OutputFile::text(RECORD_FILE, json + "\n")
    }

    /// `None` for a name this curbside does not know.
    pub fn hosting(&self) -> Option<Hosting> {
        <Hosting as clap::ValueEnum>::from_str(&self.hosting, true).ok()
    }
}

/// `github-pages`.
pub fn hosting_name(hosting: Hosting) -> String {
    clap::ValueEnum::to_possible_value(&hosting)
        .map(|value| value.get_name().to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_reads_back_as_written() {
        let inline = InlineSources::allowing(&["p{}"], &["void 0"]);
        let record = BuildRecord::new(Hosting::GithubPages, "https://a.test", &inline, &["url"]);
        let file = record.file();
        let back: BuildRecord = serde_json::from_slice(&file.contents).unwrap();
        assert_eq!(back, record);
        assert_eq!(back.hosting, "github-pages");
        assert_eq!(back.hosting(), Some(Hosting::GithubPages));
        assert!(
            back.headers
                .iter()
                .any(|(name, value)| name == "Content-Security-Policy"
                    && value.contains(&inline.scripts[0]))
        );
    }
}
