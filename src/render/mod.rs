//! Pages from content and layouts: the template context, island markup,
//! structured data, and the site's small text files.

pub mod json;
pub mod layouts;
mod markers;
mod minify;
pub mod placements;
pub mod share_card;
pub mod structured_data;

use minijinja::value::Serde;
use minijinja::{Value, context};
use rayon::prelude::*;
use serde::Serialize;

use std::collections::HashMap;

use crate::content::PageIsland;
use crate::content::{PAGES_FOLDER, Page, Site, markdown};
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::islands::props::FormEndpoint;
use crate::islands::{Island, RenderedIsland};
use crate::media::{Library, Placement};
use crate::output::file::OutputFile;
use crate::text::xml_escape;
pub use layouts::Layouts;
use markers::marker;
use placements::{Catalog, Mistake, OnPage, Placements};
use std::sync::Arc;

/// What pages link or inline. Most of it exists only once Node has bundled
/// the islands and minified the stylesheets, after every page is rendered (so
/// content and layout mistakes are reported first): until then those fields
/// hold markers, which a [`Placer`] replaces.
#[derive(Debug, Clone, Serialize)]
pub struct AssetUrls {
    /// The site's stylesheet, placed in every page's `<style>`.
    pub inline_css: String,
    pub nojs_css: String,
    pub favicon: String,
    /// The islands runtime.
    pub islands: String,
    /// The inline script that starts the runtime (frontend/src/loader.ts).
    pub islands_loader: String,
    /// The head's inline script that fetches the islands' code early on a
    /// touch-first screen (frontend/src/preload.ts).
    pub islands_preload: String,
    /// The files that script fetches, for its `data-files`: the runtime's and
    /// those of the islands the page places, known once the page is placed.
    pub islands_files: String,
    /// The Content-Security-Policy of `<meta http-equiv>`: it allows the
    /// inline stylesheet and script by their hashes, known only once built.
    pub csp: String,
}

impl AssetUrls {
    /// Markers for everything Node makes, and the icon as a `data:` URL: one
    /// request less while the first page loads.
    pub fn pending(favicon_svg: &[u8]) -> AssetUrls {
        use base64::Engine as _;
        AssetUrls {
            inline_css: marker(INLINE_CSS),
            nojs_css: marker(NOJS_CSS),
            favicon: format!(
                "data:image/svg+xml;base64,{}",
                base64::engine::general_purpose::STANDARD.encode(favicon_svg)
            ),
            islands: marker(ISLANDS_ENTRY),
            islands_loader: marker(ISLANDS_LOADER),
            islands_preload: marker(ISLANDS_PRELOAD),
            islands_files: marker(ISLANDS_FILES),
            csp: marker(META_CSP),
        }
    }
}

/// What replaces the markers of [`AssetUrls::pending`] and the islands.
pub struct BuiltAssets<'a> {
    /// Node's server HTML of each placement, by [`OnPage::render_key`].
    pub islands: &'a HashMap<String, RenderedIsland>,
    /// What the islands' markers stand for.
    pub placements: &'a Placements,
    /// The runtime's URL path.
    pub islands_entry: &'a str,
    pub islands_loader: &'a str,
    pub islands_preload: &'a str,
    /// Each island's files, its own chunk first: URL paths, one space apart.
    pub island_files: &'a HashMap<String, String>,
    /// Minified; no `</style` (checked by the build).
    pub inline_css: &'a str,
    pub nojs_css: &'a str,
    /// The policy for `<meta http-equiv="Content-Security-Policy">`.
    pub meta_csp: &'a str,
}

