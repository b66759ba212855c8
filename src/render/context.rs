//! The template context: what layouts see of the site, each page and the
//! islands they place.

use std::sync::Arc;

use minijinja::value::Serde;
use minijinja::{Value, context};

use super::assets::AssetUrls;
use super::placements::{self, Catalog, Mistake, Placements};
use super::{json, layouts, share_card};
use crate::content::{PAGES_FOLDER, Page, PageIsland, Site, markdown};
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::islands::Island;
use crate::islands::props::FormEndpoint;
use crate::media::variants::WIDTHS;
use crate::media::{Cut, Library, Placement};

pub struct RenderInput<'a> {
    pub site: &'a Site,
    pub layouts: &'a layouts::Layouts,
    /// The islands the pages may hold; each placement lands as a marker,
    /// kept in `placements`, and replaced by a [`Placer`](super::Placer) once rendered.
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

/// The boxes the hero's photo is drawn in (site.css, `.hero__image`), and
/// its copies cut to each. From 60rem up, a 4:3 frame 33rem wide beside the
/// text (half the 68rem measure less the gap): its copies are that width at
/// 1, 1.5, 2 and 3 device pixels a CSS pixel, so a screen wastes nothing on
/// a copy a step too wide. Below that, a 16:9 band across the screen, up to
/// 60rem wide, at the steps every photo has.
pub const HERO_CUTS: [Cut; 2] = [
    Cut {
        media: "(min-width: 60rem)",
        aspect: (4, 3),
        sizes: "33rem",
        widths: &[528, 792, 1056, 1584],
    },
    Cut {
        media: "",
        aspect: (16, 9),
        sizes: "100vw",
        widths: &WIDTHS,
    },
];

/// How wide a picture in a Markdown page is drawn (site.css): the 44rem text
/// column, less the gutters on a phone.
pub const PAGE_IMAGE_SIZES: &str = "(min-width: 46rem) 44rem, calc(100vw - 2rem)";

/// A Markdown page's first picture, when it starts within this many bytes of
/// the text, is within the first screen: it is not fetched lazily.
pub(super) const FIRST_SCREEN_BYTES: usize = 400;

pub(super) fn page_context(
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
                title: &placed.title,
                ..Placement::default()
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
pub(super) fn common(input: &RenderInput, catalog: &Arc<Catalog>) -> Result<Value> {
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
pub(super) fn faq_entries(input: &RenderInput) -> Result<Vec<Value>> {
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

pub(super) fn json_ld(values: &[serde_json::Value]) -> Result<Value> {
    let mut out = String::new();
    for value in values {
        out.push_str("<script type=\"application/ld+json\">");
        out.push_str(&json::for_script(value)?);
        out.push_str("</script>\n");
    }
    Ok(Value::from_safe_string(out))
}
