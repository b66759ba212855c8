//! The build, start to finish: load content, bundle and render the islands,
//! render the pages, write `dist/`; the pages a batch at a time, each written
//! as soon as it can be finished. A [`Builder`] keeps the Node process and
//! the last bundle, so the watch mode can redo only what a change touched.

use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::thread::ScopedJoinHandle;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::content::{self, Site};
use crate::diagnostics::{Diagnostic, Result};
use crate::islands::{self, Bundle};
use crate::node::{self, NodeBridge};
use crate::output::host::Host;
use crate::output::{self, StagedSite, compress::Compressor};
use crate::output_file::OutputFile;
use crate::render::headers::InlineSources;
use crate::render::share_card::ShareCards;
use crate::render::{
    self, AssetUrls, BuiltAssets, Layouts, PageRenderer, Placer, RenderInput, props::FormEndpoint,
};
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
    /// What the last build that succeeded read.
    site: Option<Arc<Loaded>>,
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
        self.site.as_deref().map(|loaded| &loaded.site)
    }

    /// Builds the site into the output folder; on any error the folder is left
    /// as it was.
    ///
    /// Pages are rendered a batch at a time and, once Node's work is known,
    /// placed, compressed (for hosts that want copies) and written into the
    /// staging folder at once, so memory holds a batch of pages, not the site.
    /// Until Node is done, rendered pages wait, up to `PENDING_BYTES`.
    pub fn build(&mut self, change: Change) -> Result<BuildReport> {
        let started = Instant::now();
        output::check_output_folder(&self.project.root, &self.options.out)?;
        if change == Change::Restart {
            self.node = None;
            self.node_key = None;
        }
        let frontend = self.project.frontend();
        let Builder {
            project,
            options,
            node,
            node_key,
            bundle: last_bundle,
            node_cache,
            site: last_site,
            minifier,
            compressor,
            share_cards,
        } = self;
        let (send_loaded, loaded_for_node) = mpsc::channel::<Arc<Loaded>>();
        let compressor = &*compressor;
        let node_side = NodeSide {
            node: &mut *node,
            node_key: &mut *node_key,
            last_bundle: &mut *last_bundle,
            node_cache,
            minifier,
            compressor,
            frontend: &frontend,
            endpoint: &options.endpoint,
            precompress: options.precompress,
        };
        let (outcome, node_failed) = std::thread::scope(|scope| {
            // Node starts and bundles (when the cache lacks the bundle) while
            // the content loads, then renders the islands and minifies the
            // styles while the pages render.
            let node_work = scope.spawn(move || node_side.run(&loaded_for_node));
            let mut stream = Stream::new(node_work, &options.out, compressor, options.precompress);
            let outcome = stream_site(project, options, share_cards, &mut stream, send_loaded);
            (outcome, stream.close())
        });
        if node_failed {
            // A failed Node process is not reused: the next build starts afresh.
            *node = None;
            *node_key = None;
            *last_bundle = None;
        }
        let (loaded, report) = outcome?;
        let report = BuildReport {
            elapsed: started.elapsed(),
            warnings: content::warnings(&loaded.site),
            ..report
        };
        *last_site = Some(loaded);
        Ok(report)
    }
}

/// Pages rendered at a time: enough to keep every core busy, few enough
/// that a batch (with its compressed copies) is a small part of a large site.
const BATCH: usize = 64;

/// How much rendered HTML may wait for Node (on a cold build) before the
/// rendering waits too. A site of a thousand pages fits, so Node's start-up
/// still overlaps all of their rendering; a larger one is held at this size.
const PENDING_BYTES: usize = 64 << 20;

