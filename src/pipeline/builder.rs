//! The [`Builder`]: one build after another, keeping the Node process and
//! the last bundle so the watch mode redoes only what a change touched.

use super::project::{BuildOptions, Loaded, Project};
use super::report::BuildReport;
use std::sync::{Arc, mpsc};
use std::time::Instant;

use super::node_side::ToNode;
use super::node_side::{Channels, NodeSide};
use super::stream::{Stream, stream_site};
use crate::content::{self, Site};
use crate::diagnostics::Result;
use crate::islands::Bundle;
use crate::node::{self, NodeBridge};
use crate::output;
use crate::render::share_card::ShareCards;
use crate::styles;

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
    /// placed, compressed (for hosting that wants copies) and written into the
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
        let placements = Arc::new(crate::render::placements::Placements::default());
        let (outcome, node_failed) = std::thread::scope(|scope| {
            // Node starts and bundles (when the cache lacks the bundle) while
            // the content loads, then renders the islands and minifies the
            // styles while the pages render, then the placements pages ask for.
            let (made, made_here) = mpsc::channel();
            let (wanted, wanted_there) = mpsc::channel();
            let (rendered, rendered_here) = mpsc::channel();
            let channels = Channels {
                made,
                wanted: wanted_there,
                rendered,
            };
            let handle = scope.spawn(move || node_side.run(&loaded_for_node, channels));
            let to_node = ToNode {
                handle,
                made: made_here,
                wanted,
                rendered: rendered_here,
            };
            let mut stream = Stream::new(
                to_node,
                &placements,
                &options.out,
                compressor,
                options.precompress,
            );
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
            warnings: [
                content::warnings(&loaded.site),
                loaded.pictures.warnings(),
                crate::media::public::warnings(&loaded.public),
            ]
            .concat(),
            ..report
        };
        *last_site = Some(loaded);
        Ok(report)
    }
}
