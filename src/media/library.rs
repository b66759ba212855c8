//! The pictures of one build, as rendering places them: each read and checked
//! once, the copies each placement offers recorded for publishing
//! (`publish.rs`), which the copy cache (`copy_cache.rs`) spares remaking.
//! A copy is named after the photo's bytes and settings, so a change gets
//! new names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::avif::AvifEncoder;
use super::copy_cache::CopyCache;
use super::crop::Crop;
use super::limits::MAX_KEPT_BYTES;
use super::markup::{self, Cut, Placement};
use super::picture::{self, Picture};
use super::picture_path;
use super::publish::{Placed, Plan, Publisher};
use super::variants::{self, Frame, Variant};
use crate::diagnostics::{Location, Result};
use crate::output::file::OutputFile;

pub struct Library {
    content: PathBuf,
    shown: PathBuf,
    cache: CopyCache,
    /// Makes the largest paint's AVIF copies; one that publishes nothing needs none.
    avif: Option<Arc<dyn AvifEncoder>>,
    placed: Mutex<BTreeMap<String, Placed>>,
    /// The photos' bytes kept for their copies so far (`MAX_KEPT_BYTES`).
    kept: AtomicU64,
}

impl Library {
    /// Pictures under `content` (`shown` as the owner sees it), their copies
    /// kept in `cache` (`.curbside/images/`) if given.
    pub fn new(content: &Path, shown: &Path, cache: Option<PathBuf>) -> Library {
        Library {
            content: content.to_path_buf(),
            shown: shown.to_path_buf(),
            cache: CopyCache::open(cache),
            avif: None,
            placed: Mutex::new(BTreeMap::new()),
            kept: AtomicU64::new(0),
        }
    }

    /// The picture `src` written in `content/<from_dir>`, placed at `at`: read
    /// and checked, or an error pointing there.
    pub fn place(&self, from_dir: &str, src: &str, at: &Location) -> Result<Arc<Picture>> {
        let name = picture_path::in_content(from_dir, src, at)?;
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
        // Under the lock from here: a picture placed by two pages at once is
        // kept (and counted against the budget) once.
        let mut placed = self.lock_placed();
        if let Some(first) = placed.get(&name) {
            return Ok(Arc::clone(&first.picture));
        }
        let picture = Arc::new(read.picture);
        let file = self.keep(&picture, read.file);
        placed.insert(
            name,
            Placed {
                picture: Arc::clone(&picture),
                at: at.clone(),
                offered: BTreeSet::new(),
                published: read.published.map(Arc::new),
                file,
            },
        );
        Ok(picture)
    }

    /// A photo's bytes, kept from reading to publishing while all kept
    /// stay within `MAX_KEPT_BYTES`: each photo is then read once. A photo
    /// whose copies the cache records (a warm build, a preview's rebuild)
    /// is not kept: it will most likely not be decoded. Otherwise, and past
    /// the budget, publishing reads it again (and refuses one changed
    /// meanwhile).
    fn keep(&self, picture: &Picture, file: Vec<u8>) -> Option<Arc<Vec<u8>>> {
        let plain = variants::plan(picture, false, &Frame::WHOLE);
        let made_before = !plain.is_empty() && plain.iter().all(|copy| self.cache.records(copy));
        if !picture.kind.processed() || made_before {
            return None;
        }
        let size = file.len() as u64;
        let within = |kept: u64| (kept + size <= MAX_KEPT_BYTES).then_some(kept + size);
        let kept = self
            .kept
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, within)
            .is_ok();
        kept.then(|| Arc::new(file))
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

    /// What rendering offered of every placed picture: the plan to publish,
    /// taken once every page has rendered (`PageRenderer::finish`).
    pub(crate) fn plan(&self) -> Plan {
        Plan::new(self.lock_placed().values().cloned().collect())
    }

    /// The files of `plan`: cached copies, the rest made now on every core.
    /// The cache then keeps only these.
    pub fn publish(&self, plan: &Plan) -> Result<Vec<OutputFile>> {
        self.publisher().publish(plan)
    }

    /// Decodes every placed photo not fully cached, so `curbside check` finds a
    /// damaged file as a build would.
    pub fn check_decodes(&self) -> Result<()> {
        self.publisher().check_decodes(&self.plan())
    }

    fn publisher(&self) -> Publisher<'_> {
        Publisher {
            content: &self.content,
            shown: &self.shown,
            cache: &self.cache,
            avif: self.avif.as_deref(),
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;

    fn photo(kind: picture::Kind) -> Picture {
        Picture {
            name: "photos/a.jpg".into(),
            kind,
            width: 1200,
            height: 800,
            alpha: false,
            digest: "0123456789abcdef0123456789abcdef".into(),
            animated: false,
        }
    }

    #[test]
    fn photos_are_kept_for_their_copies_within_the_budget_only() {
        let library = Library::new(Path::new("content"), Path::new("content"), None);
        let jpeg = photo(picture::Kind::Jpeg);
        assert!(library.keep(&jpeg, vec![0; 10]).is_some(), "a photo");
        let gif = photo(picture::Kind::Gif);
        assert!(library.keep(&gif, vec![0; 10]).is_none(), "a GIF");
        library.kept.store(MAX_KEPT_BYTES - 5, Ordering::Relaxed);
        assert!(
            library.keep(&jpeg, vec![0; 10]).is_none(),
            "past the budget"
        );
        assert!(library.keep(&jpeg, vec![0; 5]).is_some(), "up to it");
        assert_eq!(library.kept.load(Ordering::Relaxed), MAX_KEPT_BYTES);
    }
}