/// Loads the content, hands it to Node's side, and renders the pages a batch
/// at a time into `stream`; then writes the rest of the site and swaps it in.
fn stream_site(
    project: &Project,
    options: &BuildOptions,
    share_cards: &mut ShareCards,
    stream: &mut Stream<'_, '_>,
    send_loaded: mpsc::Sender<Arc<Loaded>>,
) -> Result<(Arc<Loaded>, BuildReport)> {
    let loading = Instant::now();
    let loaded = Arc::new(Loaded::load(project)?);
    // A closed channel means Node's side has already failed: it says why
    // when it is joined.
    let _ = send_loaded.send(Arc::clone(&loaded));
    stream.times.load = loading.elapsed();

    let rendering = Instant::now();
    let (share_card, share_file) =
        share_cards.card(&loaded.site, &project.layouts(), Path::new("layouts"))?;
    let assets = AssetUrls::pending(&loaded.styles.favicon);
    let input = RenderInput {
        site: &loaded.site,
        layouts: &loaded.layouts,
        islands: &loaded.island_names,
        assets: &assets,
        copyright_year: copyright_year(),
        dev_script: &options.dev_script,
        share_card: Some(&share_card),
    };
    let pages = PageRenderer::new(&input)?;
    stream.times.render += rendering.elapsed();
    let count = pages.count();
    let mut at = 0;
    while at < count {
        let end = (at + BATCH).min(count);
        let rendering = Instant::now();
        // The first failing page in name order, as a build one page at a
        // time would report: every page before this batch rendered.
        let rendered = pages
            .render_range(at..end)
            .into_iter()
            .collect::<Result<Vec<_>>>()?;
        stream.times.render += rendering.elapsed();
        stream.take(rendered);
        at = end;
    }
    let report = stream.finish(&loaded.site, share_file, options)?;
    Ok((loaded, report))
}

/// Where each phase's time went. Pages go through render, place, compress
/// and write a batch at a time, so those are sums over the batches; node is
/// the time spent waiting for Node's side.
#[derive(Default)]
struct Times {
    load: Duration,
    render: Duration,
    node: Duration,
    place: Duration,
    compress: Duration,
    write: Duration,
}

/// What went wrong after the pages rendered, in the order a build that
/// finished each step for every page before the next would meet it: Node's
/// failure first, then a page's assets (first page in name order), then
/// writing. Render mistakes come before all of them and end the build at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Node,
    Place,
    Write,
}

/// What Node's side made.
struct NodeMade {
    bundle: Bundle,
    rendered: Vec<islands::RenderedIsland>,
    minified: styles::Minified,
    /// The bundle's `.gz` and `.br` copies, when the host wants them.
    bundle_compressed: Option<Vec<OutputFile>>,
}

/// Node's work with what is worked out from it once for every page.
struct Finished {
    made: NodeMade,
    inline: InlineSources,
    nojs: OutputFile,
    entry: String,
    nojs_url: String,
    meta_csp: String,
}

impl Finished {
    fn new(made: NodeMade) -> Finished {
        // The stylesheet is inlined: one round trip less before the first
        // paint. It and the loader script are allowed by their hashes in the
        // Content-Security-Policy.
        let inline = InlineSources::allowing(&[&made.minified.site], &[&made.bundle.loader]);
        let nojs = OutputFile::asset("nojs", "css", made.minified.nojs.clone().into_bytes());
        Finished {
            entry: format!("/{}", made.bundle.entry),
            nojs_url: format!("/{}", nojs.path),
            meta_csp: render::headers::meta_policy(&inline),
            made,
            inline,
            nojs,
        }
    }

    fn built(&self) -> BuiltAssets<'_> {
        BuiltAssets {
            islands: &self.made.rendered,
            islands_entry: &self.entry,
            islands_loader: &self.made.bundle.loader,
            inline_css: &self.made.minified.site,
            nojs_css: &self.nojs_url,
            meta_csp: &self.meta_csp,
        }
    }
}

enum NodeState<'scope> {
    /// Its outcome: `None` when the content never came (it failed to load).
    Working(ScopedJoinHandle<'scope, Result<Option<NodeMade>>>),
    Done(Box<Finished>),
    Failed,
}

