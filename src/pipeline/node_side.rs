//! Node's side of a build: the bundle, the islands' HTML and the minified
//! styles, each from the last build or the cache when its inputs hash the same,
//! else from the Node process (kept for the next build).

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, mpsc};
use std::thread::ScopedJoinHandle;

use serde_json::Value;

use super::project::Loaded;
use crate::diagnostics::{Diagnostic, Result};
use crate::islands::props::FormEndpoint;
use crate::islands::{Bundle, RenderedIsland};
use crate::node::{self, NodeBridge};
use crate::output::compress::Compressor;
use crate::output::file::OutputFile;
use crate::render;
use crate::styles;

pub(super) struct NodeMade {
    pub(super) bundle: Bundle,
    /// Each island's HTML as its content places it, rendered beside the pages;
    /// other placements come as pages ask ([`Wanted`]).
    pub(super) rendered: HashMap<String, RenderedIsland>,
    pub(super) minified: styles::Minified,
    pub(super) bundle_compressed: Option<Vec<OutputFile>>,
}

/// A server render a page needs, by its render key.
pub(super) struct Wanted {
    pub(super) key: String,
    pub(super) name: String,
    pub(super) props: Value,
    pub(super) prefix: String,
}

/// Node's side sends what it made once, then renders each list of placements it
/// is sent until that channel closes.
pub(super) struct Channels {
    pub(super) made: mpsc::Sender<Result<Option<NodeMade>>>,
    pub(super) wanted: mpsc::Receiver<Vec<Wanted>>,
    pub(super) rendered: mpsc::Sender<Result<Vec<RenderedIsland>>>,
}

/// Node's side of a build, on its own thread: the bundle, then, once the
/// content is loaded, the islands' HTML and the styles, while the bundle's
/// files are compressed.
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
    /// Returns once the pages stop asking; failures go to them through
    /// `channels`.
    pub(super) fn run(self, loaded: &mpsc::Receiver<Arc<Loaded>>, channels: Channels) {
        let NodeSide {
            node,
            node_key,
            last_bundle,
            node_cache,
            minifier,
            compressor,
            frontend,
            endpoint,
            precompress,
        } = self;
        let bundled = bundle(node, frontend, last_bundle, node_cache);
        let (frontend_key, bundle) = match bundled {
            Ok((key, bundle, by_node)) => {
                if by_node {
                    *node_key = Some(key.clone());
                }
                *last_bundle = Some((key.clone(), bundle.clone()));
                (key, bundle)
            }
            Err(err) => {
                let _ = channels.made.send(Err(err));
                return;
            }
        };
        // A build whose content does not load reports that instead.
        let Ok(loaded) = loaded.recv() else {
            let _ = channels.made.send(Ok(None));
            return;
        };
        let mut islands = IslandRenders {
            access: NodeAccess {
                node,
                node_key,
                frontend,
            },
            cached: node_cache.islands(&frontend_key),
            used: HashMap::new(),
            frontend_key: frontend_key.clone(),
        };
        // The bundle (React's chunk above all) is compressed while Node renders.
        let made = std::thread::scope(|scope| {
            let compressing =
                scope.spawn(|| precompress.then(|| compressor.precompressed(&bundle.files)));
            let made = as_placed_by_content(&mut islands, endpoint, &loaded).and_then(|rendered| {
                let minified = styles(
                    &mut islands.access,
                    minifier,
                    node_cache,
                    &frontend_key,
                    &loaded,
                )?;
                Ok((rendered, minified))
            });
            let bundle_compressed = compressing.join().unwrap_or_default();
            made.map(|(rendered, minified)| NodeMade {
                bundle: bundle.clone(),
                rendered,
                minified,
                bundle_compressed,
            })
        });
        let failed = made.is_err();
        if channels.made.send(made.map(Some)).is_err() || failed {
            return;
        }
        for wanted in channels.wanted {
            let rendered = islands.render(&wanted);
            let failed = rendered.is_err();
            if channels.rendered.send(rendered).is_err() || failed {
                return;
            }
        }
        node_cache.put_islands(&frontend_key, &islands.used);
    }
}

