//! `content/` read into a [`Site`]: YAML parsed and checked, pages read,
//! figures derived, placeholders filled in.

use std::path::{Path, PathBuf};

use super::derived::{Derived, derive};
use super::faq_pictures;
use super::fill::Fill;
use super::model::{Business, Chrome, FaqEntry, Home, NotFound, Plans};
use super::pages::load_pages;
use super::placeholder_values::{self, Sources};
use super::placeholders;
use super::site::Site;
use super::yaml::{self, locate_key};
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::media::Library;
use crate::text::{line_column, read_text};

struct Source<'a> {
    dir: &'a Path,
    shown: PathBuf,
}

impl Source<'_> {
    fn path(&self, name: &str) -> (PathBuf, PathBuf) {
        (self.dir.join(name), self.shown.join(name))
    }

    fn yaml<T: serde::de::DeserializeOwned>(&self, name: &str) -> Result<(T, String)> {
        let (path, shown) = self.path(name);
        let text = read_text(&path, &shown)?;
        let value = yaml::parse(&text, &shown, 0)?;
        Ok((value, text))
    }
}

/// Loads `dir`, named `shown` in messages; each picture placed is read and
/// checked through `pictures`.
pub fn load(dir: &Path, shown: &Path, pictures: &Library) -> Result<Site> {
    let source = Source {
        dir,
        shown: shown.to_path_buf(),
    };
    let (business, business_text) = source.yaml::<Business>("business.yaml")?;
    let (plans, plans_text) = source.yaml::<Plans>("plans.yaml")?;
    let derived = derive(&plans, &plans_text, &source.path("plans.yaml").1)?;
    check_business(&business, &business_text, &source.path("business.yaml").1)?;
    let (chrome, chrome_text) = source.yaml::<Chrome>("site.yaml")?;
    let (home, home_text) = source.yaml::<Home>("home.yaml")?;
    let (faq, faq_text) = source.yaml::<Vec<FaqEntry>>("faq.yaml")?;
    let (not_found, not_found_text) = source.yaml::<NotFound>("notfound.yaml")?;
    for (name, text) in [
        ("business.yaml", &business_text),
        ("plans.yaml", &plans_text),
        ("site.yaml", &chrome_text),
        ("home.yaml", &home_text),
        ("faq.yaml", &faq_text),
        ("notfound.yaml", &not_found_text),
    ] {
        check_whole_months(text, true, &source.path(name).1, &plans, &derived)?;
    }
    let plans_shown = source.path("plans.yaml").1;
    for (key, plan) in [("monthly", &plans.monthly), ("annual", &plans.annual)] {
        non_empty(
            &plan.features,
            &plans_text,
            &[key, "features"],
            &plans_shown,
        )?;
    }
    non_empty(
        &home.how_it_works.steps,
        &home_text,
        &["how_it_works", "steps"],
        &source.path("home.yaml").1,
    )?;
    non_empty(&faq, &faq_text, &[], &source.path("faq.yaml").1)?;
    if let Some(image) = &home.hero.image {
        let (line, column) = locate_key(&home_text, &["hero", "image", "src"]).unwrap_or((1, 1));
        pictures.place(
            "",
            &image.src,
            &Location::at(source.path("home.yaml").1, line, column),
        )?;
    }
    faq_pictures::place(&faq, &faq_text, &source.path("faq.yaml").1, pictures)?;
    let pages = load_pages(source.dir, &source.shown, pictures, |text, shown| {
        check_whole_months(text, false, shown, &plans, &derived)
    })?;
    // From the text as written: a value is never filled in turn.
    let values = placeholder_values::values(&Sources {
        business: &business,
        plans: &plans,
        derived: &derived,
    });
    let mut site = Site {
        business,
        plans,
        chrome,
        home,
        faq,
        not_found,
        pages,
        derived,
    };
    site.fill(&values);
    Ok(site)
}