/// Rendered pages on their way to the staging folder. Once Node's side is
/// done, each batch is placed, compressed and written as it comes and then
/// dropped; before that, batches wait (up to [`PENDING_BYTES`]).
///
/// After a failure nothing more is written (the staging folder is removed),
/// but pages still render and, while Node's work is there, get their assets,
/// so the mistake reported is the one a build doing each step for every page
/// in turn would report.
struct Stream<'a, 'scope> {
    node: NodeState<'scope>,
    /// Whether Node's side failed: its process is then not reused.
    node_failed: bool,
    out: &'a Path,
    /// Opened at the first write.
    staged: Option<StagedSite>,
    compressor: &'a Compressor,
    precompress: bool,
    failure: Option<(Stage, Diagnostic)>,
    pending: Vec<OutputFile>,
    pending_bytes: usize,
    times: Times,
}

impl<'a, 'scope> Stream<'a, 'scope> {
    fn new(
        node_work: ScopedJoinHandle<'scope, Result<Option<NodeMade>>>,
        out: &'a Path,
        compressor: &'a Compressor,
        precompress: bool,
    ) -> Stream<'a, 'scope> {
        Stream {
            node: NodeState::Working(node_work),
            node_failed: false,
            out,
            staged: None,
            compressor,
            precompress,
            failure: None,
            pending: Vec::new(),
            pending_bytes: 0,
            times: Times::default(),
        }
    }

    /// Takes a batch of rendered pages, in name order.
    fn take(&mut self, pages: Vec<OutputFile>) {
        self.poll_node(false);
        if let NodeState::Working(_) = self.node {
            let bytes: usize = pages.iter().map(|page| page.contents.len()).sum();
            if self.pending_bytes + bytes <= PENDING_BYTES {
                self.pending_bytes += bytes;
                self.pending.extend(pages);
                return;
            }
            self.poll_node(true);
        }
        self.sink(pages);
    }

    /// Collects Node's side when it has ended (or waits for it, with
    /// `wait`), then sends the pages that waited for it on their way.
    fn poll_node(&mut self, wait: bool) {
        let NodeState::Working(handle) = &self.node else {
            return;
        };
        if !wait && !handle.is_finished() {
            return;
        }
        let NodeState::Working(handle) = std::mem::replace(&mut self.node, NodeState::Failed)
        else {
            return;
        };
        let waiting = Instant::now();
        let made = joined(handle);
        self.times.node += waiting.elapsed();
        match made {
            Ok(None) => self.fail(
                Stage::Node,
                Diagnostic::new("the islands were not built: the content never reached them"),
            ),
            Ok(Some(made)) => {
                self.node = NodeState::Done(Box::new(Finished::new(made)));
                // A batch at a time again, so the waiting pages' compressed
                // copies are never all held at once.
                let mut pending = std::mem::take(&mut self.pending).into_iter();
                self.pending_bytes = 0;
                loop {
                    let batch: Vec<OutputFile> = pending.by_ref().take(BATCH).collect();
                    if batch.is_empty() {
                        break;
                    }
                    self.sink(batch);
                }
            }
            Err(err) => {
                self.node_failed = true;
                self.fail(Stage::Node, err);
            }
        }
    }

    /// Places Node's work into `pages`, then compresses and writes them.
    fn sink(&mut self, mut pages: Vec<OutputFile>) {
        let NodeState::Done(finished) = &self.node else {
            return;
        };
        // A page's assets could only report a later page than the failure
        // already found.
        if self
            .failure
            .as_ref()
            .is_some_and(|(stage, _)| *stage <= Stage::Place)
        {
            return;
        }
        let placing = Instant::now();
        let built = finished.built();
        let placed = Placer::new(&built).and_then(|placer| {
            let placed: Vec<Result<()>> = pages
                .par_iter_mut()
                .map(|page| placer.place(page))
                .collect();
            placed.into_iter().collect::<Result<()>>()
        });
        self.times.place += placing.elapsed();
        if let Err(err) = placed {
            self.fail(Stage::Place, err);
            return;
        }
        if self.failure.is_none() {
            self.write(pages, true);
        }
    }

