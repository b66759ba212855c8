//! The pages' way to `dist/`, a batch at a time, so memory holds a batch of
//! pages, not the site; then the other files, and the site swapped in.

use std::path::Path;
use std::sync::{Arc, mpsc};

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::finished::Finished;
use super::node_side::{ToNode, Wanted};
use super::project::{BuildOptions, Loaded, Project};
use super::report::{BuildReport, Times};
use crate::content::{self, Site};
use crate::diagnostics::{Diagnostic, Result};
use crate::output::file::{CopiedFile, OutputFile};
use crate::output::headers;
use crate::output::{StagedSite, compress::Compressor, record::BuildRecord, server_config};
use crate::render::placements::Placements;
use crate::render::share_card::ShareCards;
use crate::render::{self, AssetUrls, PageRenderer, Placer, RenderInput};

/// Pages rendered at a time: every core busy, yet a small part of a large site.
const BATCH: usize = 64;

/// Rendered HTML that may wait for Node on a cold build: a thousand pages fit,
/// so Node's start-up overlaps their rendering.
const PENDING_BYTES: usize = 64 << 20;

/// Renders the pages a batch at a time into `stream`, then writes the rest of
/// the site and swaps it in.
pub(super) fn stream_site(
    project: &Project,
    options: &BuildOptions,
    share_cards: &mut ShareCards,
    stream: &mut Stream<'_, '_>,
    send_loaded: mpsc::Sender<Arc<Loaded>>,
) -> Result<(Arc<Loaded>, BuildReport)> {
    let loading = Instant::now();
    let loaded = Arc::new(Loaded::load(project)?);
    // Closed when Node's side has failed; joining it says why.
    let _ = send_loaded.send(Arc::clone(&loaded));
    stream.times.load = loading.elapsed();

    let rendering = Instant::now();
    let (share_card, share_file) =
        share_cards.card(&loaded.site, &project.layouts(), Path::new("layouts"))?;
    let assets = AssetUrls::pending(&loaded.styles.favicon);
    let input = RenderInput {
        site: &loaded.site,
        layouts: &loaded.layouts,
        islands: &loaded.islands,
        placements: stream.placements,
        endpoint: &options.endpoint,
        assets: &assets,
        copyright_year: copyright_year(),
        dev_script: &options.dev_script,
        share_card: Some(&share_card),
        pictures: &loaded.pictures,
    };
    let pages = PageRenderer::new(&input)?;
    stream.times.render += rendering.elapsed();
    let count = pages.count();
    let mut at = 0;
    while at < count {
        let end = (at + BATCH).min(count);
        let rendering = Instant::now();
        // The first failing page in name order, as a page-at-a-time build would report.
        let rendered = pages
            .render_range(at..end)
            .into_iter()
            .collect::<Result<Vec<_>>>()?;
        stream.times.render += rendering.elapsed();
        stream.take(rendered);
        at = end;
    }
    // Beside Node's work: the pictures' copies and the published files.
    let publishing = Instant::now();
    let plan = pages.finish();
    let mut files = loaded.pictures.publish(&plan)?;
    let mut streamed = Vec::new();
    for file in &loaded.public {
        if file.compressed() {
            files.push(file.read()?);
        } else {
            streamed.push(file.copied());
        }
    }
    stream.times.pictures = publishing.elapsed();
    let report = stream.finish(&loaded.site, share_file, files, &streamed, options)?;
    Ok((loaded, report))
}

/// What failed after the pages rendered, ordered as a step-by-step build would
/// meet it: Node, then a page's assets, then writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Node,
    Place,
    Write,
}

enum NodeState {
    Working,
    Done(Box<Finished>),
    Failed,
}

/// Rendered pages on their way to the staging folder: once Node's side is done,
/// each batch is placed, compressed, written and dropped; before that, batches
/// wait (up to [`PENDING_BYTES`]). After a failure nothing more is written, but
/// pages still render and get their assets, so the mistake reported is the one
/// a step-by-step build would report.
pub(super) struct Stream<'a, 'scope> {
    node: NodeState,
    to_node: Option<ToNode<'scope>>,
    placements: &'a Arc<Placements>,
    /// Whether Node's side failed: its process is then not reused.
    node_failed: bool,
    out: &'a Path,
    staged: Option<StagedSite>,
    compressor: &'a Compressor,
    precompress: bool,
    failure: Option<(Stage, Diagnostic)>,
    pending: Vec<OutputFile>,
    pending_bytes: usize,
    times: Times,
}

