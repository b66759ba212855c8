//! The build, start to finish: load content, bundle and render the islands,
//! render the pages, write `dist/`. A [`Builder`] keeps the Node process and
//! the last bundle, so the watch mode can redo only what a change touched.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::content::{self, Site};
use crate::diagnostics::{Diagnostic, Result};
use crate::islands::{self, Bundle};
use crate::node::{self, NodeBridge};
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
    /// Where the time went, phase by phase, in order.
    pub phases: Vec<(&'static str, Duration)>,
}

impl BuildReport {
    /// `timings: load=3.1 render=8.0 … (ms)`, one line for benchmarks to read.
    pub fn timings_line(&self) -> String {
        let mut line = String::from("timings:");
        for (name, took) in &self.phases {
            line.push_str(&format!(" {name}={:.1}", took.as_secs_f64() * 1000.0));
        }
        line
    }
}

/// Times the phases of one build.
struct Phases {
    last: Instant,
    done: Vec<(&'static str, Duration)>,
}

impl Phases {
    fn start() -> Phases {
        Phases {
            last: Instant::now(),
            done: Vec::new(),
        }
    }

    /// Ends the phase `name`, which began where the previous one ended.
    fn end(&mut self, name: &'static str) {
        let now = Instant::now();
        self.done.push((name, now - self.last));
        self.last = now;
    }
}

pub struct Builder {
    project: Project,
    options: BuildOptions,
    node: Option<NodeBridge>,
    /// The frontend sources (by key) the running Node last bundled or
    /// rendered islands from.
    node_key: Option<node::cache::Key>,
    /// The last bundle, with the key of the sources it was made from.
    bundle: Option<(node::cache::Key, Bundle)>,
    node_cache: node::cache::NodeCache,
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
        let node_cache = node::cache::NodeCache::new(project.cache().join("node"));
        let project_cache = project.cache();
        Builder {
            project,
            options,
            node: None,
            node_key: None,
            bundle: None,
            node_cache,
            site: None,
            minifier: styles::Minifier::default(),
            compressor,
            share_cards: ShareCards::with_disk_cache(project_cache.join("share-card")),
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
        let mut phases = Phases::start();
        output::check_output_folder(&self.project.root, &self.options.out)?;
        if change == Change::Restart {
            self.node = None;
            self.node_key = None;
        }
        // Node starts and bundles (when the cache lacks the bundle) while the
        // pages are rendered; a content or layout mistake is still the one
        // reported when both fail.
        let frontend = self.project.frontend();
        let mut node = self.node.take();
        let (node_cache, last_bundle) = (&self.node_cache, &self.bundle);
        let (pages, bundled) = std::thread::scope(|scope| {
            let bundling = scope.spawn(|| bundle(&mut node, &frontend, last_bundle, node_cache));
            let pages = Self::pages(
                &self.project,
                &self.options,
                &mut self.share_cards,
                &mut phases,
            );
            let bundled = bundling.join().unwrap_or_else(|_| {
                Err(Diagnostic::new("bundling the islands stopped unexpectedly"))
            });
            (pages, bundled)
        });
        self.node = node;
        let (
            Loaded {
                site,
                island_names,
                styles,
                ..
            },
            mut pages,
            share_file,
        ) = pages?;
        let result = bundled.and_then(|bundled| {
            let (frontend_key, bundle, by_node) = bundled;
            if by_node {
                self.node_key = Some(frontend_key.clone());
            }
            self.bundle = Some((frontend_key.clone(), bundle.clone()));
            // The bundle's files (the React chunk above all) are compressed
            // while Node renders the islands.
            let compressor = self.compressor.clone();
            let precompress = self.options.precompress;
            std::thread::scope(|scope| {
                let compressing =
                    scope.spawn(|| precompress.then(|| compressor.precompressed(&bundle.files)));
                let made = self.islands_and_styles(&frontend_key, &site, &island_names, &styles);
                let compressed = compressing.join().unwrap_or_default();
                made.map(|(rendered, minified)| (bundle.clone(), rendered, minified, compressed))
            })
        });
        if result.is_err() {
            // A failed Node process is not reused: the next build starts afresh.
            self.node = None;
            self.node_key = None;
            self.bundle = None;
        }
        let (bundle, rendered, minified, bundle_compressed) = result?;
        phases.end("node");
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
        phases.end("place");
        if self.options.precompress {
            let compressed = self.compressor.precompressed(&files);
            files.extend(compressed);
        }
        files.extend(bundle.files);
        files.extend(bundle_compressed.unwrap_or_default());
        phases.end("compress");
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
        phases.end("write");
        let report = BuildReport {
            files: files.len(),
            elapsed: started.elapsed(),
            warnings: content::warnings(&site),
            inline,
            phases: phases.done,
        };
        self.site = Some(site);
        Ok(report)
    }

