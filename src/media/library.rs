//! The pictures of one build: each read and checked once, published exactly as
//! placed, and its copies made once and cached. A copy is named after the
//! photo's bytes and settings, so a change gets new names; the cache records
//! each copy's digest, remakes a copy that no longer matches, and drops copies
//! no picture uses.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use super::avif::AvifEncoder;
use super::crop::Crop;
use super::encode::{self, Failure};
use super::markup::{self, Cut, Placement};
use super::picture::{self, Picture};
use super::variants::{self, Frame, Variant};
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::output::file::{OutputFile, write_whole};

type Records = BTreeMap<String, String>;

#[derive(Debug, Clone)]
struct Placed {
    picture: Arc<Picture>,
    at: Location,
    /// The sets of copies its placements offer: of which part of it, and
    /// whether in AVIF too (as a page's largest paint).
    offered: BTreeSet<(bool, Frame)>,
    /// A GIF's or an SVG's copy, cleaned as it was checked.
    published: Option<Arc<Vec<u8>>>,
}

impl Placed {
    /// Every copy offered, each once; the whole picture's plain copies for
    /// a picture placed but not yet offered.
    fn planned(&self) -> Vec<Variant> {
        let plain = [(false, Frame::WHOLE)];
        let offered: Vec<&(bool, Frame)> = if self.offered.is_empty() {
            plain.iter().collect()
        } else {
            self.offered.iter().collect()
        };
        let mut seen = BTreeSet::new();
        offered
            .into_iter()
            .flat_map(|(priority, frame)| variants::plan(&self.picture, *priority, frame))
            .filter(|variant| seen.insert(variant.path.clone()))
            .collect()
    }
}

pub struct Library {
    content: PathBuf,
    shown: PathBuf,
    /// `.curbside/images/`, if kept.
    cache: Option<PathBuf>,
    records: Records,
    /// Makes the largest paint's AVIF copies; one that publishes nothing needs none.
    avif: Option<Arc<dyn AvifEncoder>>,
    placed: Mutex<BTreeMap<String, Placed>>,
    fresh: Mutex<Records>,
}

const RECORDS: &str = "records.json";

impl Library {
    pub fn new(content: &Path, shown: &Path, cache: Option<PathBuf>) -> Library {
        let records = cache
            .as_ref()
            .and_then(|dir| std::fs::read(dir.join(RECORDS)).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        Library {
            content: content.to_path_buf(),
            shown: shown.to_path_buf(),
            cache,
            records,
            avif: None,
            placed: Mutex::new(BTreeMap::new()),
            fresh: Mutex::new(Records::new()),
        }
    }

    /// The picture `src` written in `content/<from_dir>`, placed at `at`: read
    /// and checked, or an error pointing there.
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
        let name = picture::on_disk(&self.content, &name).unwrap_or(name);
        if let Some(placed) = self.lock_placed().get(&name) {
            return Ok(Arc::clone(&placed.picture));
        }
        crate::confined::check(&self.content, &self.shown, Path::new(&name))
            .map_err(|err| err.at(at.clone()))?;
        let (path, shown) = picture::paths(&self.content, &self.shown, &name);
        let read = picture::read(&path, &name, &shown, at)?;
        let picture = Arc::new(read.picture);
        self.lock_placed().entry(name).or_insert_with(|| Placed {
            picture: Arc::clone(&picture),
            at: at.clone(),
            offered: BTreeSet::new(),
            published: read.published.map(Arc::new),
        });
        Ok(picture)
    }

    /// The markup of a placed picture, whole or cut to each of the
    /// layout's boxes; a page's largest paint (`placement.priority`) is
    /// published in AVIF too.
    pub fn markup(&self, picture: &Picture, placement: &Placement) -> String {
        if placement.cuts.is_empty() {
            let variants = self.offer(picture, placement.priority, Frame::WHOLE);
            return markup::markup(picture, &variants, placement);
        }
        let cuts: Vec<(Cut, Vec<Variant>)> = placement
            .cuts
            .iter()
            .map(|cut| (*cut, self.offer_cut(picture, placement, cut)))
            .collect();
        markup::cut_markup(picture, &cuts, placement)
    }

