//! Node's side of a build: the islands' bundle, their server-rendered HTML
//! and the minified styles, each from the last build or the cache when its
//! inputs hash the same, otherwise from the Node process (started when first
//! needed and kept for the next build).

use std::path::Path;
use std::sync::{Arc, mpsc};

use super::project::Loaded;
use crate::diagnostics::{Diagnostic, Result};
use crate::islands::{self, Bundle};
use crate::node::{self, NodeBridge};
use crate::output::compress::Compressor;
use crate::output_file::OutputFile;
use crate::render::{self, props::FormEndpoint};
use crate::styles;

/// What Node's side made.
pub(super) struct NodeMade {
    pub(super) bundle: Bundle,
    pub(super) rendered: Vec<islands::RenderedIsland>,
    pub(super) minified: styles::Minified,
    /// The bundle's `.gz` and `.br` copies, when the host wants them.
    pub(super) bundle_compressed: Option<Vec<OutputFile>>,
}

/// Node's side of a build, on a thread of its own: the bundle (from the
/// last build or the cache when the frontend's sources hash the same), then,
/// once the content is loaded, the islands' HTML and the minified styles,
/// while the bundle's files are compressed.
pub(super) struct NodeSide<'a> {
    pub(super) node: &'a mut Option<NodeBridge>,
    pub(super) node_key: &'a mut Option<node::cache::Key>,
    pub(super) last_bundle: &'a mut Option<(node::cache::Key, Bundle)>,
    pub(super) node_cache: &'a node::cache::NodeCache,
    pub(super) minifier: &'a mut styles::Minifier,
    pub(super) compressor: &'a Compressor,
    pub(super) frontend: &'a Path,
    pub(super) endpoint: &'a FormEndpoint,
    pub(super) precompress: bool,
}

impl NodeSide<'_> {
    pub(super) fn run(self, loaded: &mpsc::Receiver<Arc<Loaded>>) -> Result<Option<NodeMade>> {
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