    /// Writes `files` (with their compressed copies, when `compress` and the
    /// host wants them) into the staging folder, opened now if it is not yet.
    fn write(&mut self, mut files: Vec<OutputFile>, compress: bool) {
        if compress && self.precompress {
            let compressing = Instant::now();
            let copies = self.compressor.precompressed(&files);
            files.extend(copies);
            self.times.compress += compressing.elapsed();
        }
        let writing = Instant::now();
        let written = match &mut self.staged {
            Some(staged) => staged.write(&files),
            None => StagedSite::open(self.out).and_then(|staged| {
                let staged = self.staged.insert(staged);
                staged.write(&files)
            }),
        };
        self.times.write += writing.elapsed();
        if let Err(err) = written {
            self.fail(Stage::Write, err);
        }
    }

    /// Keeps the failure a build doing every step for all pages in turn
    /// would report, and stops writing: the staging folder is removed.
    fn fail(&mut self, stage: Stage, err: Diagnostic) {
        self.staged = None;
        self.pending = Vec::new();
        self.pending_bytes = 0;
        if self
            .failure
            .as_ref()
            .is_none_or(|(first, _)| stage < *first)
        {
            self.failure = Some((stage, err));
        }
    }

    /// Once every page is rendered: waits for Node's side, writes the files
    /// that are not pages, and swaps the site in.
    fn finish(
        &mut self,
        site: &Site,
        share_file: OutputFile,
        options: &BuildOptions,
    ) -> Result<BuildReport> {
        self.poll_node(true);
        if let Some((_, err)) = self.failure.take() {
            return Err(err);
        }
        let NodeState::Done(finished) = std::mem::replace(&mut self.node, NodeState::Failed) else {
            return Err(Diagnostic::new(
                "the interactive parts of the site were not built",
            ));
        };
        let Finished {
            made, inline, nojs, ..
        } = *finished;
        let mut files = vec![
            nojs,
            share_file,
            render::sitemap(site),
            render::robots(site),
        ];
        if options.host.headers_file() {
            files.push(OutputFile::text(
                "_headers",
                render::headers::headers_file(&inline),
            ));
        }
        if let Some(rules) = options.host.redirects_file() {
            files.push(OutputFile::text("_redirects", rules.to_string()));
        }
        self.write(files, true);
        let mut bundle_files = made.bundle.files;
        bundle_files.extend(made.bundle_compressed.unwrap_or_default());
        self.write(bundle_files, false);
        if let Some((_, err)) = self.failure.take() {
            return Err(err);
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
        let writing = Instant::now();
        let staged = self
            .staged
            .take()
            .ok_or_else(|| Diagnostic::new("the site was not written"))?;
        let files = staged.files();
        staged.finish(&server)?;
        self.times.write += writing.elapsed();
        let times = &self.times;
        Ok(BuildReport {
            files,
            elapsed: Duration::ZERO,
            warnings: Vec::new(),
            inline,
            phases: vec![
                ("load", times.load),
                ("render", times.render),
                ("node", times.node),
                ("place", times.place),
                ("compress", times.compress),
                ("write", times.write),
            ],
        })
    }
}

impl Stream<'_, '_> {
    /// Collects Node's side if the build stopped before it was needed (a
    /// panic there is then not raised again when the scope ends); returns
    /// whether it failed.
    fn close(&mut self) -> bool {
        if let NodeState::Working(handle) = std::mem::replace(&mut self.node, NodeState::Failed)
            && joined(handle).is_err()
        {
            self.node_failed = true;
        }
        self.node_failed
    }
}

/// Node's side's outcome, a panic there included.
fn joined(handle: ScopedJoinHandle<'_, Result<Option<NodeMade>>>) -> Result<Option<NodeMade>> {
    handle
        .join()
        .unwrap_or_else(|_| Err(Diagnostic::new("bundling the islands stopped unexpectedly")))
}

/// Node's side of a build, on a thread of its own: the bundle (from the
/// last build or the cache when the frontend's sources hash the same), then,
/// once the content is loaded, the islands' HTML and the minified styles,
/// while the bundle's files are compressed.
struct NodeSide<'a> {
    node: &'a mut Option<NodeBridge>,
    node_key: &'a mut Option<node::cache::Key>,
    last_bundle: &'a mut Option<(node::cache::Key, Bundle)>,
    node_cache: &'a node::cache::NodeCache,
    minifier: &'a mut styles::Minifier,
    compressor: &'a Compressor,
    frontend: &'a Path,
    endpoint: &'a FormEndpoint,
    precompress: bool,
}

