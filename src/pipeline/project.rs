//! What a build starts from: the project, its options, and what it reads before rendering.

use std::path::PathBuf;
use std::sync::Arc;

use crate::content::{self, Site};
use crate::diagnostics::Result;
use crate::islands;
use crate::islands::props::FormEndpoint;
use crate::media::{Library, public};
use crate::node::SharpAvif;
use crate::output::hosting::Hosting;
use crate::render::Layouts;
use crate::styles;

/// The folder holding content/, layouts/ and frontend/.
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
    /// Git-ignored local state: caches, the preview, received sign-ups.
    pub fn cache(&self) -> PathBuf {
        self.root.join(".curbside")
    }
}

#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub out: PathBuf,
    pub endpoint: FormEndpoint,
    /// Appended to every page's body (live reload, when previewing).
    pub dev_script: String,
    /// Decides which of `_headers` and `_redirects` are written.
    pub hosting: Hosting,
}

/// What a build (and `curbside check`) reads before rendering.
pub struct Loaded {
    pub site: Site,
    pub layouts: Layouts,
    /// The island files by name, with their registry entries.
    pub islands: Vec<islands::Island>,
    pub styles: styles::Styles,
    /// Read and checked as rendering places them.
    pub pictures: Arc<Library>,
    pub public: Vec<public::PublicFile>,
}

impl Loaded {
    pub fn load(project: &Project) -> Result<Loaded> {
        let shown = |name: &str| PathBuf::from(name);
        let pictures = Arc::new(
            Library::new(
                &project.content(),
                &shown("content"),
                Some(project.cache().join("images")),
            )
            .with_avif_encoder(Arc::new(SharpAvif::new(&project.frontend()))),
        );
        crate::confined::check_tree(&project.content(), &shown("content"))?;
        let site = content::load(&project.content(), &shown("content"), &pictures)?;
        let mut layouts = Layouts::load(&project.layouts(), &shown("layouts"))?;
        layouts.place_pictures_with(Arc::clone(&pictures));
        let public = public::find(
            &project.content().join(public::FOLDER),
            &shown("content").join(public::FOLDER),
        )?;
        let slugs: Vec<&str> = site.pages.iter().map(|page| page.slug.as_str()).collect();
        public::check_collisions(&public, &generated_files(&site), &slugs)?;
        Ok(Loaded {
            site,
            layouts,
            islands: islands::find(
                &project.frontend().join(islands::FOLDER),
                &shown("frontend").join(islands::FOLDER),
            )?,
            styles: styles::read(&project.layouts().join("assets"), &shown("layouts/assets"))?,
            pictures,
            public,
        })
    }
}

/// The files every build writes at the root, which no public file may replace.
fn generated_files(site: &Site) -> Vec<String> {
    let mut names: Vec<String> = [
        "index.html",
        "404.html",
        "sitemap.xml",
        "robots.txt",
        "_headers",
        "_redirects",
    ]
    .iter()
    .map(|name| name.to_string())
    .collect();
    names.extend(site.pages.iter().map(|page| format!("{}.html", page.slug)));
    names
}
