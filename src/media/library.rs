//! The pictures of one build: each read and checked once however many pages
//! place it, remembered so the build publishes exactly those, and their
//! copies made once and kept in the project's cache folder.
//!
//! Two caches make a warm build nearly free: `index.json` remembers each
//! picture file's size and modification time with what reading it found
//! (so an unchanged photo is not even read), and every copy is kept under
//! its own name, which is derived from the photo's bytes and the settings
//! (so a copy is never made twice, and a changed photo or setting gets new
//! names). Both are written whole (temporary file, then rename).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::UNIX_EPOCH;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::encode;
use super::picture::{self, Picture};
use super::variants::{self, Placement, Variant};
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::output::file::OutputFile;

/// What reading a picture found, for a file of this size and time.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Indexed {
    len: u64,
    modified_ns: u128,
    picture: Picture,
}

/// A picture placed at least once, with where it was first placed.
#[derive(Debug, Clone)]
struct Placed {
    picture: Arc<Picture>,
    at: Location,
    /// Placed somewhere as a page's largest paint: published in AVIF too.
    priority: bool,
}

pub struct Library {
    content: PathBuf,
    shown: PathBuf,
    /// `.curbside/images/`, or none (`curbside check` writes nothing).
    cache: Option<PathBuf>,
    index: HashMap<String, Indexed>,
    /// Pictures read (or found in the index) by this build, by name.
    placed: Mutex<BTreeMap<String, Placed>>,
    /// Index entries of pictures read by this build.
    fresh: Mutex<Vec<(String, Indexed)>>,
}

const INDEX: &str = "index.json";