    /// The `<link rel="preload">` tags of a page's largest paint, placed as
    /// `placement` says: one for each of its cuts, or one for the whole.
    pub fn preload(&self, picture: &Picture, placement: &Placement) -> String {
        if placement.cuts.is_empty() {
            let variants = self.offer(picture, true, Frame::WHOLE);
            return markup::preload(picture, &variants, placement.sizes, "");
        }
        let rest = markup::other_screens(placement.cuts);
        let priority = Placement {
            priority: true,
            ..placement.clone()
        };
        placement
            .cuts
            .iter()
            .map(|cut| {
                let variants = self.offer_cut(picture, &priority, cut);
                let media = if cut.media.is_empty() {
                    &rest
                } else {
                    cut.media
                };
                markup::preload(picture, &variants, cut.sizes, media)
            })
            .collect()
    }

    /// The copies of `picture` cut to `cut` around the placement's focus.
    fn offer_cut(&self, picture: &Picture, placement: &Placement, cut: &Cut) -> Vec<Variant> {
        let crop = Crop::around(picture.width, picture.height, cut.aspect, placement.focus);
        let frame = Frame {
            crop: (!crop.is_whole(picture.width, picture.height)).then_some(crop),
            widths: cut.widths,
        };
        self.offer(picture, placement.priority, frame)
    }

    /// The copies of a placed picture for `frame`, remembered for publishing.
    fn offer(&self, picture: &Picture, priority: bool, frame: Frame) -> Vec<Variant> {
        if let Some(placed) = self.lock_placed().get_mut(&picture.name) {
            placed.offered.insert((priority, frame));
        }
        variants::plan(picture, priority, &frame)
    }