    /// Content, layouts and styles loaded, the share card drawn (when its
    /// inputs changed) and the pages rendered, with markers where Node's
    /// work goes.
    fn pages(
        project: &Project,
        options: &BuildOptions,
        share_cards: &mut ShareCards,
        phases: &mut Phases,
    ) -> Result<RenderedPages> {
        let sources = Loaded::load(project)?;
        phases.end("load");
        let (share_card, share_file) =
            share_cards.card(&sources.site, &project.layouts(), Path::new("layouts"))?;
        let assets = AssetUrls::pending(&sources.styles.favicon);
        let input = RenderInput {
            site: &sources.site,
            layouts: &sources.layouts,
            islands: &sources.island_names,
            assets: &assets,
            copyright_year: copyright_year(),
            dev_script: &options.dev_script,
            share_card: Some(&share_card),
        };
        let pages = render::pages(&input)?;
        phases.end("render");
        Ok((sources, pages, share_file))
    }

    /// The islands' HTML and the minified stylesheets, each from the cache
    /// when its inputs hash the same as when it was made; Node is started
    /// only for what the cache lacks.
    fn islands_and_styles(
        &mut self,
        frontend_key: &node::cache::Key,
        site: &Site,
        names: &[String],
        styles: &styles::Styles,
    ) -> Result<(Vec<islands::RenderedIsland>, styles::Minified)> {
        let frontend = self.project.frontend();
        let props = names
            .iter()
            .map(|name| {
                Ok((
                    name.clone(),
                    render::props::for_island(name, site, &self.options.endpoint)?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        let props_json = serde_json::to_vec(&props)
            .map_err(|err| Diagnostic::new("could not write the islands' props").caused_by(err))?;
        let islands_key = node::cache::key_of(&[frontend_key.as_bytes(), &props_json]);
        let rendered = match self.node_cache.islands(&islands_key, props.clone()) {
            Some(rendered) => rendered,
            None => {
                // A Node that has not bundled these sources itself renders
                // with a server module made from them, not the one it has.
                let reload = self.node_key.as_ref() != Some(frontend_key);
                let node = started(&mut self.node, &frontend)?;
                let rendered = node.render(props, reload)?;
                self.node_key = Some(frontend_key.clone());
                self.node_cache.put_islands(&islands_key, &rendered);
                rendered
            }
        };

        let (node, node_cache) = (&mut self.node, &self.node_cache);
        let minified = self.minifier.minify(styles, |sheets| {
            let mut parts: Vec<&[u8]> = vec![frontend_key.as_bytes()];
            for sheet in sheets {
                parts.push(sheet.css.as_bytes());
            }
            let css_key = node::cache::key_of(&parts);
            if let Some(css) = node_cache
                .css(&css_key)
                .filter(|css| css.len() == sheets.len())
            {
                return Ok(css);
            }
            let css = started(node, &frontend)?.minify_css(sheets)?;
            node_cache.put_css(&css_key, &css);
            Ok(css)
        })?;
        Ok((rendered, minified))
    }
}

/// The islands bundled from the frontend's sources: the last bundle or the
/// cache's when the sources hash the same, otherwise Node's (started now if
/// it is not running). Returns the sources' key, the bundle, and whether Node
/// made it.
fn bundle(
    node: &mut Option<NodeBridge>,
    frontend: &Path,
    last: &Option<(node::cache::Key, Bundle)>,
    cache: &node::cache::NodeCache,
) -> Result<(node::cache::Key, Bundle, bool)> {
    let key = node::cache::frontend_key(frontend)?;
    if let Some((last_key, bundle)) = last
        && *last_key == key
    {
        return Ok((key, bundle.clone(), false));
    }
    if let Some(bundle) = cache.bundle(&key) {
        return Ok((key, bundle, false));
    }
    let bundle = started(node, frontend)?.bundle()?;
    cache.put_bundle(&key, &bundle);
    Ok((key, bundle, true))
}

/// The running Node process, started now if there is none.
fn started<'a>(node: &'a mut Option<NodeBridge>, frontend: &Path) -> Result<&'a mut NodeBridge> {
    if node.is_none() {
        *node = Some(NodeBridge::start(frontend)?);
    }
    node.as_mut().ok_or_else(|| {
        Diagnostic::new("Node.js is not running to build the interactive parts of the site")
    })
}

/// What [`Builder::pages`] makes: what it read, the pages and the share
/// card's file.
type RenderedPages = (Loaded, Vec<OutputFile>, OutputFile);

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

/// This process's peak resident memory in KiB, where the system tells it
/// (Linux: VmHWM in /proc/self/status).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