pub struct RenderInput<'a> {
    pub site: &'a Site,
    pub layouts: &'a Layouts,
    /// The islands the pages may hold; each placement lands as a marker,
    /// kept in `placements`, and replaced by a [`Placer`] once rendered.
    pub islands: &'a [Island],
    pub placements: &'a Arc<Placements>,
    /// Where the contact form posts (a prop of the islands).
    pub endpoint: &'a FormEndpoint,
    pub assets: &'a AssetUrls,
    pub copyright_year: i32,
    /// Markup added at the end of every body while previewing (live reload).
    pub dev_script: &'a str,
    /// The picture shared links show; `None` where no picture is drawn
    /// (`curbside check`).
    pub share_card: Option<&'a share_card::ShareCard>,
    /// The pictures pages place, each read and checked once.
    pub pictures: &'a Library,
}

/// How wide the hero's photo is drawn (site.css): the full width of a phone,
/// and beside the text from 60rem up, half the 68rem measure less the gap.
pub const HERO_IMAGE_SIZES: &str = "(min-width: 60rem) 33rem, 100vw";

/// How wide a picture in a Markdown page is drawn (site.css): the 44rem text
/// column, less the gutters on a phone.
pub const PAGE_IMAGE_SIZES: &str = "(min-width: 46rem) 44rem, calc(100vw - 2rem)";

/// A Markdown page's first picture, when it starts within this many bytes of
/// the text, is within the first screen: it is not fetched lazily.
const FIRST_SCREEN_BYTES: usize = 400;

/// Renders every page: home, each Markdown page, and the 404 page.
pub fn pages(input: &RenderInput) -> Result<Vec<OutputFile>> {
    let pages = PageRenderer::new(input)?;
    pages.render_range(0..pages.count()).into_iter().collect()
}

/// Renders the site's pages one range at a time, so a build can write each
/// range before rendering the next instead of holding every page. Page `0`
/// is the home page, then the Markdown pages in name order, then the 404
/// page: the order in which mistakes are reported.
pub struct PageRenderer<'a> {
    input: &'a RenderInput<'a>,
    /// What every page shares, made once: the footer alone lists every
    /// linked page, so making it per page would grow with the square of
    /// the pages.
    common: Value,
    catalog: Arc<Catalog>,
}

impl<'a> PageRenderer<'a> {
    pub fn new(input: &'a RenderInput<'a>) -> Result<PageRenderer<'a>> {
        let catalog = Arc::new(Catalog::new(input.islands, input.site, input.endpoint)?);
        Ok(PageRenderer {
            input,
            common: common(input, &catalog)?,
            catalog,
        })
    }

    /// How many pages the site has.
    pub fn count(&self) -> usize {
        self.input.site.pages.len() + 2
    }

    /// The pages of `range`, each rendered on its own on every core, in
    /// order, each with its own outcome.
    pub fn render_range(&self, range: std::ops::Range<usize>) -> Vec<Result<OutputFile>> {
        range.into_par_iter().map(|at| self.render(at)).collect()
    }

    fn render(&self, at: usize) -> Result<OutputFile> {
        let site = self.input.site;
        if at == 0 {
            return self.home();
        }
        match site.pages.get(at - 1) {
            Some(page) => {
                let html = finish(&self.input.layouts.render(
                    "page.html",
                    page_context(self.input, &self.catalog, page, self.common.clone())?,
                )?);
                Ok(OutputFile::text(format!("{}.html", page.slug), html))
            }
            None => self.not_found(),
        }
    }

    fn home(&self) -> Result<OutputFile> {
        let (input, site) = (self.input, self.input.site);
        let home_title = format!(
            "{} | {}",
            site.home.title.as_str(),
            site.business.name.as_str()
        );
        let structured = [
            structured_data::local_business(site, input.share_card.map(|card| card.url.as_str())),
            structured_data::faq_page(site),
        ];
        let hero_picture = match &site.home.hero.image {
            Some(image) => {
                let picture =
                    input
                        .pictures
                        .place("", &image.src, &Location::file("content/home.yaml"))?;
                let placement = Placement {
                    alt: &image.alt,
                    sizes: HERO_IMAGE_SIZES,
                    priority: true,
                    eager: true,
                    class: Some("hero__image"),
                    title: "",
                };
                Some(context! {
                    html => Value::from_safe_string(input.pictures.markup(&picture, &placement)),
                    preload => Value::from_safe_string(input.pictures.preload(&picture, HERO_IMAGE_SIZES)),
                })
            }
            None => None,
        };
        let home = context! {
            hero_picture => hero_picture,
            page => context! {
                title => home_title,
                description => site.home.description.as_str(),
                url => format!("{}/", site.business.url.as_str()),
            },
            home => Value::from(Serde(&site.home)),
            faq => faq_entries(input)?,
            structured_data => json_ld(&structured)?,
            ..self.common.clone()
        };
        Ok(OutputFile::text(
            "index.html",
            finish(&input.layouts.render("home.html", home)?),
        ))
    }

    fn not_found(&self) -> Result<OutputFile> {
        let site = self.input.site;
        let not_found = context! {
            page => context! {
                title => format!("{} | {}", site.not_found.title.as_str(), site.business.name.as_str()),
                description => site.not_found.description.as_str(),
                // No address of its own: it answers for every unknown one, so
                // search engines are told not to index it (base.html).
                url => None::<String>,
            },
            not_found => Value::from(Serde(&site.not_found)),
            structured_data => Value::from_safe_string(String::new()),
            ..self.common.clone()
        };
        Ok(OutputFile::text(
            "404.html",
            finish(&self.input.layouts.render("404.html", not_found)?),
        ))
    }
}