struct NodeAccess<'a> {
    node: &'a mut Option<NodeBridge>,
    node_key: &'a mut Option<node::cache::Key>,
    frontend: &'a Path,
}

/// Islands' HTML, from the cache when this frontend rendered the same
/// placement; Node only for the rest.
struct IslandRenders<'a> {
    access: NodeAccess<'a>,
    frontend_key: node::cache::Key,
    cached: HashMap<String, RenderedIsland>,
    /// What this build placed, cached for the next.
    used: HashMap<String, RenderedIsland>,
}

impl IslandRenders<'_> {
    fn render(&mut self, wanted: &[Wanted]) -> Result<Vec<RenderedIsland>> {
        let missing: Vec<&Wanted> = wanted
            .iter()
            .filter(|w| !self.cached.contains_key(&w.key))
            .collect();
        if !missing.is_empty() {
            let NodeAccess {
                node,
                node_key,
                frontend,
            } = &mut self.access;
            // A Node that did not bundle these sources reloads its server module.
            let reload = node_key.as_ref() != Some(&self.frontend_key);
            let request: Vec<(&str, &Value, &str)> = missing
                .iter()
                .map(|w| (w.name.as_str(), &w.props, w.prefix.as_str()))
                .collect();
            let rendered = started(node, frontend)?.render(&request, reload)?;
            **node_key = Some(self.frontend_key.clone());
            for (w, island) in missing.iter().zip(rendered) {
                self.cached.insert(w.key.clone(), island);
            }
        }
        wanted
            .iter()
            .map(|w| {
                let island = self.cached.get(&w.key).cloned().ok_or_else(|| {
                    Diagnostic::new(format!("the island `{}` was not rendered", w.name))
                })?;
                self.used.insert(w.key.clone(), island.clone());
                Ok(island)
            })
            .collect()
    }
}

/// Each island as its content places it: what most pages hold, rendered beside them.
fn as_placed_by_content(
    islands: &mut IslandRenders<'_>,
    endpoint: &FormEndpoint,
    loaded: &Loaded,
) -> Result<HashMap<String, RenderedIsland>> {
    let wanted = loaded
        .islands
        .iter()
        .map(|island| {
            let name = &island.name;
            let props = island.props(&loaded.site, endpoint)?;
            let prefix = format!("{name}-");
            Ok(Wanted {
                key: render::placements::render_key(name, &props, &prefix)?,
                name: name.clone(),
                props,
                prefix,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let rendered = islands.render(&wanted)?;
    Ok(wanted.into_iter().map(|w| w.key).zip(rendered).collect())
}

/// The minified stylesheets, cached by their hash.
fn styles(
    access: &mut NodeAccess<'_>,
    minifier: &mut styles::Minifier,
    node_cache: &node::cache::NodeCache,
    frontend_key: &node::cache::Key,
    loaded: &Loaded,
) -> Result<styles::Minified> {
    let NodeAccess { node, frontend, .. } = access;
    minifier.minify(&loaded.styles, |sheets| {
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
    })
}

/// The bundle: the last one or the cache's when the sources hash the same, else
/// Node's (started if need be). Returns the sources' key, the bundle, and
/// whether Node made it.
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

fn started<'a>(node: &'a mut Option<NodeBridge>, frontend: &Path) -> Result<&'a mut NodeBridge> {
    if node.is_none() {
        *node = Some(NodeBridge::start(frontend)?);
    }
    node.as_mut().ok_or_else(|| {
        Diagnostic::new("Node.js is not running to build the interactive parts of the site")
    })
}

pub(super) struct ToNode<'scope> {
    pub(super) handle: ScopedJoinHandle<'scope, ()>,
    /// What it made first: `None` when the content failed to load.
    pub(super) made: mpsc::Receiver<Result<Option<NodeMade>>>,
    /// Closed once every page is placed: Node's side then ends.
    pub(super) wanted: mpsc::Sender<Vec<Wanted>>,
    pub(super) rendered: mpsc::Receiver<Result<Vec<RenderedIsland>>>,
}
