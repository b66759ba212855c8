//! The [`Builder`]: builds in turn, keeping Node and the last bundle so watch
//! mode redoes only what a change touched.

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

/// What changed, from least to most work; the watcher keeps the largest of a burst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Change {
    /// Content, layouts or styles: pages are rendered again.
    Pages,
    /// Frontend sources: bundled again too.
    Frontend,
    /// Packages or the island server: Node restarts (after `npm ci` if the lock file changed).
    Restart,
}

impl Change {
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
    /// The sources the running Node last bundled or rendered from.
    node_key: Option<node::cache::Key>,
    bundle: Option<(node::cache::Key, Bundle)>,
    node_cache: node::cache::NodeCache,
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

    /// The last successful build's content (the form stand-in reads its form id).
    pub fn last_site(&self) -> Option<&Site> {
        self.site.as_deref().map(|loaded| &loaded.site)
    }

    /// Builds the site into the output folder, a batch of pages at a time (see
    /// `stream`); on any error the folder is left as it was.
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
            precompress: options.hosting.facts().precompressed,
        };
        let placements = Arc::new(crate::render::placements::Placements::default());
        let (outcome, node_failed) = std::thread::scope(|scope| {
            // Node bundles while the content loads, renders the islands and
            // minifies the styles while the pages render, then renders what
            // pages ask for.
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
                options.hosting.facts().precompressed,
            );
            let outcome = stream_site(project, options, share_cards, &mut stream, send_loaded);
            (outcome, stream.close())
        });
        if node_failed {
            // A failed Node is not reused.
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