impl<'a, 'scope> Stream<'a, 'scope> {
    pub(super) fn new(
        to_node: ToNode<'scope>,
        placements: &'a Arc<Placements>,
        out: &'a Path,
        compressor: &'a Compressor,
        precompress: bool,
    ) -> Stream<'a, 'scope> {
        Stream {
            node: NodeState::Working,
            to_node: Some(to_node),
            placements,
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

    fn take(&mut self, pages: Vec<OutputFile>) {
        self.poll_node(false);
        if let NodeState::Working = self.node {
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

    /// Collects Node's side once it has ended (or waits, with `wait`) and sends
    /// on the pages that waited.
    fn poll_node(&mut self, wait: bool) {
        let NodeState::Working = &self.node else {
            return;
        };
        let Some(to_node) = &self.to_node else {
            return;
        };
        let waiting = Instant::now();
        let made = if wait {
            to_node.made.recv().map_err(|_| ())
        } else {
            match to_node.made.try_recv() {
                Ok(made) => Ok(made),
                Err(mpsc::TryRecvError::Empty) => return,
                Err(mpsc::TryRecvError::Disconnected) => Err(()),
            }
        };
        // Gone without a word: it panicked.
        let made = made.unwrap_or_else(|()| {
            self.close();
            Err(Diagnostic::new("bundling the islands stopped unexpectedly"))
        });
        self.node = NodeState::Failed;
        self.times.node += waiting.elapsed();
        match made {
            Ok(None) => self.fail(
                Stage::Node,
                Diagnostic::new("the islands were not built: the content never reached them"),
            ),
            Ok(Some(made)) => {
                self.node = NodeState::Done(Box::new(Finished::new(made)));
                // A batch at a time, so their compressed copies are never all
                // held at once.
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

    /// The server HTML of placements new in `pages`.
    fn render_islands(&mut self, pages: &[OutputFile]) -> Result<(), (Stage, Diagnostic)> {
        let NodeState::Done(finished) = &mut self.node else {
            return Ok(());
        };
        let wanted = render::islands_to_render(pages, self.placements, &finished.islands)
            .map_err(|err| (Stage::Place, err))?;
        if wanted.is_empty() {
            return Ok(());
        }
        let lost = || {
            (
                Stage::Node,
                Diagnostic::new("rendering the islands stopped unexpectedly"),
            )
        };
        let to_node = self.to_node.as_ref().ok_or_else(lost)?;
        let keys: Vec<String> = wanted.iter().map(|(key, _)| key.clone()).collect();
        let request = wanted
            .into_iter()
            .map(|(key, island)| Wanted {
                key,
                prefix: island.prefix(),
                name: island.placed.name.clone(),
                props: island.placed.props.clone(),
            })
            .collect();
        to_node.wanted.send(request).map_err(|_| lost())?;
        let rendered = to_node
            .rendered
            .recv()
            .map_err(|_| lost())?
            .map_err(|err| (Stage::Node, err))?;
        finished.islands.extend(keys.into_iter().zip(rendered));
        Ok(())
    }

    fn sink(&mut self, mut pages: Vec<OutputFile>) {
        let NodeState::Done(_) = &self.node else {
            return;
        };
        // Only a later page than the failure found.
        if self
            .failure
            .as_ref()
            .is_some_and(|(stage, _)| *stage <= Stage::Place)
        {
            return;
        }
        let placing = Instant::now();
        if let Err((stage, err)) = self.render_islands(&pages) {
            if stage == Stage::Node {
                self.node_failed = true;
            }
            self.times.place += placing.elapsed();
            self.fail(stage, err);
            return;
        }
        let NodeState::Done(finished) = &self.node else {
            return;
        };
        let built = finished.built(self.placements);
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

    /// Writes `files`, compressed when `compress` and the hosting want it.
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

    fn copy(&mut self, files: &[CopiedFile<'_>]) {
        if files.is_empty() || self.failure.is_some() {
            return;
        }
        let writing = Instant::now();
        let copied = match &mut self.staged {
            Some(staged) => staged.copy(files),
            None => Err(Diagnostic::new("the site was not written")),
        };
        self.times.write += writing.elapsed();
        if let Err(err) = copied {
            self.fail(Stage::Write, err);
        }
    }

    /// Keeps the failure a step-by-step build would report; the staging folder is removed.
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

    /// Waits for Node's side, writes the files that are not pages, and swaps
    /// the site in.
    fn finish(
        &mut self,
        site: &Site,
        share_file: OutputFile,
        published: Vec<OutputFile>,
        streamed: &[CopiedFile<'_>],
        options: &BuildOptions,
    ) -> Result<BuildReport> {
        self.poll_node(true);
        // Every page is placed: Node's side may end.
        if let Some(to_node) = &mut self.to_node {
            let (closed, _) = mpsc::channel();
            drop(std::mem::replace(&mut to_node.wanted, closed));
        }
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
        files.extend(published);
        if options.hosting.facts().headers_file {
            files.push(OutputFile::text("_headers", headers::headers_file(&inline)));
        }
        if let Some(rules) = options.hosting.facts().redirects_file {
            files.push(OutputFile::text("_redirects", rules.to_string()));
        }
        self.write(files, true);
        self.copy(streamed);
        let mut bundle_files = made.bundle.files;
        bundle_files.extend(made.bundle_compressed.unwrap_or_default());
        self.write(bundle_files, false);
        if let Some((_, err)) = self.failure.take() {
            return Err(err);
        }
        let server = [
            OutputFile::text(server_config::NGINX_FILE, server_config::nginx(&inline)),
            OutputFile::text(server_config::CADDY_FILE, server_config::caddy(&inline)),
            // What `curbside verify` checks the live site against.
            BuildRecord::new(
                options.hosting,
                site.business.url.as_str(),
                &inline,
                &content::sample_values(site),
            )
            .file(),
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
                ("pictures", times.pictures),
                ("node", times.node),
                ("place", times.place),
                ("compress", times.compress),
                ("write", times.write),
            ],
        })
    }

    /// Collects Node's side if the build stopped early, so its panic is not
    /// raised again at the scope's end; whether it failed.
    pub(super) fn close(&mut self) -> bool {
        if let Some(ToNode {
            handle,
            made,
            wanted,
            rendered,
        }) = self.to_node.take()
        {
            drop((made, wanted, rendered));
            if handle.join().is_err() {
                self.node_failed = true;
            }
        }
        self.node_failed
    }
}

/// The footer's year: now, or SOURCE_DATE_EPOCH's for reproducible builds.
fn copyright_year() -> i32 {
    let at = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .and_then(|secs| time::OffsetDateTime::from_unix_timestamp(secs).ok())
        .unwrap_or_else(time::OffsetDateTime::now_utc);
    at.year()
}