impl Library {
    /// The pictures under `content` (shown as `shown`), with copies kept in
    /// `cache` when given.
    pub fn new(content: &Path, shown: &Path, cache: Option<PathBuf>) -> Library {
        let index = cache
            .as_ref()
            .and_then(|dir| std::fs::read(dir.join(INDEX)).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        Library {
            content: content.to_path_buf(),
            shown: shown.to_path_buf(),
            cache,
            index,
            placed: Mutex::new(BTreeMap::new()),
            fresh: Mutex::new(Vec::new()),
        }
    }

    /// The picture `src` as written in a file whose folder, relative to
    /// `content/`, is `from_dir` (empty for `content/` itself), placed at
    /// `at`: read and checked, or an error that points at `at`.
    pub fn place(&self, from_dir: &str, src: &str, at: &Location) -> Result<Arc<Picture>> {
        let src = src.trim();
        if src.contains("://") || src.starts_with("//") || src.starts_with("data:") {
            return Err(Diagnostic::new(format!("the picture `{src}` is on another website"))
                .at(at.clone())
                .help("save the picture in content/ (beside this file, for example) and give its path: the site loads nothing from other websites, and a picture there may change or vanish"));
        }
        if src.starts_with('/') {
            return Err(Diagnostic::new(format!("the picture path `{src}` starts with /"))
                .at(at.clone())
                .help("write it relative to this file, such as `truck.jpg` for a picture beside it or `../photos/truck.jpg`; files in content/public/ are published as they are, never as pictures the build makes smaller"));
        }
        let Some(name) = picture::resolve(from_dir, src) else {
            return Err(Diagnostic::new(format!("the picture path `{src}` leads outside content/"))
                .at(at.clone())
                .help("keep pictures inside the content/ folder, and write their path relative to this file"));
        };
        if let Some(placed) = self.lock_placed().get(&name) {
            return Ok(Arc::clone(&placed.picture));
        }
        let (path, shown) = picture::paths(&self.content, &self.shown, &name);
        let picture = match self.indexed(&name, &path) {
            Some(picture) => picture,
            None => {
                let (picture, _) = picture::read(&path, &name, &shown, at)?;
                if let Some((len, modified_ns)) = stamp(&path) {
                    self.fresh
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push((
                            name.clone(),
                            Indexed {
                                len,
                                modified_ns,
                                picture: picture.clone(),
                            },
                        ));
                }
                picture
            }
        };
        let picture = Arc::new(picture);
        self.lock_placed().entry(name).or_insert_with(|| Placed {
            picture: Arc::clone(&picture),
            at: at.clone(),
            priority: false,
        });
        Ok(picture)
    }

    /// The markup of a placed picture; a page's largest paint
    /// (`placement.priority`) is published in AVIF too.
    pub fn markup(&self, picture: &Picture, placement: &Placement) -> String {
        if placement.priority {
            self.mark_priority(picture);
        }
        variants::markup(
            picture,
            &variants::plan(picture, placement.priority),
            placement,
        )
    }

    /// The `<link rel="preload">` of a placed picture drawn `sizes` wide: a
    /// page's largest paint, so published in AVIF too.
    pub fn preload(&self, picture: &Picture, sizes: &str) -> String {
        self.mark_priority(picture);
        variants::preload(picture, &variants::plan(picture, true), sizes)
    }

    fn mark_priority(&self, picture: &Picture) {
        if let Some(placed) = self.lock_placed().get_mut(&picture.name) {
            placed.priority = true;
        }
    }

    fn lock_placed(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Placed>> {
        self.placed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// What the index remembers of `name`, if the file is unchanged since.
    fn indexed(&self, name: &str, path: &Path) -> Option<Picture> {
        let indexed = self.index.get(name)?;
        let (len, modified_ns) = stamp(path)?;
        (indexed.len == len && indexed.modified_ns == modified_ns).then(|| indexed.picture.clone())
    }

    /// The published files of every picture placed so far: the cached
    /// copies, and those not made yet made now, on every core. Saves the
    /// index for the next build.
    pub fn publish(&self) -> Result<Vec<OutputFile>> {
        let placed: Vec<Placed> = self.lock_placed().values().cloned().collect();
        let files: Vec<Result<Vec<OutputFile>>> = placed
            .par_iter()
            .map(|placed| self.files_of(placed))
            .collect();
        self.save_index();
        Ok(files
            .into_iter()
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .flatten()
            .collect())
    }

    fn files_of(&self, placed: &Placed) -> Result<Vec<OutputFile>> {
        let picture = &placed.picture;
        let planned = variants::plan(picture, placed.priority);
        let cached: Vec<Option<Vec<u8>>> = planned.iter().map(|v| self.read_cached(v)).collect();
        if cached.iter().all(Option::is_some) {
            return Ok(planned
                .into_iter()
                .zip(cached.into_iter().flatten())
                .map(|(variant, contents)| OutputFile {
                    path: variant.path,
                    contents,
                })
                .collect());
        }
        let (path, shown) = picture::paths(&self.content, &self.shown, &picture.name);
        let fail = |why: String| {
            Diagnostic::new(format!(
                "the picture {} cannot be processed",
                shown.display()
            ))
            .at(placed.at.clone())
            .caused_by(why)
            .help("the file may be damaged: open it in an image editor and save it again")
        };
        let bytes = std::fs::read(&path).map_err(|err| Diagnostic::io("read", &shown, err))?;
        if !picture.kind.processed() {
            let file = OutputFile {
                path: planned[0].path.clone(),
                contents: bytes,
            };
            return Ok(vec![file]);
        }
        let pixels = encode::decode(picture, &bytes).map_err(fail)?;
        let missing: Vec<Variant> = planned
            .iter()
            .zip(&cached)
            .filter(|(_, cached)| cached.is_none())
            .map(|(variant, _)| variant.clone())
            .collect();
        let made = encode::encode(&pixels, &missing).map_err(fail)?;
        let mut made: HashMap<String, Vec<u8>> = missing
            .into_iter()
            .zip(made)
            .map(|(variant, contents)| {
                self.write_cached(&variant, &contents);
                (variant.path, contents)
            })
            .collect();
        Ok(planned
            .into_iter()
            .zip(cached)
            .map(|(variant, cached)| {
                let contents = cached
                    .or_else(|| made.remove(&variant.path))
                    .unwrap_or_default();
                OutputFile {
                    path: variant.path,
                    contents,
                }
            })
            .collect())
    }

    fn cached_path(&self, variant: &Variant) -> Option<PathBuf> {
        let file = variant.path.rsplit('/').next()?;
        Some(self.cache.as_ref()?.join(file))
    }

    fn read_cached(&self, variant: &Variant) -> Option<Vec<u8>> {
        std::fs::read(self.cached_path(variant)?)
            .ok()
            .filter(|bytes| !bytes.is_empty())
    }

    /// Best effort: a copy that cannot be kept is only made again next time.
    fn write_cached(&self, variant: &Variant, contents: &[u8]) {
        if let Some(path) = self.cached_path(variant) {
            write_whole(&path, contents);
        }
    }

    fn save_index(&self) {
        let fresh = std::mem::take(&mut *self.fresh.lock().unwrap_or_else(PoisonError::into_inner));
        let Some(dir) = &self.cache else { return };
        if fresh.is_empty() {
            return;
        }
        let mut index = self.index.clone();
        index.extend(fresh);
        // Only pictures still in content/ are kept.
        index.retain(|name, _| self.content.join(name).is_file());
        if let Ok(json) = serde_json::to_vec(&index) {
            write_whole(&dir.join(INDEX), &json);
        }
    }
}

/// Writes `contents` to `path` through a temporary file renamed into place,
/// so a build stopped halfway never leaves a cut-off file to be read later.
fn write_whole(path: &Path, contents: &[u8]) {
    let Some(dir) = path.parent() else { return };
    let partial = path.with_extension(format!("partial-{}", std::process::id()));
    let _ = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&partial, contents))
        .and_then(|()| std::fs::rename(&partial, path));
    let _ = std::fs::remove_file(&partial);
}

/// A file's size and modification time, in nanoseconds since 1970.
fn stamp(path: &Path) -> Option<(u64, u128)> {
    let metadata = std::fs::metadata(path).ok()?;
    let modified = metadata.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some((metadata.len(), modified.as_nanos()))
}