fn page_context(
    input: &RenderInput,
    catalog: &Catalog,
    page: &Page,
    common: Value,
) -> Result<Value> {
    let site = input.site;
    let meta = &page.meta;
    let shown = std::path::Path::new("content")
        .join(PAGES_FOLDER)
        .join(format!("{}.md", page.slug));
    let mut first = true;
    let place_island = |n: usize| -> Result<Option<String>> {
        let Some(island) = page.islands.get(n) else {
            return Ok(None);
        };
        Ok(Some(markdown_island(input, catalog, island)?))
    };
    let body_html = markdown::to_html_with_placements(
        &page.body,
        |placed| {
            let picture =
                input
                    .pictures
                    .place(PAGES_FOLDER, &placed.src, &Location::file(&shown))?;
            let placement = Placement {
                alt: &placed.alt,
                sizes: PAGE_IMAGE_SIZES,
                priority: false,
                eager: first && placed.offset < FIRST_SCREEN_BYTES,
                class: None,
                title: &placed.title,
            };
            first = false;
            Ok(input.pictures.markup(&picture, &placement))
        },
        place_island,
    )?;
    Ok(context! {
        page => context! {
            title => format!("{} | {}", meta.title.as_str(), site.business.name.as_str()),
            description => meta.description.as_str(),
            url => format!("{}/{}", site.business.url.as_str(), page.slug),
        },
        doc => context! {
            title => meta.title.as_str(),
            date_label => meta.date_label.as_ref().map(|l| l.as_str()),
            date => meta.date.map(|d| d.long()),
            date_iso => meta.date.map(|d| d.iso()),
            body_html => Value::from_safe_string(body_html),
        },
        structured_data => Value::from_safe_string(String::new()),
        ..common
    })
}

/// An island a Markdown page places: its marker, or the mistake at the
/// place it is written.
fn markdown_island(input: &RenderInput, catalog: &Catalog, island: &PageIsland) -> Result<String> {
    let mut given = Vec::new();
    let mut hydrate = None;
    let mut hydrate_at = None;
    let mut at = Vec::new();
    for setting in &island.settings {
        if setting.key == placements::HYDRATE {
            hydrate = Some(match &setting.value {
                serde_json::Value::String(text) => text.clone(),
                other => other.to_string(),
            });
            hydrate_at = Some(&setting.value_at);
        } else {
            given.push((setting.key.clone(), setting.value.clone()));
            at.push(setting);
        }
    }
    let placed = catalog
        .placement(&island.name, &given, hydrate.as_deref())
        .map_err(|(mistake, err)| {
            let location = match mistake {
                Mistake::Island => &island.at,
                Mistake::Key(n) => at.get(n).map_or(&island.at, |s| &s.key_at),
                Mistake::Value(n) => at.get(n).map_or(&island.at, |s| &s.value_at),
                Mistake::Hydrate => hydrate_at.unwrap_or(&island.at),
            };
            err.at(location.clone())
        })?;
    input.placements.marker(placed)
}

