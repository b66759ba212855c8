//! Pages through the layouts: the home page, each Markdown page and the 404
//! page, a range at a time.

use std::sync::Arc;

use minijinja::value::Serde;
use minijinja::{Value, context};
use rayon::prelude::*;

use super::context::{HERO_CUTS, RenderInput, common, faq_entries, json_ld, page_context};
use super::placements::Catalog;
use super::{minify, structured_data};
use crate::content::values::FocalPoint;
use crate::diagnostics::{Location, Result};
use crate::media::{Placement, Plan};
use crate::output::file::OutputFile;

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

    /// Done rendering: the pictures' copies the pages offered, for
    /// publishing, which takes nothing else.
    pub fn finish(self) -> Plan {
        self.input.pictures.plan()
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
                    priority: true,
                    eager: true,
                    class: Some("hero__image"),
                    cuts: &HERO_CUTS,
                    focus: image.focus.map(FocalPoint::focus).unwrap_or_default(),
                    ..Placement::default()
                };
                Some(context! {
                    html => Value::from_safe_string(input.pictures.markup(&picture, &placement)),
                    preload => Value::from_safe_string(input.pictures.preload(&picture, &placement)),
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

fn finish(page: &str) -> String {
    minify::html(page)
}
