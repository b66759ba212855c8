//! Publishing the pictures: from the plan rendering left (each placed
//! picture and the copies its placements offered), the files of the site,
//! cached copies as they are and the rest made now on every core; then the
//! cache keeps only these.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use super::avif::AvifEncoder;
use super::copy_cache::CopyCache;
use super::encode;
use super::limits::MAX_BYTES;
use super::picture::{self, Picture};
use super::refused::Refused;
use super::variants::{self, Frame, Variant};
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::output::file::OutputFile;

/// A picture placed in the site, and what its placements offered.
#[derive(Debug, Clone)]
pub(super) struct Placed {
    pub(super) picture: Arc<Picture>,
    pub(super) at: Location,
    /// The sets of copies its placements offer: of which part of it, and
    /// whether in AVIF too (as a page's largest paint).
    pub(super) offered: BTreeSet<(bool, Frame)>,
    /// A GIF's or an SVG's copy, cleaned as it was checked.
    pub(super) published: Option<Arc<Vec<u8>>>,
    /// A photo's bytes as they were read and checked, kept for its copies
    /// while the build's budget for them lasts (`MAX_KEPT_BYTES`).
    pub(super) file: Option<Arc<Vec<u8>>>,
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

/// Every placed picture and the copies its placements offered: what
/// rendering produced, taken once the pages are rendered, and all that
/// publishing reads.
pub struct Plan {
    placed: Vec<Placed>,
}

impl Plan {
    pub(super) fn new(placed: Vec<Placed>) -> Plan {
        Plan { placed }
    }
}

/// What publishing reads and writes beside the plan.
pub(super) struct Publisher<'a> {
    pub(super) content: &'a Path,
    pub(super) shown: &'a Path,
    pub(super) cache: &'a CopyCache,
    pub(super) avif: Option<&'a dyn AvifEncoder>,
}

impl Publisher<'_> {
    /// Every placed picture's files: cached copies, the rest made now on every
    /// core. The cache then keeps only these.
    pub fn publish(&self, plan: &Plan) -> Result<Vec<OutputFile>> {
        let placed = &plan.placed;
        let files: Vec<Result<Vec<OutputFile>>> = placed
            .par_iter()
            .map(|placed| self.files_of(placed))
            .collect();
        if files.iter().all(Result::is_ok) {
            let kept: Vec<Variant> = placed.iter().flat_map(Placed::planned).collect();
            self.cache.keep_only(&kept);
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
        let cached: Vec<Option<Vec<u8>>> = planned.iter().map(|v| self.cache.read(v)).collect();
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
        let fail = |refused: Refused| self.refused(placed, refused);
        if let Some(published) = &placed.published {
            // A GIF or an SVG: its one file, cleaned when it was read.
            return Ok(planned
                .iter()
                .take(1)
                .map(|variant| {
                    self.cache.write(variant, published);
                    OutputFile {
                        path: variant.path.clone(),
                        contents: published.to_vec(),
                    }
                })
                .collect());
        }
        let bytes = self.bytes_of(placed)?;
        let pixels = encode::decode(picture, &bytes).map_err(fail)?;
        let missing: Vec<Variant> = planned
            .iter()
            .zip(&cached)
            .filter(|(_, cached)| cached.is_none())
            .map(|(variant, _)| variant.clone())
            .collect();
        let made = encode::encode(&pixels, &missing, self.avif).map_err(fail)?;
        let mut made: HashMap<String, Vec<u8>> = missing
            .into_iter()
            .zip(made)
            .map(|(variant, contents)| {
                self.cache.write(&variant, &contents);
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

    /// A placed photo's bytes, for its copies: as they were read, or read
    /// again when the build kept too many others'.
    fn bytes_of(&self, placed: &Placed) -> Result<Arc<Vec<u8>>> {
        match &placed.file {
            Some(file) => Ok(Arc::clone(file)),
            None => self.read_again(placed).map(Arc::new),
        }
    }

    /// A placed picture read again for its copies: its bytes must still be
    /// those they are named after.
    fn read_again(&self, placed: &Placed) -> Result<Vec<u8>> {
        let picture = &placed.picture;
        let (path, shown) = picture::paths(self.content, self.shown, &picture.name);
        let bytes = picture::read_at_most(&path, MAX_BYTES)
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
    pub fn check_decodes(&self, plan: &Plan) -> Result<()> {
        let placed = &plan.placed;
        let checked: Vec<Result<()>> = placed
            .par_iter()
            .filter(|placed| placed.picture.kind.processed())
            .filter(|placed| {
                placed
                    .planned()
                    .iter()
                    .any(|variant| self.cache.read(variant).is_none())
            })
            .map(|placed| {
                let bytes = self.bytes_of(placed)?;
                encode::decode(&placed.picture, &bytes)
                    .map(drop)
                    .map_err(|refused| self.refused(placed, refused))
            })
            .collect();
        checked.into_iter().collect()
    }

    fn refused(&self, placed: &Placed, refused: Refused) -> Diagnostic {
        refused.diagnostic(&self.shown.join(&placed.picture.name), &placed.at)
    }
}
