//! Node's work, and what placing pages needs of it, worked out once.

use std::collections::HashMap;

use super::node_side::NodeMade;
use crate::islands::RenderedIsland;
use crate::output::file::OutputFile;
use crate::output::headers::{self, InlineSources};
use crate::render::BuiltAssets;
use crate::render::placements::Placements;

pub(super) struct Finished {
    pub(super) made: NodeMade,
    /// Known so far, by render key.
    pub(super) islands: HashMap<String, RenderedIsland>,
    pub(super) inline: InlineSources,
    pub(super) nojs: OutputFile,
    pub(super) entry: String,
    /// As placements name them, one space apart.
    pub(super) island_files: HashMap<String, String>,
    pub(super) nojs_url: String,
    pub(super) meta_csp: String,
}

impl Finished {
    pub(super) fn new(mut made: NodeMade) -> Finished {
        // Inlined: one round trip less before the first paint; allowed, like
        // the loader, by its hash.
        let inline = InlineSources::allowing(&[&made.minified.site], &[&made.bundle.loader]);
        let nojs = OutputFile::asset("nojs", "css", made.minified.nojs.clone().into_bytes());
        Finished {
            islands: std::mem::take(&mut made.rendered),
            entry: format!("/{}", made.bundle.entry),
            island_files: made
                .bundle
                .island_files
                .iter()
                .map(|(name, files)| {
                    let paths: Vec<String> = files.iter().map(|file| format!("/{file}")).collect();
                    (name.clone(), paths.join(" "))
                })
                .collect(),
            nojs_url: format!("/{}", nojs.path),
            meta_csp: headers::meta_policy(&inline),
            made,
            inline,
            nojs,
        }
    }

    pub(super) fn built<'a>(&'a self, placements: &'a Placements) -> BuiltAssets<'a> {
        BuiltAssets {
            islands: &self.islands,
            placements,
            islands_entry: &self.entry,
            islands_loader: &self.made.bundle.loader,
            island_files: &self.island_files,
            inline_css: &self.made.minified.site,
            nojs_css: &self.nojs_url,
            meta_csp: &self.meta_csp,
        }
    }
}
