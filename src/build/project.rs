//! What a build starts from: the project's folders, the options it is built
//! with, and what it reads from the project before rendering.

use std::path::PathBuf;

use crate::content::{self, Site};
use crate::diagnostics::Result;
use crate::islands;
use crate::output::host::Host;
use crate::render::{Layouts, props::FormEndpoint};
use crate::styles;

/// A curbside project: the folder holding content/, layouts/ and frontend/.
#[derive(Debug, Clone)]
pub struct Project {
    pub root: PathBuf,
}

impl Project {
    pub fn new(root: impl Into<PathBuf>) -> Project {
        Project { root: root.into() }
    }
    pub fn content(&self) -> PathBuf {
        self.root.join("content")
    }
    pub fn layouts(&self) -> PathBuf {
        self.root.join("layouts")
    }
    pub fn frontend(&self) -> PathBuf {
        self.root.join("frontend")
    }
    /// Local state that git ignores: caches, the preview, received sign-ups.
    pub fn cache(&self) -> PathBuf {
        self.root.join(".curbside")
    }
}

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub out: PathBuf,
    pub endpoint: FormEndpoint,
    /// Markup appended to every page's body (the live-reload script when previewing).
    pub dev_script: String,
    /// Write `.gz` and `.br` copies of text files (only for hosts that send
    /// them: the others would publish them as files of their own).
    pub precompress: bool,
    /// The host the site is for: it decides which of the files only hosts
    /// read (`_headers`, `_redirects`) are written.
    pub host: Host,
}

/// What a build reads from the project before rendering (`curbside check`
/// reads the same), each shown to the owner by its path in the project.
pub struct Loaded {
    pub site: Site,
    pub layouts: Layouts,
    /// The files of frontend/src/islands/, by name.
    pub island_names: Vec<String>,
    pub styles: styles::Styles,
}

impl Loaded {
    pub fn load(project: &Project) -> Result<Loaded> {
        let shown = |name: &str| PathBuf::from(name);
        Ok(Loaded {
            site: content::load(&project.content(), &shown("content"))?,
            layouts: Layouts::load(&project.layouts(), &shown("layouts"))?,
            island_names: islands::find(
                &project.frontend().join(islands::FOLDER),
                &shown("frontend").join(islands::FOLDER),
            )?,
            styles: styles::read(&project.layouts().join("assets"), &shown("layouts/assets"))?,
        })
    }
}
