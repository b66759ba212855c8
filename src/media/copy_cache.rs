//! The published copies kept between builds (`.curbside/images/`): each
//! recorded with its digest, so a copy that no longer matches is made again,
//! and every file no picture uses any more is removed.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use super::picture;
use super::variants::Variant;
use crate::output::file::write_whole;

type Records = BTreeMap<String, String>;

const RECORDS: &str = "records.json";

pub struct CopyCache {
    /// `None`: nothing kept (a check, a test).
    dir: Option<PathBuf>,
    records: Records,
    /// Written in this build.
    fresh: Mutex<Records>,
}

impl CopyCache {
    pub fn open(dir: Option<PathBuf>) -> CopyCache {
        let records = dir
            .as_ref()
            .and_then(|dir| std::fs::read(dir.join(RECORDS)).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        CopyCache {
            dir,
            records,
            fresh: Mutex::new(Records::new()),
        }
    }

    /// The copy as kept, if its bytes are still those recorded.
    pub fn read(&self, variant: &Variant) -> Option<Vec<u8>> {
        let path = self.path(variant)?;
        let recorded = self.records.get(file_name(variant))?;
        let bytes = std::fs::read(&path).ok()?;
        (picture::digest(&bytes) == *recorded).then_some(bytes)
    }

    /// Whether a copy is recorded, without reading it: a hint that the
    /// picture's copies were made before, not a promise that they are whole.
    pub fn records(&self, variant: &Variant) -> bool {
        self.records.contains_key(file_name(variant))
    }

    /// Best effort: a copy not kept is only made again next time.
    pub fn write(&self, variant: &Variant, contents: &[u8]) {
        let Some(path) = self.path(variant) else {
            return;
        };
        if write_whole(&path, contents).is_ok() {
            self.fresh
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(file_name(variant).to_string(), picture::digest(contents));
        }
    }

    /// Keeps the copies of `kept` and their records; removes every other file.
    pub fn keep_only(&self, kept: &[Variant]) {
        let Some(dir) = &self.dir else { return };
        let kept: Vec<&str> = kept.iter().map(file_name).collect();
        let fresh = std::mem::take(&mut *self.fresh.lock().unwrap_or_else(PoisonError::into_inner));
        let mut records = self.records.clone();
        records.extend(fresh);
        records.retain(|name, _| kept.contains(&name.as_str()));
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

    fn path(&self, variant: &Variant) -> Option<PathBuf> {
        Some(self.dir.as_ref()?.join(file_name(variant)))
    }
}

/// A copy's file name, which the cache keeps it under.
fn file_name(variant: &Variant) -> &str {
    variant.path.rsplit('/').next().unwrap_or(&variant.path)
}
