//! What the server's threads share: the folder served, the state of the
//! builds, and the form the stand-in answers for.

use std::path::{Path, PathBuf};
use std::sync::{PoisonError, RwLock};

use super::live_reload::LiveReload;
use super::submissions::Submissions;

pub struct Preview {
    folder: PathBuf,
    watching: bool,
    live: LiveReload,
    /// The form id of the last good build's content.
    form_id: RwLock<Option<String>>,
    submissions: Submissions,
}

impl Preview {
    /// Serves `folder`; submissions to the form stand-in are appended to
    /// `submissions` (a JSON-lines file).
    pub fn new(
        folder: impl Into<PathBuf>,
        submissions: impl Into<PathBuf>,
        watching: bool,
    ) -> Preview {
        Preview {
            folder: folder.into(),
            watching,
            live: LiveReload::new(),
            form_id: RwLock::new(None),
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

    /// The form the stand-in accepts posts for: the one the pages post to.
    pub fn set_form_id(&self, id: impl Into<String>) {
        *self.form_id.write().unwrap_or_else(PoisonError::into_inner) = Some(id.into());
    }

    pub fn form_id(&self) -> Option<String> {
        self.form_id
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    pub fn submissions(&self) -> &Submissions {
        &self.submissions
    }
}