/// `island(name, prop=value…, hydrate=…)` for layouts: the island `name`
/// with those props over its content's, hydrating when `hydrate` says. A
/// mistake is reported at the line that calls it.
fn island_function(catalog: Arc<Catalog>, placements: Arc<Placements>) -> Value {
    Value::from_function(
        move |name: String,
              options: minijinja::value::Kwargs|
              -> std::result::Result<Value, minijinja::Error> {
            let mut given = Vec::new();
            let mut hydrate: Option<String> = None;
            for key in options.args() {
                if key == placements::HYDRATE {
                    hydrate = Some(options.get(key)?);
                    continue;
                }
                let value: Value = options.get(key)?;
                let json = serde_json::to_value(&value).map_err(|err| {
                    minijinja::Error::new(
                        minijinja::ErrorKind::InvalidOperation,
                        format!("the prop `{key}` cannot be written as JSON: {err}"),
                    )
                })?;
                given.push((key.to_string(), json));
            }
            let placed = catalog
                .placement(&name, &given, hydrate.as_deref())
                .map_err(|(_, err)| layouts::function_error(err))?;
            let marker = placements.marker(placed).map_err(layouts::function_error)?;
            Ok(Value::from_safe_string(marker))
        },
    )
}

/// What every page's base layout uses.
fn common(input: &RenderInput, catalog: &Arc<Catalog>) -> Result<Value> {
    let site = input.site;
    let business = &site.business;
    let islands = catalog
        .names()
        .map(|name| {
            let placed = catalog
                .as_it_is(name)
                .ok_or_else(|| Diagnostic::new(format!("the island `{name}` was lost")))?;
            Ok((
                name.to_string(),
                Value::from_safe_string(input.placements.marker(placed)?),
            ))
        })
        .collect::<Result<std::collections::BTreeMap<String, Value>>>()?;
    Ok(context! {
        business => context! {
            name => business.name.as_str(),
            phone => business.phone.display.as_str(),
            phone_tel => business.phone.tel.as_str(),
            email => business.email.as_str(),
            service_area => business.service_area.description.as_str(),
        },
        plans => context! {
            monthly => context! { price => site.plans.monthly.price.to_string() },
            annual => context! { price => site.plans.annual.price.to_string() },
        },
        chrome => Value::from(Serde(&site.chrome)),
        share_card => input.share_card.map(|card| Value::from(Serde(card))),
        footer_pages => footer_pages(site),
        assets => Value::from(Serde(input.assets)),
        islands => islands,
        island => island_function(Arc::clone(catalog), Arc::clone(input.placements)),
        copyright_year => input.copyright_year,
        dev_script => Value::from_safe_string(input.dev_script.to_string()),
    })
}

/// The footer's links to the pages the owner added ([`Site::footer_pages`]).
fn footer_pages(site: &Site) -> Vec<Value> {
    site.footer_pages()
        .map(|page| {
            let text = page.meta.link_text.as_ref().unwrap_or(&page.meta.title);
            context! { href => format!("/{}", page.slug), text => text.as_str() }
        })
        .collect()
}