impl NodeSide<'_> {
    fn run(self, loaded: &mpsc::Receiver<Arc<Loaded>>) -> Result<Option<NodeMade>> {
        let (frontend_key, bundle, by_node) =
            bundle(self.node, self.frontend, self.last_bundle, self.node_cache)?;
        if by_node {
            *self.node_key = Some(frontend_key.clone());
        }
        *self.last_bundle = Some((frontend_key.clone(), bundle.clone()));
        // The content arrives once it has loaded; a build whose content
        // does not load reports that instead.
        let Ok(loaded) = loaded.recv() else {
            return Ok(None);
        };
        let NodeSide {
            node,
            node_key,
            node_cache,
            minifier,
            compressor,
            frontend,
            endpoint,
            precompress,
            ..
        } = self;
        // The bundle's files (the React chunk above all) are compressed
        // while Node renders the islands.
        std::thread::scope(|scope| {
            let compressing =
                scope.spawn(|| precompress.then(|| compressor.precompressed(&bundle.files)));
            let made = islands_and_styles(
                NodeAccess {
                    node,
                    node_key,
                    node_cache,
                    frontend,
                },
                minifier,
                endpoint,
                &frontend_key,
                &loaded,
            );
            let bundle_compressed = compressing.join().unwrap_or_default();
            made.map(|(rendered, minified)| {
                Some(NodeMade {
                    bundle: bundle.clone(),
                    rendered,
                    minified,
                    bundle_compressed,
                })
            })
        })
    }
}

/// The running Node process and what it has loaded.
struct NodeAccess<'a> {
    node: &'a mut Option<NodeBridge>,
    node_key: &'a mut Option<node::cache::Key>,
    node_cache: &'a node::cache::NodeCache,
    frontend: &'a Path,
}

/// The islands' HTML and the minified stylesheets, each from the cache
/// when its inputs hash the same as when it was made; Node is started
/// only for what the cache lacks.
fn islands_and_styles(
    access: NodeAccess<'_>,
    minifier: &mut styles::Minifier,
    endpoint: &FormEndpoint,
    frontend_key: &node::cache::Key,
    loaded: &Loaded,
) -> Result<(Vec<islands::RenderedIsland>, styles::Minified)> {
    let NodeAccess {
        node,
        node_key,
        node_cache,
        frontend,
    } = access;
    let props = loaded
        .island_names
        .iter()
        .map(|name| {
            Ok((
                name.clone(),
                render::props::for_island(name, &loaded.site, endpoint)?,
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    let props_json = serde_json::to_vec(&props)
        .map_err(|err| Diagnostic::new("could not write the islands' props").caused_by(err))?;
    let islands_key = node::cache::key_of(&[frontend_key.as_bytes(), &props_json]);
    let rendered = match node_cache.islands(&islands_key, props.clone()) {
        Some(rendered) => rendered,
        None => {
            // A Node that has not bundled these sources itself renders
            // with a server module made from them, not the one it has.
            let reload = node_key.as_ref() != Some(frontend_key);
            let running = started(node, frontend)?;
            let rendered = running.render(props, reload)?;
            *node_key = Some(frontend_key.clone());
            node_cache.put_islands(&islands_key, &rendered);
            rendered
        }
    };

    let minified = minifier.minify(&loaded.styles, |sheets| {
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
        let css = started(node, frontend)?.minify_css(sheets)?;
        node_cache.put_css(&css_key, &css);
        Ok(css)
    })?;
    Ok((rendered, minified))
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
