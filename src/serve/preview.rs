//! What the server's threads share: the folder, the builds' state, the security
//! headers, the stand-in's form.

use std::path::{Path, PathBuf};
use std::sync::{PoisonError, RwLock};

use super::live_reload::LiveReload;
use super::submissions::Submissions;
use crate::output::headers::{self, InlineSources};

pub struct Preview {
    folder: PathBuf,
    watching: bool,
    live: LiveReload,
    /// The last good build's.
    form_id: RwLock<Option<String>>,
    /// The last good build's, as `_headers` has them.
    security_headers: RwLock<Vec<(&'static str, String)>>,
    submissions: Submissions,
}

impl Preview {
    /// Submissions to the stand-in go to `submissions` (JSON lines).
    pub fn new(
        folder: impl Into<PathBuf>,
        submissions: impl Into<PathBuf>,
        watching: bool,
    ) -> Preview {
        Preview {
            folder: folder.into(),
            watching,
            live: LiveReload::default(),
            form_id: RwLock::new(None),
            security_headers: RwLock::new(headers::security(&InlineSources::default())),
            submissions: Submissions::new(submissions.into()),
        }
    }

    pub fn folder(&self) -> &Path {
        &self.folder
    }

    pub fn watching(&self) -> bool {
        self.watching
    }

    pub fn live(&self) -> &LiveReload {
        &self.live
    }

    /// The form the pages post to.
    pub fn set_form_id(&self, id: impl Into<String>) {
        *self.form_id.write().unwrap_or_else(PoisonError::into_inner) = Some(id.into());
    }

    pub fn form_id(&self) -> Option<String> {
        self.form_id
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// After each build: the inline hashes change.
    pub fn set_security_headers(&self, inline: &InlineSources) {
        let headers = headers::security(inline);
        *self
            .security_headers
            .write()
            .unwrap_or_else(PoisonError::into_inner) = headers;
    }

    pub fn security_headers(&self) -> Vec<(&'static str, String)> {
        let headers = self.security_headers.read();
        headers.unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// For answers written by hand.
    pub fn security_header_lines(&self) -> String {
        self.security_headers()
            .iter()
            .map(|(name, value)| format!("{name}: {value}\r\n"))
            .collect()
    }

    pub fn submissions(&self) -> &Submissions {
        &self.submissions
    }
}
