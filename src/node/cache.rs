//! What Node made last time, on disk, keyed on the hashes of its inputs: the
//! frontend's sources (all of frontend/ but its packages), each placement's
//! props, the stylesheets. A build whose inputs hash the same never starts
//! Node; timestamps play no part. One slot (the newest) per kind keeps the
//! cache one site's size; slots are written whole (temporary file, then
//! rename), so concurrent builds may replace each other's but never cut them.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize, de::DeserializeOwned};
use sha2::{Digest, Sha256};

use crate::diagnostics::{Diagnostic, Result};
use crate::islands::{Bundle, RenderedIsland};
use crate::output::file::{OutputFile, write_whole};
use crate::text::hex;

pub type Key = String;

const NOT_SOURCES: &[&str] = &["node_modules"];
/// The install lock.
const NOT_SOURCE_FILES: &[&str] = &[".install.lock"];

/// The hash of every source file of `frontend`, path and contents, in path order.
pub fn frontend_key(frontend: &Path) -> Result<Key> {
    let mut hasher = Sha256::new();
    let walk = walkdir::WalkDir::new(frontend)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() != 1
                || !NOT_SOURCES
                    .iter()
                    .chain(NOT_SOURCE_FILES)
                    .any(|name| entry.file_name() == *name)
        });
    for entry in walk {
        let entry = entry.map_err(|err| {
            let at = err.path().unwrap_or(frontend).to_path_buf();
            Diagnostic::new("could not read the frontend's sources")
                .caused_by(format!("{}: {err}", at.display()))
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let path = entry.path();
        let bytes = std::fs::read(path).map_err(|err| Diagnostic::io("read", path, err))?;
        let relative = path.strip_prefix(frontend).unwrap_or(path);
        // Lengths first, so no two trees hash alike.
        let name = relative.to_string_lossy();
        hasher.update((name.len() as u64).to_le_bytes());
        hasher.update(name.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hex(&hasher.finalize()))
}

pub fn key_of(parts: &[&[u8]]) -> Key {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hex(&hasher.finalize())
}

pub struct NodeCache {
    dir: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct Slot<T> {
    key: Key,
    value: T,
}

#[derive(Serialize, Deserialize)]
struct StoredIsland {
    html: String,
    hydrate: String,
}

#[derive(Serialize, Deserialize)]
struct StoredBundle {
    entry: String,
    loader: String,
    files: Vec<(String, String)>,
    island_files: BTreeMap<String, Vec<String>>,
}

impl NodeCache {
    pub fn new(dir: PathBuf) -> NodeCache {
        NodeCache { dir }
    }

    fn get<T: DeserializeOwned>(&self, kind: &str, key: &Key) -> Option<T> {
        let bytes = std::fs::read(self.dir.join(format!("{kind}.json"))).ok()?;
        // Unparsable is a miss.
        let slot: Slot<T> = serde_json::from_slice(&bytes).ok()?;
        (slot.key == *key).then_some(slot.value)
    }

    /// Best effort: an unwritable cache only costs time.
    fn put<T: Serialize>(&self, kind: &str, key: &Key, value: T) {
        let Ok(json) = serde_json::to_vec(&Slot {
            key: key.clone(),
            value,
        }) else {
            return;
        };
        let _ = write_whole(&self.dir.join(format!("{kind}.json")), &json);
    }

    pub fn bundle(&self, key: &Key) -> Option<Bundle> {
        let stored: StoredBundle = self.get("bundle", key)?;
        Some(Bundle {
            entry: stored.entry,
            loader: stored.loader,
            island_files: stored.island_files,
            files: stored
                .files
                .into_iter()
                .map(|(path, contents)| OutputFile::text(path, contents))
                .collect(),
        })
    }

    pub fn put_bundle(&self, key: &Key, bundle: &Bundle) {
        let files: Option<Vec<(String, String)>> = bundle
            .files
            .iter()
            .map(|file| {
                let text = String::from_utf8(file.contents.clone()).ok()?;
                Some((file.path.clone(), text))
            })
            .collect();
        // Node's files are text; anything else is not kept.
        if let Some(files) = files {
            let stored = StoredBundle {
                entry: bundle.entry.clone(),
                loader: bundle.loader.clone(),
                files,
                island_files: bundle.island_files.clone(),
            };
            self.put("bundle", key, stored);
        }
    }

    /// The islands' HTML the frontend `key` rendered, by render key; empty for another frontend.
    pub fn islands(&self, key: &Key) -> HashMap<String, RenderedIsland> {
        let stored: HashMap<String, StoredIsland> = self.get("islands", key).unwrap_or_default();
        stored
            .into_iter()
            .map(|(render_key, StoredIsland { html, hydrate })| {
                (render_key, RenderedIsland { hydrate, html })
            })
            .collect()
    }

    /// Keeps only the islands this build rendered: one site's size.
    pub fn put_islands(&self, key: &Key, rendered: &HashMap<String, RenderedIsland>) {
        let stored: HashMap<&str, StoredIsland> = rendered
            .iter()
            .map(|(render_key, island)| {
                (
                    render_key.as_str(),
                    StoredIsland {
                        html: island.html.clone(),
                        hydrate: island.hydrate.clone(),
                    },
                )
            })
            .collect();
        self.put("islands", key, stored);
    }

    pub fn css(&self, key: &Key) -> Option<Vec<String>> {
        self.get("css", key)
    }

    pub fn put_css(&self, key: &Key, css: &[String]) {
        self.put("css", key, css);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frontend() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::create_dir_all(dir.path().join("node_modules/react")).unwrap();
        std::fs::write(dir.path().join("src/a.tsx"), "one").unwrap();
        std::fs::write(dir.path().join("package-lock.json"), "{}").unwrap();
        std::fs::write(dir.path().join("node_modules/react/index.js"), "x").unwrap();
        dir
    }

    #[test]
    fn the_key_follows_every_source_and_no_package_or_timestamp() {
        let dir = frontend();
        let before = frontend_key(dir.path()).unwrap();
        // Rewritten with the same bytes (a new timestamp), and packages changed.
        std::fs::write(dir.path().join("src/a.tsx"), "one").unwrap();
        std::fs::write(dir.path().join("node_modules/react/index.js"), "y").unwrap();
        std::fs::write(dir.path().join(".install.lock"), "").unwrap();
        assert_eq!(frontend_key(dir.path()).unwrap(), before);
        for (file, text) in [
            ("src/a.tsx", "two"),
            ("package-lock.json", "{\"v\":2}"),
            ("src/b.ts", ""),
        ] {
            let was = frontend_key(dir.path()).unwrap();
            std::fs::write(dir.path().join(file), text).unwrap();
            assert_ne!(frontend_key(dir.path()).unwrap(), was, "{file}");
        }
        // A file moved to another name is another tree.
        let was = frontend_key(dir.path()).unwrap();
        std::fs::rename(dir.path().join("src/b.ts"), dir.path().join("src/c.ts")).unwrap();
        assert_ne!(frontend_key(dir.path()).unwrap(), was);
    }

    #[test]
    fn a_slot_answers_only_its_own_key_and_survives_a_new_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = NodeCache::new(dir.path().join("node"));
        let (one, two) = (key_of(&[b"one"]), key_of(&[b"two"]));
        assert_eq!(cache.css(&one), None);
        cache.put_css(&one, &["a{}".into()]);
        assert_eq!(cache.css(&one), Some(vec!["a{}".to_string()]));
        assert_eq!(cache.css(&two), None);
        let bundle = Bundle {
            entry: "assets/islands-1.js".into(),
            loader: "start()".into(),
            files: vec![OutputFile::text("assets/islands-1.js", "code".into())],
            island_files: BTreeMap::from([(
                "pricing".to_string(),
                vec!["assets/pricing-1.js".to_string()],
            )]),
        };
        cache.put_bundle(&two, &bundle);
        let again = NodeCache::new(dir.path().join("node"))
            .bundle(&two)
            .unwrap();
        assert_eq!(
            (again.entry, again.loader, again.files, again.island_files),
            (
                bundle.entry,
                bundle.loader,
                bundle.files,
                bundle.island_files
            )
        );
        // A cut-off slot is a miss, not an error.
        std::fs::write(dir.path().join("node/islands.json"), "{\"key\":").unwrap();
        assert!(cache.islands(&one).is_empty());
        // key_of keeps parts apart.
        assert_ne!(key_of(&[b"ab", b"c"]), key_of(&[b"a", b"bc"]));
    }
}
