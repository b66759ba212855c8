//! What a build starts from: the project's folders, the options it is built
//! with, and what it reads from the project before rendering.

use std::path::PathBuf;
use std::sync::Arc;

use crate::content::{self, Site};
use crate::diagnostics::Result;
use crate::islands;
use crate::islands::props::FormEndpoint;
use crate::media::{Library, public};
use crate::output::hosting::Hosting;
use crate::render::Layouts;
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
    /// Write `.gz` and `.br` copies of text files (only for hosting that
    /// sends them: the others would publish them as files of their own).
    pub precompress: bool,
    /// The hosting the site is for: it decides which of the files only
    /// hosting services read (`_headers`, `_redirects`) are written.
    pub hosting: Hosting,
}

/// What a build reads from the project before rendering (`curbside check`
/// reads the same), each shown to the owner by its path in the project.
pub struct Loaded {
    pub site: Site,
    pub layouts: Layouts,
    /// The files of frontend/src/islands/, by name, each with its entry in
    /// the islands registry (checked against each other as they load).
    pub islands: Vec<islands::Island>,
    pub styles: styles::Styles,
    /// The pictures the content and layouts place, read and checked as
    /// rendering meets them.
    pub pictures: Arc<Library>,
    /// The files of content/public/, published as they are.
    pub public: Vec<public::PublicFile>,
}

impl Loaded {
    pub fn load(project: &Project) -> Result<Loaded> {
        let shown = |name: &str| PathBuf::from(name);
        let pictures = Arc::new(Library::new(
            &project.content(),
            &shown("content"),
            Some(project.cache().join("images")),
        ));
        let site = content::load(&project.content(), &shown("content"), &pictures)?;
        let mut layouts = Layouts::load(&project.layouts(), &shown("layouts"))?;
        layouts.place_pictures_with(Arc::clone(&pictures));
        let public = public::find(
            &project.root,
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

/// The files every build writes at the site's root (its pages, the
/// sitemap, `_headers` and `_redirects`), which no file of content/public/ may replace.
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
