//! Rebuilding on saves: one build per burst, its outcome to the terminal and
//! the open pages.

use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use notify_debouncer_full::DebounceEventResult;

use super::preview::Preview;
use super::watch;
use crate::diagnostics::{Result, warn};
use crate::pipeline::{BuildOptions, Builder, Change, Project};

/// Batches of a burst arrive at most a debounce apart: waiting this long folds
/// them into one build.
const SETTLE: Duration = watch::DEBOUNCE;

pub struct Rebuilder {
    builder: Builder,
    preview: Arc<Preview>,
    /// The warnings printed last: repeated only when they change.
    warned: Option<Vec<String>>,
}

impl Rebuilder {
    pub fn new(project: Project, options: BuildOptions, preview: Arc<Preview>) -> Rebuilder {
        Rebuilder {
            builder: Builder::new(project, options),
            preview,
            warned: None,
        }
    }

    /// Builds and tells the open pages; the terminal hears of success here, of
    /// failure from the caller.
    pub fn build(&mut self, rebuild: Option<Change>) -> Result<()> {
        match self.builder.build(rebuild.unwrap_or(Change::Frontend)) {
            Ok(report) => {
                self.preview.set_security_headers(&report.inline);
                if let Some(site) = self.builder.last_site() {
                    self.preview
                        .set_form_id(site.business.formspree_form_id.as_str());
                }
                if self.warned.as_ref() != Some(&report.warnings) {
                    report.warnings.iter().for_each(|warning| warn(warning));
                    self.warned = Some(report.warnings.clone());
                }
                let ms = report.elapsed.as_millis();
                match rebuild {
                    Some(kind) => eprintln!("rebuilt ({}) in {ms} ms", kind.label()),
                    None => eprintln!("built in {ms} ms"),
                }
                // For tests/bench/rebuild.sh.
                if std::env::var_os("CURBSIDE_TIMINGS").is_some() {
                    eprintln!("{}", report.timings_line());
                }
                self.preview.live().built();
                Ok(())
            }
            Err(diagnostic) => {
                self.preview.live().failed(diagnostic.to_string());
                Err(diagnostic)
            }
        }
    }

    /// Prints a failure and goes on: the next save may fix it.
    pub fn build_or_report(&mut self, rebuild: Option<Change>) {
        if let Err(diagnostic) = self.build(rebuild) {
            eprintln!("{diagnostic}");
            if self.preview.folder().is_dir() {
                eprintln!("Still serving the last good build; saving a fix rebuilds it.");
            }
        }
    }

    pub fn run(mut self, root: &Path, changes: &Receiver<DebounceEventResult>) {
        while let Ok(batch) = changes.recv() {
            let mut needed = wanted(root, batch);
            loop {
                match changes.recv_timeout(SETTLE) {
                    Ok(batch) => needed = needed.max(wanted(root, batch)),
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
            if let Some(rebuild) = needed {
                self.build_or_report(Some(rebuild));
            }
        }
    }
}

fn wanted(root: &Path, batch: DebounceEventResult) -> Option<Change> {
    match batch {
        Ok(events) => events
            .iter()
            .filter(|event| !watch::is_read(event))
            .flat_map(|event| &event.paths)
            .filter_map(|path| watch::classify(path.strip_prefix(root).ok()?))
            .max(),
        Err(errors) => {
            for err in errors {
                warn(&format!("watching for changes: {err}"));
            }
            None
        }
    }
}