/// The FAQ's entries, their answers in HTML; a picture in an answer is
/// found from content/, like the hero's.
fn faq_entries(input: &RenderInput) -> Result<Vec<Value>> {
    let faq = std::path::Path::new("content/faq.yaml");
    input
        .site
        .faq
        .iter()
        .map(|entry| {
            let answer = markdown::to_html_with_pictures(entry.answer.as_str(), |placed| {
                if !placed.described {
                    return Err(Diagnostic::new(format!(
                        "the picture `{}` in an answer has no alt text",
                        placed.src
                    ))
                    .at(Location::file(faq))
                    .help("say what it shows between the brackets, such as `![Our truck](photos/truck.jpg)`; for pure decoration, write `![\"\"](…)`"));
                }
                let picture = input.pictures.place("", &placed.src, &Location::file(faq))?;
                let placement = Placement {
                    alt: &placed.alt,
                    sizes: PAGE_IMAGE_SIZES,
                    title: &placed.title,
                    ..Placement::default()
                };
                Ok(input.pictures.markup(&picture, &placement))
            })?;
            Ok(context! {
                question => entry.question.as_str(),
                answer_html => Value::from_safe_string(answer),
            })
        })
        .collect()
}

fn json_ld(values: &[serde_json::Value]) -> Result<Value> {
    let mut out = String::new();
    for value in values {
        out.push_str("<script type=\"application/ld+json\">");
        out.push_str(&json::for_script(value)?);
        out.push_str("</script>\n");
    }
    Ok(Value::from_safe_string(out))
}

/// Names of the markers of [`AssetUrls::pending`]; islands' are their own names.
const ISLANDS_ENTRY: &str = "islands-entry";
const ISLANDS_LOADER: &str = "islands-loader";
const ISLANDS_PRELOAD: &str = "islands-preload";
/// Filled for each page by [`Placer::place`].
const ISLANDS_FILES: &str = "islands-files";
const INLINE_CSS: &str = "inline-css";
const NOJS_CSS: &str = "nojs-css";
const META_CSP: &str = "csp";

fn finish(page: &str) -> String {
    minify::html(page)
}

/// Puts the islands' server HTML, the runtime's URL and script, and the
/// minified stylesheets into rendered pages. They go in after minifying,
/// untouched, so nothing hydration needs (text, comments between text nodes)
/// is lost.
///
/// The Content-Security-Policy allows the inline stylesheet and scripts by
/// the hashes of exactly their texts, so each must be the whole text of its
/// element: anything a layout added beside it would block it.
///
/// The values are worked out once, then each page is placed as soon as it
/// is rendered.
pub struct Placer<'a> {
    built: &'a BuiltAssets<'a>,
    /// The assets' values by marker name.
    values: HashMap<&'a str, &'a str>,
}

impl<'a> Placer<'a> {
    pub fn new(built: &'a BuiltAssets<'a>) -> Result<Placer<'a>> {
        for (script, source) in [
            (built.islands_loader, "frontend/src/loader.ts"),
            (built.islands_preload, "frontend/src/preload.ts"),
        ] {
            let lowered = script.to_ascii_lowercase();
            if lowered.contains("</script") || lowered.contains("<!--") {
                return Err(Diagnostic::new(format!(
                    "the inline script {source} cannot be inlined: its text contains `</script` or `<!--`"
                ))
                .help("write the text differently, for example split the string in two"));
            }
        }
        let values = HashMap::from([
            (ISLANDS_ENTRY, built.islands_entry),
            (ISLANDS_LOADER, built.islands_loader),
            (ISLANDS_PRELOAD, built.islands_preload),
            (INLINE_CSS, built.inline_css),
            (NOJS_CSS, built.nojs_css),
            (META_CSP, built.meta_csp),
        ]);
        Ok(Placer { built, values })
    }

    /// Fills the markers of one rendered page; a file that is not text is
    /// left as it is. A page that places no island gets neither script:
    /// it loads nothing but its HTML and CSS.
    pub fn place(&self, page: &mut OutputFile) -> Result<()> {
        let Ok(html) = std::str::from_utf8(&page.contents) else {
            return Ok(());
        };
        let islands = self.built.placements.in_page(html);
        check_inline_elements(html, &page.path, !islands.is_empty())?;
        let without_scripts;
        let html = if islands.is_empty() {
            without_scripts = [ISLANDS_LOADER, ISLANDS_PRELOAD]
                .iter()
                .fold(html.to_string(), |html, name| {
                    markers::remove_element(&html, &marker(name), "script")
                });
            &without_scripts
        } else {
            html
        };
        let mut markup: HashMap<&str, std::collections::VecDeque<String>> = HashMap::new();
        let mut ids: HashMap<&str, &str> = HashMap::new();
        // The head's script fetches the runtime, then every file the page's
        // islands name, each once; not an island's that waits for a media
        // query, fetched only where its query matches.
        let mut files: Vec<&str> = vec![self.built.islands_entry];
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
                if let Some(first) = ids.insert(id, &island.placed.name) {
                    return Err(fixed_id_twice(&page.path, first, &island.placed.name, id));
                }
            }
            let island_files = self
                .built
                .island_files
                .get(&island.placed.name)
                .map_or("", String::as_str);
            if !hydrate_strategy(island, rendered).starts_with("media:") {
                for file in island_files.split(' ').filter(|file| !file.is_empty()) {
                    if !files.contains(&file) {
                        files.push(file);
                    }
                }
            }
            markup
                .entry(island.marker.as_str())
                .or_default()
                .push_back(island_markup(island, rendered, island_files)?);
        }
        let files = xml_escape(&files.join(" "));
        page.contents =
            markers::replace_with(html, &page.path, |name| match markup.get_mut(name) {
                Some(queue) => queue.pop_front(),
                None if name == ISLANDS_FILES => Some(files.to_string()),
                None => self.values.get(name).map(|value| value.to_string()),
            })?
            .into_bytes();
        Ok(())
    }
}

