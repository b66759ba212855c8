//! Node's work put into rendered pages.

use std::collections::{HashMap, HashSet, VecDeque};

use scraper::{Html, Selector};

use super::assets::{BuiltAssets, INLINE_CSS, ISLANDS_ENTRY, ISLANDS_LOADER, META_CSP, NOJS_CSS};
use super::json;
use super::layout_checks::check_inline_elements;
use super::markers::{self, marker};
use super::placements::{OnPage, Placements};
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::islands::RenderedIsland;
use crate::output::file::OutputFile;
use crate::text::escape_markup;

/// Puts the islands' server HTML, the scripts and the minified stylesheets into
/// rendered pages, after minifying, so nothing hydration needs is lost. The
/// Content-Security-Policy allows each inline stylesheet and script by the hash
/// of its exact text, so each must be its element's whole text.
pub struct Placer<'a> {
    built: &'a BuiltAssets<'a>,
    values: HashMap<&'a str, &'a str>,
}

impl<'a> Placer<'a> {
    pub fn new(built: &'a BuiltAssets<'a>) -> Result<Placer<'a>> {
        let lowered = built.islands_loader.to_ascii_lowercase();
        if lowered.contains("</script") || lowered.contains("<!--") {
            return Err(Diagnostic::new(
                "the inline script frontend/src/entries/loader.ts cannot be inlined: its text contains `</script` or `<!--`",
            )
            .help("write the text differently, for example split the string in two"));
        }
        let values = HashMap::from([
            (ISLANDS_ENTRY, built.islands_entry),
            (ISLANDS_LOADER, built.islands_loader),
            (INLINE_CSS, built.inline_css),
            (NOJS_CSS, built.nojs_css),
            (META_CSP, built.meta_csp),
        ]);
        Ok(Placer { built, values })
    }

    /// Fills one page's markers (a file that is not text is left as it is). A
    /// page with no island gets no loader.
    pub fn place(&self, page: &mut OutputFile) -> Result<()> {
        let Ok(html) = std::str::from_utf8(&page.contents) else {
            return Ok(());
        };
        let islands = self.built.placements.in_page(html);
        check_inline_elements(html, &page.path, !islands.is_empty())?;
        let without_scripts;
        let html = if islands.is_empty() {
            without_scripts = markers::remove_element(html, &marker(ISLANDS_LOADER), "script");
            &without_scripts
        } else {
            html
        };
        let mut markup: HashMap<&str, VecDeque<String>> = HashMap::new();
        let mut ids: HashMap<String, &str> = HashMap::new();
        for island in &islands {
            let rendered = self
                .built
                .islands
                .get(&island.render_key()?)
                .ok_or_else(|| {
                    Diagnostic::new(format!(
                        "the island `{}` of {} was not rendered",
                        island.placed.name, page.path
                    ))
                })?;
            for id in element_ids(&rendered.html) {
                if let Some(first) = ids.insert(id.clone(), &island.placed.name) {
                    return Err(fixed_id_twice(&page.path, first, &island.placed.name, &id));
                }
            }
            let island_files = self
                .built
                .island_files
                .get(&island.placed.name)
                .map_or("", String::as_str);
            markup
                .entry(island.marker.as_str())
                .or_default()
                .push_back(island_markup(island, rendered, island_files)?);
        }
        page.contents =
            markers::replace_with(html, &page.path, |name| match markup.get_mut(name) {
                Some(queue) => queue.pop_front(),
                None => self.values.get(name).map(|value| value.to_string()),
            })?
            .into_bytes();
        Ok(())
    }
}

fn element_ids(html: &str) -> Vec<String> {
    let Ok(with_id) = Selector::parse("[id]") else {
        return Vec::new();
    };
    Html::parse_fragment(html)
        .select(&with_id)
        .filter_map(|element| element.value().id().map(str::to_string))
        .collect()
}

/// Two placements on one page whose markup holds the same fixed id: React's ids
/// follow the placement, the island's own cannot.
fn fixed_id_twice(page: &str, first: &str, second: &str, id: &str) -> Diagnostic {
    let what = if first == second {
        format!("the island `{first}` is placed twice")
    } else {
        format!("the islands `{first}` and `{second}` are both placed")
    };
    Diagnostic::new(format!(
        "in {page}, {what}, and both hold an element with the id `{id}`: ids must be unique on a page"
    ))
    .at(Location::file("layouts"))
    .help(format!(
        "place `{second}` once on this page (its file gives that element a fixed id), or give the element an id from React's useId() in frontend/src/islands/{second}.tsx"
    ))
}

/// The server renders the pages need that `known` lacks, by render key.
pub fn islands_to_render(
    pages: &[OutputFile],
    placements: &Placements,
    known: &HashMap<String, RenderedIsland>,
) -> Result<Vec<(String, OnPage)>> {
    let mut wanted: Vec<(String, OnPage)> = Vec::new();
    let mut seen = HashSet::new();
    for page in pages {
        let Ok(html) = std::str::from_utf8(&page.contents) else {
            continue;
        };
        for island in placements.in_page(html) {
            let key = island.render_key()?;
            if !known.contains_key(&key) && seen.insert(key.clone()) {
                wanted.push((key, island));
            }
        }
    }
    Ok(wanted)
}

/// An island's server HTML in the element the runtime hydrates (naming the
/// placement's id and the island's files), then its props.
fn island_markup(island: &OnPage, rendered: &RenderedIsland, files: &str) -> Result<String> {
    let name = &island.placed.name;
    let hydrate = hydrate_strategy(island, rendered);
    Ok(format!(
        "<div class=\"island island--{name}\" data-island=\"{name}\" data-hydrate=\"{hydrate}\" data-placement=\"{id}\" data-files=\"{files}\">{html}</div><script type=\"application/json\" id=\"props-{id}\">{props}</script>",
        files = escape_markup(files),
        hydrate = escape_markup(hydrate),
        id = island.id,
        html = rendered.html,
        props = json::for_script(&island.placed.props)?,
    ))
}

fn hydrate_strategy<'a>(island: &'a OnPage, rendered: &'a RenderedIsland) -> &'a str {
    island
        .placed
        .hydrate
        .as_deref()
        .unwrap_or(&rendered.hydrate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_read_from_elements_not_from_text() {
        let html = r#"<form id="contact"><label for="x"> id="said"</label><input id=bare><p class='a' id='single'></p></form>"#;
        assert_eq!(element_ids(html), ["contact", "bare", "single"]);
    }
}