    fn lock_placed(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Placed>> {
        self.placed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// What makes the AVIF copies of a page's largest paint.
    pub fn with_avif_encoder(mut self, encoder: Arc<dyn AvifEncoder>) -> Library {
        self.avif = Some(encoder);
        self
    }

    /// Every placed picture's files: cached copies, the rest made now on every
    /// core. The cache then keeps only these.
    pub fn publish(&self) -> Result<Vec<OutputFile>> {
        let placed: Vec<Placed> = self.lock_placed().values().cloned().collect();
        let files: Vec<Result<Vec<OutputFile>>> = placed
            .par_iter()
            .map(|placed| self.files_of(placed))
            .collect();
        if files.iter().all(Result::is_ok) {
            let kept: Vec<String> = placed
                .iter()
                .flat_map(Placed::planned)
                .map(|variant| cache_name(&variant).to_string())
                .collect();
            self.prune(&kept);
        }
        Ok(files
            .into_iter()
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .flatten()
            .collect())
    }

    fn files_of(&self, placed: &Placed) -> Result<Vec<OutputFile>> {
        let picture = &placed.picture;
        let planned = placed.planned();
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
        let fail = |why: String| self.damaged(placed, why);
        if let Some(published) = &placed.published {
            // A GIF or an SVG: one file, cleaned when it was read.
            let contents = published.to_vec();
            self.write_cached(&planned[0], &contents);
            let file = OutputFile {
                path: planned[0].path.clone(),
                contents,
            };
            return Ok(vec![file]);
        }
        let bytes = self.read_again(placed)?;
        let pixels = encode::decode(picture, &bytes).map_err(fail)?;
        let missing: Vec<Variant> = planned
            .iter()
            .zip(&cached)
            .filter(|(_, cached)| cached.is_none())
            .map(|(variant, _)| variant.clone())
            .collect();
        let made =
            encode::encode(&pixels, &missing, self.avif.as_deref()).map_err(
                |failure| match failure {
                    Failure::Picture(why) => fail(why),
                    Failure::Encoder(diagnostic) => diagnostic.at(placed.at.clone()),
                },
            )?;
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

    /// A placed picture read again for its copies: its bytes must still be
    /// those they are named after.
    fn read_again(&self, placed: &Placed) -> Result<Vec<u8>> {
        let picture = &placed.picture;
        let (path, shown) = picture::paths(&self.content, &self.shown, &picture.name);
        let bytes = picture::read_at_most(&path, picture::MAX_BYTES)
            .map_err(|err| Diagnostic::io("read", &shown, err).at(placed.at.clone()))?;
        if picture::digest(&bytes) != picture.digest {
            return Err(Diagnostic::new(format!(
                "the picture {} changed while the site was being built",
                shown.display()
            ))
            .at(placed.at.clone())
            .help("build again once it is saved"));
        }
        Ok(bytes)
    }

    /// Decodes every placed photo not fully cached, so `curbside check` finds a
    /// damaged file as a build would.
    pub fn check_decodes(&self) -> Result<()> {
        let placed: Vec<Placed> = self.lock_placed().values().cloned().collect();
        let checked: Vec<Result<()>> = placed
            .par_iter()
            .filter(|placed| placed.picture.kind.processed())
            .filter(|placed| {
                placed
                    .planned()
                    .iter()
                    .any(|variant| self.read_cached(variant).is_none())
            })
            .map(|placed| {
                let bytes = self.read_again(placed)?;
                encode::decode(&placed.picture, &bytes)
                    .map(drop)
                    .map_err(|why| self.damaged(placed, why))
            })
            .collect();
        checked.into_iter().collect()
    }

    /// Placed pictures that publish with less than they have: an animation shown still.
    pub fn warnings(&self) -> Vec<String> {
        self.lock_placed()
            .values()
            .filter(|placed| placed.picture.animated)
            .map(|placed| {
                format!(
                    "{}: {} is an animation; the site shows its first frame, still (save it as a GIF to keep it moving)",
                    placed.at,
                    self.shown.join(&placed.picture.name).display()
                )
            })
            .collect()
    }

    fn damaged(&self, placed: &Placed, why: String) -> Diagnostic {
        let shown = self.shown.join(&placed.picture.name);
        Diagnostic::new(format!(
            "the picture {} cannot be processed",
            shown.display()
        ))
        .at(placed.at.clone())
        .caused_by(why)
        .help("the file may be cut short or damaged: open it in an image editor and save it again")
    }

    fn cached_path(&self, variant: &Variant) -> Option<PathBuf> {
        Some(self.cache.as_ref()?.join(cache_name(variant)))
    }

    fn read_cached(&self, variant: &Variant) -> Option<Vec<u8>> {
        let path = self.cached_path(variant)?;
        let name = path.file_name()?.to_str()?;
        let recorded = self.records.get(name)?;
        let bytes = std::fs::read(&path).ok()?;
        (picture::digest(&bytes) == *recorded).then_some(bytes)
    }

    /// Best effort: an unkept copy is only made again next time.
    fn write_cached(&self, variant: &Variant, contents: &[u8]) {
        let Some(path) = self.cached_path(variant) else {
            return;
        };
        if write_whole(&path, contents).is_ok()
            && let Some(name) = path.file_name().and_then(|name| name.to_str())
        {
            self.fresh
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(name.to_string(), picture::digest(contents));
        }
    }

    /// Keeps the `kept` copies and their records; removes every other file.
    fn prune(&self, kept: &[String]) {
        let Some(dir) = &self.cache else { return };
        let fresh = std::mem::take(&mut *self.fresh.lock().unwrap_or_else(PoisonError::into_inner));
        let mut records = self.records.clone();
        records.extend(fresh);
        records.retain(|name, _| kept.contains(name));
        if records != self.records
            && let Ok(json) = serde_json::to_vec_pretty(&records)
        {
            let _ = write_whole(&dir.join(RECORDS), &json);
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name != RECORDS && !records.contains_key(&name) && entry.path().is_file() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

fn cache_name(variant: &Variant) -> &str {
    variant.path.rsplit('/').next().unwrap_or(&variant.path)
}
