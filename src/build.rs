//! The build, start to finish: load content, bundle and render the islands,
//! render the pages, write `dist/`. A [`Builder`] keeps the Node process and
//! the last bundle, so the watch mode can redo only what a change touched.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::content::{self, Site};
use crate::diagnostics::{Diagnostic, Result};
use crate::islands::{self, Bundle};
use crate::node::NodeBridge;
use crate::output;
use crate::output::host::Host;
use crate::output_file::OutputFile;
use crate::render::headers::InlineSources;
use crate::render::share_card::ShareCards;
use crate::render::{self, AssetUrls, BuiltAssets, Layouts, RenderInput, props::FormEndpoint};
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

/// What changed since the last build, from least to most work; the watcher
/// keeps the largest of a burst of saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// Content, layouts or styles: pages are rendered again; the bundle is kept.
    Pages,
    /// Frontend sources: the islands are bundled again too.
    Frontend,
    /// The frontend's packages or the island server itself: Node is started
    /// again (its packages installed first if the lock file changed).
    Restart,
}

impl Change {
    /// How the terminal names it: `rebuilt (pages) in 12 ms`.
    pub fn label(self) -> &'static str {
        match self {
            Change::Pages => "pages",
            Change::Frontend => "frontend",
            Change::Restart => "frontend packages",
        }
    }
}

#[derive(Debug, Clone)]
pub struct BuildReport {
    pub files: usize,
    pub elapsed: Duration,
    /// What the owner should fix before publishing, though the site builds:
    /// printed by `build` and by the preview alike.
    pub warnings: Vec<String>,
    /// CSP sources of the inline stylesheet and script, for the security headers.
    pub inline: InlineSources,
}

pub struct Builder {
    project: Project,
    options: BuildOptions,
    node: Option<NodeBridge>,
    bundle: Option<Bundle>,
    /// The content of the last build that succeeded.
    site: Option<Site>,
    minifier: styles::Minifier,
    compressor: output::compress::Compressor,
    share_cards: ShareCards,
}

impl Builder {
    pub fn new(project: Project, options: BuildOptions) -> Builder {
        let compressor =
            output::compress::Compressor::with_disk_cache(project.cache().join("precompressed"));
        Builder {
            project,
            options,
            node: None,
            bundle: None,
            site: None,
            minifier: styles::Minifier::default(),
            compressor,
            share_cards: ShareCards::default(),
        }
    }

    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// The content the last successful build was made from (the preview
    /// server's form stand-in reads the form id from it).
    pub fn last_site(&self) -> Option<&Site> {
        self.site.as_ref()
    }

    /// Builds the site into the output folder; on any error the folder is left
    /// as it was.
    pub fn build(&mut self, change: Change) -> Result<BuildReport> {
        let started = Instant::now();
        output::check_output_folder(&self.project.root, &self.options.out)?;
        let shown = |name: &str| PathBuf::from(name);
        let site = content::load(&self.project.content(), &shown("content"))?;
        let layouts = Layouts::load(&self.project.layouts(), &shown("layouts"))?;
        let island_names = islands::find(
            &self.project.frontend().join(islands::FOLDER),
            &shown("frontend").join(islands::FOLDER),
        )?;
        let styles = styles::read(
            &self.project.layouts().join("assets"),
            &shown("layouts/assets"),
        )?;
        // Pages first, with markers where Node's work goes: every content and
        // layout mistake is then reported before Node is started.
        let (share_card, share_file) =
            self.share_cards
                .card(&site, &self.project.layouts(), &shown("layouts"))?;
        let assets = AssetUrls::pending(&styles.favicon);
        let input = RenderInput {
            site: &site,
            layouts: &layouts,
            islands: &island_names,
            assets: &assets,
            copyright_year: copyright_year(),
            dev_script: &self.options.dev_script,
            share_card: Some(&share_card),
        };
        let mut pages = render::pages(&input)?;

        if change == Change::Restart {
            self.node = None;
        }
        if self.node.is_none() {
            self.node = Some(NodeBridge::start(&self.project.frontend())?);
            self.bundle = None;
        }
        let result = self
            .islands(change, &site, &island_names)
            .and_then(|islands| {
                let node = self.node.as_mut().ok_or_else(|| {
                    Diagnostic::new("Node.js is not running to minify the stylesheets")
                })?;
                Ok((islands, self.minifier.minify(node, &styles)?))
            });
        if result.is_err() {
            // A failed Node process is not reused: the next build starts afresh.
            self.node = None;
            self.bundle = None;
        }
        let ((bundle, rendered), minified) = result?;
        // The stylesheet is inlined: one round trip less before the first
        // paint. It and the loader script are allowed by their hashes in the
        // Content-Security-Policy.
        let inline = InlineSources::allowing(&[&minified.site], &[&bundle.loader]);
        let nojs = OutputFile::asset("nojs", "css", minified.nojs.into_bytes());
        render::place_assets(
            &mut pages,
            &BuiltAssets {
                islands: &rendered,
                islands_entry: &format!("/{}", bundle.entry),
                islands_loader: &bundle.loader,
                inline_css: &minified.site,
                nojs_css: &format!("/{}", nojs.path),
                meta_csp: &render::headers::meta_policy(&inline),
            },
        )?;
        let mut files = vec![nojs, share_file];
        files.extend(bundle.files.iter().cloned());
        files.extend(pages);
        files.push(render::sitemap(&site));
        files.push(render::robots(&site));
        if self.options.host.headers_file() {
            files.push(OutputFile::text(
                "_headers",
                render::headers::headers_file(&inline),
            ));
        }
        if let Some(rules) = self.options.host.redirects_file() {
            files.push(OutputFile::text("_redirects", rules.to_string()));
        }
        if self.options.precompress {
            let compressed = self.compressor.precompressed(&files);
            files.extend(compressed);
        }
        let server = [
            OutputFile::text(
                render::server_config::NGINX_FILE,
                render::server_config::nginx(&inline),
            ),
            OutputFile::text(
                render::server_config::CADDY_FILE,
                render::server_config::caddy(&inline),
            ),
        ];
        output::write_site(&self.options.out, &files, &server)?;
        let report = BuildReport {
            files: files.len(),
            elapsed: started.elapsed(),
            warnings: content::warnings(&site),
            inline,
        };
        self.site = Some(site);
        Ok(report)
    }

    fn islands(
        &mut self,
        change: Change,
        site: &Site,
        names: &[String],
    ) -> Result<(Bundle, Vec<islands::RenderedIsland>)> {
        let node = self.node.as_mut().ok_or_else(|| {
            Diagnostic::new("Node.js is not running to build the interactive parts of the site")
        })?;
        let bundle = match (&self.bundle, change) {
            (Some(bundle), Change::Pages) => bundle.clone(),
            _ => node.bundle()?,
        };
        let props = names
            .iter()
            .map(|name| {
                Ok((
                    name.clone(),
                    render::props::for_island(name, site, &self.options.endpoint)?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        let rendered = node.render(props)?;
        self.bundle = Some(bundle.clone());
        Ok((bundle, rendered))
    }
}

/// The year in the footer's copyright line: now, or SOURCE_DATE_EPOCH's for
/// reproducible builds.
fn copyright_year() -> i32 {
    let at = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .and_then(|secs| time::OffsetDateTime::from_unix_timestamp(secs).ok())
        .unwrap_or_else(time::OffsetDateTime::now_utc);
    at.year()
}