/// Fails at the first `{free_months}` or `{paid_months}` (comments skipped)
/// when the prices give them no whole value: the text would claim free months
/// that are not.
fn check_whole_months(
    text: &str,
    yaml: bool,
    shown: &Path,
    plans: &Plans,
    derived: &Derived,
) -> Result<()> {
    if derived.whole_months.is_some() {
        return Ok(());
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let comment = yaml && line.trim_start().starts_with('#');
        let used = placeholders::find(line)
            .find(|(_, name)| placeholders::needs_whole_months(name))
            .filter(|_| !comment);
        if let Some((at, name)) = used {
            let (line, column) = line_column(&text.as_bytes()[..offset + at]);
            let (monthly, annual) = (plans.monthly.price.0, plans.annual.price.0);
            return Err(Diagnostic::new(format!(
                "`{{{name}}}` has no whole value: the annual price (${annual}) is not a whole number of monthly payments (${monthly} each)"
            ))
            .at(Location::at(shown, line, column))
            .help(format!(
                "use `{{annual_deal}}` (or `{{annual_deal_short}}`) here: it reads \"pay for N months, get M free\" when the prices allow it, and \"save ${} a year\" with these",
                derived.annual_saving
            )));
        }
        offset += line.len();
    }
    Ok(())
}

fn check_business(business: &Business, text: &str, shown: &Path) -> Result<()> {
    if let Some(geo) = business.geo {
        for (key, value, limit) in [
            ("latitude", geo.latitude, 90.0),
            ("longitude", geo.longitude, 180.0),
        ] {
            if !(-limit..=limit).contains(&value) {
                let (line, column) = locate_key(text, &["geo", key]).unwrap_or((1, 1));
                return Err(Diagnostic::new(format!(
                    "the {key} {value} is not on the map: it goes from -{limit} to {limit}"
                ))
                .at(Location::at(shown, line, column))
                .help("copy the two numbers from a map (in Google Maps, right-click the place): Brookings is near latitude 44.31, longitude -96.80"));
            }
        }
    }
    if business.service_area.zip_codes.is_empty() {
        let (line, column) = locate_key(text, &["service_area", "zip_codes"]).unwrap_or((1, 1));
        return Err(Diagnostic::new("the service area has no ZIP codes")
            .at(Location::at(shown, line, column))
            .help("list at least one ZIP code, for example zip_codes: [\"57006\"]"));
    }
    Ok(())
}

/// Fails when the list at `path` (the whole file if empty) has no items.
fn non_empty<T>(items: &[T], text: &str, path: &[&str], shown: &Path) -> Result<()> {
    if !items.is_empty() {
        return Ok(());
    }
    let (line, column) = if path.is_empty() {
        // Point at its first line that is not a comment.
        let first = text.lines().position(|line| {
            let line = line.trim();
            !line.is_empty() && !line.starts_with('#')
        });
        (first.map_or(1, |index| index + 1), 1)
    } else {
        locate_key(text, path).unwrap_or((1, 1))
    };
    Err(Diagnostic::new("this list is empty")
        .at(Location::at(shown, line, column))
        .help("add at least one entry, like the ones in the repository's own content/ folder"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::WholeMonths;
    use crate::content::fill;

    #[test]
    fn the_real_content_loads_with_its_derived_figures() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let shown = Path::new("content");
        let site =
            load(&dir, shown, &Library::new(&dir, shown, None)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            site.derived,
            Derived {
                annual_saving: 50,
                whole_months: Some(WholeMonths { paid: 10, free: 2 }),
            }
        );
        assert_eq!(site.home.pricing.annual_badge.as_str(), "Save $50");
        assert_eq!(
            site.home.contact.promotion_options.annual.as_str(),
            "Yearly plan (2 months free)"
        );
        // None left anywhere: the debug form prints every text of the site.
        let everything = format!("{site:?}");
        assert_eq!(fill::find(&everything).next(), None);
        let slugs: Vec<&str> = site.pages.iter().map(|p| p.slug.as_str()).collect();
        assert_eq!(slugs, ["privacypolicy", "start", "termsofservice"]);
        assert_eq!(site.faq.len(), 3);
    }
}
