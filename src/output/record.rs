//! The build's record of itself, for `curbside verify`: the hosting the site
//! was built for, its address, the headers that hosting is to send and the
//! sample values still in it. Written into the server folder beside the
//! site, so it is never published and always matches the site beside it.

use serde::{Deserialize, Serialize};

use super::file::OutputFile;
use super::headers::{IMMUTABLE, InlineSources, security};
use super::hosting::Hosting;

/// Its name in the server folder (`dist-server/build.json`).
pub const RECORD_FILE: &str = "build.json";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildRecord {
    /// The `--hosting` value, as typed on the command line.
    pub hosting: String,
    /// `url` of content/business.yaml: canonical links and the sitemap name it.
    pub url: String,
    /// Every security header, by name, with the value each answer must carry.
    pub headers: Vec<(String, String)>,
    /// The Cache-Control of hashed assets.
    pub asset_cache_control: String,
    /// The business.yaml values still holding the repository's samples.
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
        // Serialising plain strings and vectors cannot fail.
        let json = serde_json::to_string_pretty(self).unwrap_or_default();
        OutputFile::text(RECORD_FILE, json + "\n")
    }

    /// The hosting, if this curbside knows the name.
    pub fn hosting(&self) -> Option<Hosting> {
        <Hosting as clap::ValueEnum>::from_str(&self.hosting, true).ok()
    }
}

/// The name `--hosting` takes for `hosting` (`github-pages`).
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