/// The `id` attributes of server-rendered HTML (React writes them quoted,
/// each as ` id="…"`).
fn element_ids(html: &str) -> impl Iterator<Item = &str> {
    html.split(" id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
}

/// Two placements on one page whose markup holds the same fixed id (a form
/// field's, say): React's own ids follow each placement, the island's own
/// ids cannot.
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

/// The server renders each page needs that `known` lacks: the placement
/// (island, props, React's prefix) by its render key.
pub fn islands_to_render(
    pages: &[OutputFile],
    placements: &Placements,
    known: &HashMap<String, RenderedIsland>,
) -> Result<Vec<(String, OnPage)>> {
    let mut wanted: Vec<(String, OnPage)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
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

/// The stylesheet and script markers stand alone in their elements, a page
/// with islands has the loader that starts them, and the head's script, which
/// a layout may leave out, is there once at most.
fn check_inline_elements(html: &str, page: &str, has_islands: bool) -> Result<()> {
    let loader =
        "`<script data-runtime=\"{{ assets.islands }}\">{{ assets.islands_loader }}</script>`";
    let preload =
        "`<script data-files=\"{{ assets.islands_files }}\">{{ assets.islands_preload }}</script>`";
    let style = "`<style>{{ assets.inline_css }}</style>`";
    let help = format!(
        "in layouts/base.html, write {style}, {preload} (in the head) and {loader} with nothing else between the tags: \
         the Content-Security-Policy allows exactly those texts"
    );
    let refused = |message: String| {
        Diagnostic::new(message)
            .at(Location::file("layouts"))
            .help(help.clone())
    };
    let alone = |name: &str, tag: &str| {
        markers::count_as_element_text(html, &marker(name), tag).map_err(|()| {
            refused(format!(
                "in {page}, `assets.{}` must be the whole text of a <{tag}> element",
                name.replace('-', "_")
            ))
        })
    };
    alone(INLINE_CSS, "style")?;
    check_meta_policy(html, page)?;
    let loaders = alone(ISLANDS_LOADER, "script")?;
    let started = html.contains(&format!("data-runtime=\"{}\"", marker(ISLANDS_ENTRY)));
    if loaders > 0 && !started {
        return Err(refused(format!(
            "in {page}, the loader script has no data-runtime=\"{{{{ assets.islands }}}}\" attribute to tell it what to start"
        )));
    }
    if has_islands && loaders == 0 {
        return Err(refused(format!(
            "{page} has interactive parts but no {{{{ assets.islands_loader }}}} script to start them"
        )));
    }
    if loaders > 1 {
        return Err(refused(format!(
            "{page} has the loader script {loaders} times"
        )));
    }
    let preloads = alone(ISLANDS_PRELOAD, "script")?;
    let listed = html.contains(&format!("data-files=\"{}\"", marker(ISLANDS_FILES)));
    if preloads > 0 && !listed {
        return Err(refused(format!(
            "in {page}, the script of `assets.islands_preload` has no data-files=\"{{{{ assets.islands_files }}}}\" attribute to tell it what to fetch"
        )));
    }
    if preloads > 1 {
        return Err(refused(format!(
            "{page} has the script of `assets.islands_preload` {preloads} times"
        )));
    }
    Ok(())
}

/// The page carries its policy in a `<meta>` before anything it governs: a
/// browser applies such a policy only to what comes after it.
fn check_meta_policy(html: &str, page: &str) -> Result<()> {
    let tag = format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\"",
        marker(META_CSP)
    );
    let first_inline = [INLINE_CSS, ISLANDS_PRELOAD, ISLANDS_LOADER]
        .iter()
        .filter_map(|name| html.find(&marker(name)))
        .min();
    match (html.find(&tag), first_inline) {
        (Some(at), Some(inline)) if at < inline => Ok(()),
        (Some(_), None) => Ok(()),
        _ => Err(Diagnostic::new(format!(
            "in {page}, the Content-Security-Policy <meta> is missing or comes after the inline stylesheet or script"
        ))
        .at(Location::file("layouts"))
        .help(
            "in layouts/base.html, write `<meta http-equiv=\"Content-Security-Policy\" content=\"{{ assets.csp }}\" />` \
             right after `<meta charset>`: hosting that sends no headers of the site's relies on it",
        )),
    }
}

/// An island in the page: its server-rendered HTML in the element the
/// runtime hydrates (which names the placement's id, for its props and
/// React's prefix, and the island's files, which the page's loader may fetch
/// side by side with the runtime), followed by its props.
fn island_markup(island: &OnPage, rendered: &RenderedIsland, files: &str) -> Result<String> {
    let name = &island.placed.name;
    let hydrate = hydrate_strategy(island, rendered);
    Ok(format!(
        "<div class=\"island island--{name}\" data-island=\"{name}\" data-hydrate=\"{hydrate}\" data-placement=\"{id}\" data-files=\"{files}\">{html}</div><script type=\"application/json\" id=\"props-{id}\">{props}</script>",
        files = xml_escape(files),
        hydrate = xml_escape(hydrate),
        id = island.id,
        html = rendered.html,
        props = json::for_script(&island.placed.props)?,
    ))
}

/// When the placement hydrates: its own moment, or its island's.
fn hydrate_strategy<'a>(island: &'a OnPage, rendered: &'a RenderedIsland) -> &'a str {
    island
        .placed
        .hydrate
        .as_deref()
        .unwrap_or(&rendered.hydrate)
}

/// sitemap.xml: the home page and every Markdown page.
pub fn sitemap(site: &Site) -> OutputFile {
    let base = site.business.url.as_str();
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    xml.push_str(&format!("<url><loc>{}/</loc></url>\n", xml_escape(base)));
    for page in &site.pages {
        xml.push_str(&format!(
            "<url><loc>{}/{}</loc>",
            xml_escape(base),
            page.slug
        ));
        if let Some(date) = page.meta.date {
            xml.push_str(&format!("<lastmod>{}</lastmod>", date.iso()));
        }
        xml.push_str("</url>\n");
    }
    xml.push_str("</urlset>\n");
    OutputFile::text("sitemap.xml", xml)
}

pub fn robots(site: &Site) -> OutputFile {
    OutputFile::text(
        "robots.txt",
        format!(
            "User-agent: *\nAllow: /\n\nSitemap: {}/sitemap.xml\n",
            site.business.url.as_str()
        ),
    )
}
