//! Load and validate everything in `content/` into one typed [`Site`], with
//! the figures derived from it and every `{placeholder}` filled in. Every
//! mistake is reported with its file, line and column and what to change.

mod faq_pictures;
pub mod markdown;
pub mod model;
pub mod phrases;
pub mod placeholders;
pub mod schema;
pub mod spelling;
pub mod values;
pub mod yaml;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::diagnostics::{self, Diagnostic, Location, Result};
use crate::media::Library;
use crate::text::{line_column, read_text};
pub use model::*;
use placeholders::{Fill, Values};

/// The folder of the Markdown pages, under content/; pictures they place
/// are found from it.
pub const PAGES_FOLDER: &str = "pages";

/// Pages the site itself links to, so they must exist.
pub const REQUIRED_PAGES: &[&str] = &["privacypolicy", "termsofservice"];

/// The whole site's content, validated, its placeholders filled in.
#[derive(Debug, Clone)]
pub struct Site {
    pub business: Business,
    pub plans: Plans,
    pub chrome: Chrome,
    pub home: Home,
    pub faq: Vec<FaqEntry>,
    pub not_found: NotFound,
    /// Sorted by slug.
    pub pages: Vec<Page>,
    pub derived: Derived,
}

impl Site {
    /// The pages the owner added that ask to be linked from every page's
    /// footer (the default), in the order of their file names. The privacy
    /// policy and terms have their own links, worded in site.yaml.
    pub fn footer_pages(&self) -> impl Iterator<Item = &Page> {
        self.pages
            .iter()
            .filter(|page| page.meta.link == PageLink::Footer)
            .filter(|page| !REQUIRED_PAGES.contains(&page.slug.as_str()))
    }
}

/// The most added pages the footer links before the build warns. What an
/// owner adds by hand (about, FAQ, careers, a few legal pages) stays under
/// it, and a dozen links is still a list a reader can scan and about half a
/// kilobyte on each page. Past it the pages are a collection reached from an
/// index or the owner's text; as every page carries every footer link, the
/// site would grow with the square of its pages (about 45 KB of footer links
/// a page at 1,000 pages).
pub const FOOTER_PAGES_LIMIT: usize = 12;

/// Figures computed from the prices, never typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derived {
    /// 12 × monthly − annual, in dollars.
    pub annual_saving: u32,
    /// The annual price in whole monthly payments, when it is one: only then
    /// is "pay for 10 months, get 2 free" true.
    pub whole_months: Option<WholeMonths>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WholeMonths {
    /// Months of service the annual price pays for: annual / monthly.
    pub paid: u32,
    /// 12 − paid months.
    pub free: u32,
}

impl Derived {
    /// The annual plan's advantage, as a phrase that reads inside a sentence:
    /// free months when the prices make that true, the saving otherwise.
    pub fn annual_deal(&self) -> String {
        match self.whole_months {
            Some(WholeMonths { paid, free }) => format!("pay for {paid} months, get {free} free"),
            None => format!("save ${} a year", self.annual_saving),
        }
    }

    /// The same, short enough for a label: "2 months free" or "save $60 a year".
    pub fn annual_deal_short(&self) -> String {
        match self.whole_months {
            Some(WholeMonths { free: 1, .. }) => "1 month free".to_string(),
            Some(WholeMonths { free, .. }) => format!("{free} months free"),
            None => format!("save ${} a year", self.annual_saving),
        }
    }
}

/// Where content is read from, and how paths are shown in messages.
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

/// Loads `dir` (a site's `content/` folder). `shown` is how that folder is
/// named in messages, usually `content`.
pub fn load(dir: &Path, shown: &Path) -> Result<Site> {
    load_with_pictures(dir, shown, &Library::new(dir, shown, None))
}

/// [`load`], reading and checking each picture the content places through
/// `pictures`, which the build then publishes.
pub fn load_with_pictures(dir: &Path, shown: &Path, pictures: &Library) -> Result<Site> {
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
    let pages = load_pages(&source, pictures, |text, shown| {
        check_whole_months(text, false, shown, &plans, &derived)
    })?;
    // From the text as written: a placeholder's value is never filled in turn.
    let values = placeholders::values(&placeholders::Sources {
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

fn derive(plans: &Plans, text: &str, shown: &Path) -> Result<Derived> {
    let monthly = plans.monthly.price.0;
    let annual = plans.annual.price.0;
    let at_annual = || {
        let (line, column) = locate_key(text, &["annual", "price"]).unwrap_or((1, 1));
        Location::at(shown, line, column)
    };
    // Any annual price that saves money is allowed; the text says how.
    if annual >= 12 * monthly {
        return Err(Diagnostic::new(format!(
            "the annual price (${annual}) must be less than 12 monthly payments (${})",
            12 * monthly
        ))
        .at(at_annual())
        .help("lower the annual price, or raise the monthly one, so the annual plan saves money"));
    }
    let paid = annual / monthly;
    let whole_months = (annual.is_multiple_of(monthly) && paid > 0).then_some(WholeMonths {
        paid,
        free: 12 - paid,
    });
    Ok(Derived {
        annual_saving: 12 * monthly - annual,
        whole_months,
    })
}

/// Fails at the first `{free_months}` or `{paid_months}` in `text` (a content
/// file, comments skipped when it is YAML) when the prices give them no whole
/// value: the text around them would claim free months that are not.
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

/// Fails when the list at `path` in `text` (the whole file if `path` is
/// empty) has no items.
fn non_empty<T>(items: &[T], text: &str, path: &[&str], shown: &Path) -> Result<()> {
    if !items.is_empty() {
        return Ok(());
    }
    let (line, column) = if path.is_empty() {
        // The whole file is the list: point at its first line that is not a comment.
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

/// Reads every `*.md` in content/pages/.
/// `check` sees each page's text as written.
fn load_pages(
    source: &Source,
    pictures: &Library,
    check: impl Fn(&str, &Path) -> Result<()> + Sync,
) -> Result<Vec<Page>> {
    let dir = source.dir.join("pages");
    let shown_dir = source.shown.join("pages");
    if !dir.is_dir() {
        return Err(Diagnostic::new("the pages folder is missing")
            .at(Location::file(&shown_dir))
            .help(format!(
                "create it, with at least {}",
                REQUIRED_PAGES
                    .iter()
                    .map(|page| format!("{page}.md"))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )));
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&dir)
        .follow_links(true)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|err| {
            diagnostics::from_walk(
                &err,
                &dir,
                &shown_dir,
                "remove the symbolic link; pages must be plain files",
            )
        })?;
        let path = entry.path();
        if entry.path_is_symlink() {
            let content = source.dir;
            let relative = path.strip_prefix(content).unwrap_or(path);
            let project = content.parent().unwrap_or(content);
            crate::confined::check(project, content, &source.shown, relative)?;
        }
        if !entry.file_type().is_file() || path.extension().is_none_or(|ext| ext != "md") {
            continue;
        }
        files.push(path.to_path_buf());
    }
    // Read and parsed on every core; the first failing file in name order is
    // reported, as one file at a time would.
    let loaded: Vec<Result<Page>> = files
        .par_iter()
        .map(|path| {
            let relative = path.strip_prefix(&dir).unwrap_or(path);
            load_page(path, &shown_dir.join(relative), relative, pictures, &check)
        })
        .collect();
    let pages = loaded.into_iter().collect::<Result<Vec<Page>>>()?;
    for required in REQUIRED_PAGES {
        if !pages.iter().any(|page| page.slug == *required) {
            return Err(Diagnostic::new(format!("the page /{required} is missing"))
                .at(Location::file(shown_dir.join(format!("{required}.md"))))
                .help("create this file: every page's footer links to it"));
        }
    }
    Ok(pages)
}

fn load_page(
    path: &Path,
    shown: &Path,
    relative: &Path,
    pictures: &Library,
    check: &impl Fn(&str, &Path) -> Result<()>,
) -> Result<Page> {
    let slug = relative
        .with_extension("")
        .to_string_lossy()
        .replace('\\', "/");
    let valid_slug = slug
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !["index", "404", "assets"].contains(&slug.as_str());
    if !valid_slug {
        return Err(Diagnostic::new(format!("\"{slug}\" cannot be a page address"))
            .at(Location::file(shown))
            .help("name pages with lowercase letters, digits and dashes, directly in content/pages/, for example `about-us.md`; index, 404 and assets are taken"));
    }
    let text = read_text(path, shown)?;
    let (front, front_line, body, body_line) = yaml::split_front_matter(&text, shown)?;
    let meta: PageMeta = yaml::parse(front, shown, front_line - 1)?;
    check(&text, shown)?;
    if let Some((offset, name)) = placeholders::first_unknown(body) {
        let (line, column) = line_column(&body.as_bytes()[..offset]);
        let (message, help) = placeholders::unknown_message(name);
        return Err(Diagnostic::new(message)
            .at(Location::at(shown, line + body_line - 1, column))
            .help(help));
    }
    for picture in markdown::pictures(body) {
        let (line, column) = line_column(&body.as_bytes()[..picture.offset]);
        let at = Location::at(shown, line + body_line - 1, column);
        if !picture.described {
            return Err(Diagnostic::new(format!("the picture `{}` has no alt text", picture.src))
                .at(at)
                .help(format!(
                    "say what it shows between the brackets, such as `![Our truck at the curb]({})`: screen readers read it aloud; for a picture that is pure decoration, write `![\"\"]({})`",
                    picture.src, picture.src
                )));
        }
        pictures.place(PAGES_FOLDER, &picture.src, &at)?;
    }
    let islands = page_islands(body, shown, body_line)?;
    if meta.date.is_some() != meta.date_label.is_some() {
        let given = if meta.date.is_some() {
            "date"
        } else {
            "date_label"
        };
        let (line, column) = locate_key(front, &[given]).unwrap_or((1, 1));
        return Err(Diagnostic::new("`date` and `date_label` go together")
            .at(Location::at(shown, line + front_line - 1, column))
            .help("give both, for example `date_label: Last updated` and `date: 2025-08-25`, or neither"));
    }
    Ok(Page {
        slug,
        meta,
        body: body.to_string(),
        islands,
    })
}

/// The island blocks of a page's Markdown, each part with its place in the
/// file; whether the island and its settings exist is checked as the page
/// renders, where the islands are known.
fn page_islands(body: &str, shown: &Path, body_line: usize) -> Result<Vec<PageIsland>> {
    let at = |offset: usize| {
        let (line, column) = line_column(&body.as_bytes()[..offset.min(body.len())]);
        Location::at(shown, line + body_line - 1, column)
    };
    let blocks = markdown::islands(body).map_err(|wrong| {
        Diagnostic::new(format!(
            "`{}` in an island block is not a setting",
            wrong.line
        ))
        .at(at(wrong.offset))
        .help(
            "write one setting a line as `name: value`, such as `plan: annual` or `hydrate: idle`",
        )
    })?;
    Ok(blocks
        .into_iter()
        .map(|block| PageIsland {
            name: block.name,
            at: at(block.name_offset),
            settings: block
                .settings
                .into_iter()
                .map(|setting| PageIslandSetting {
                    key: setting.key,
                    key_at: at(setting.key_offset),
                    value: setting.value,
                    value_at: at(setting.value_offset),
                })
                .collect(),
        })
        .collect())
}

impl Fill for Site {
    fn fill(&mut self, values: &Values) {
        let Site {
            business,
            plans,
            chrome,
            home,
            faq,
            not_found,
            pages,
            derived: _,
        } = self;
        business.fill(values);
        plans.fill(values);
        chrome.fill(values);
        home.fill(values);
        faq.fill(values);
        not_found.fill(values);
        pages.fill(values);
    }
}

/// The 1-based line and column of the value of a nested key in block-style
/// YAML, for errors that concern several values at once (serde has no
/// positions left after parsing).
pub fn locate_key(text: &str, path: &[&str]) -> Option<(usize, usize)> {
    let mut depth = 0;
    let mut parent_indent: Option<usize> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if parent_indent.is_some_and(|parent| indent <= parent) {
            return None;
        }
        let key = path[depth];
        if let Some(rest) = trimmed.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
            if depth + 1 == path.len() {
                let value_offset = rest.len() - rest.trim_start().len();
                return Some((index + 1, indent + key.len() + 1 + value_offset + 1));
            }
            depth += 1;
            parent_indent = Some(indent);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_nested_keys() {
        let text = "monthly:\n  price: 25\nannual:\n  name: A\n  price: 250\n";
        assert_eq!(locate_key(text, &["annual", "price"]), Some((5, 10)));
        assert_eq!(locate_key(text, &["monthly", "price"]), Some((2, 10)));
        assert_eq!(locate_key(text, &["annual", "missing"]), None);
    }

    fn derived(monthly: u32, annual: u32) -> Result<Derived> {
        let plan = |price| format!("name: A\nprice: {price}\ncancellation: C\nfeatures: [F]\n");
        let text = format!(
            "monthly:\n  {}\nannual:\n  {}\n",
            plan(monthly).replace('\n', "\n  "),
            plan(annual).replace('\n', "\n  ")
        );
        let plans: Plans = yaml::parse(&text, Path::new("plans.yaml"), 0)?;
        derive(&plans, &text, Path::new("plans.yaml"))
    }

    #[test]
    fn free_months_are_claimed_only_when_the_prices_make_them_true() {
        let whole = derived(25, 250).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(whole.annual_saving, 50);
        assert_eq!(whole.whole_months, Some(WholeMonths { paid: 10, free: 2 }));
        assert_eq!(whole.annual_deal(), "pay for 10 months, get 2 free");
        assert_eq!(whole.annual_deal_short(), "2 months free");
        let one = derived(25, 275).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(one.annual_deal_short(), "1 month free");

        // The owner's first edit: the monthly price alone goes up.
        let raised = derived(30, 250).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(raised.annual_saving, 110);
        assert_eq!(raised.whole_months, None);
        assert_eq!(raised.annual_deal(), "save $110 a year");
        assert_eq!(raised.annual_deal_short(), "save $110 a year");

        // Any annual price that saves money builds, even below one month's.
        assert_eq!(
            derived(25, 20).map(|d| d.annual_deal()),
            Ok("save $280 a year".into())
        );
        // One that saves nothing does not.
        let err = derived(25, 300).unwrap_err();
        assert!(
            err.message
                .contains("must be less than 12 monthly payments"),
            "{err}"
        );
    }

    #[test]
    fn every_placeholder_has_a_value_but_whole_months_the_prices_do_not_give() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let source = Source {
            dir: &dir,
            shown: PathBuf::from("content"),
        };
        let (business, _) = source
            .yaml::<Business>("business.yaml")
            .unwrap_or_else(|e| panic!("{e}"));
        let (plans, _) = source
            .yaml::<Plans>("plans.yaml")
            .unwrap_or_else(|e| panic!("{e}"));
        for (derived, whole) in [(derived(25, 250), true), (derived(30, 250), false)] {
            let derived = derived.unwrap_or_else(|e| panic!("{e}"));
            let values = placeholders::values(&placeholders::Sources {
                business: &business,
                plans: &plans,
                derived: &derived,
            });
            for name in placeholders::names() {
                assert_eq!(
                    values.has(name),
                    whole || !placeholders::needs_whole_months(name),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn the_real_content_loads_with_its_derived_figures() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let site = load(&dir, Path::new("content")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            site.derived,
            Derived {
                annual_saving: 50,
                whole_months: Some(WholeMonths { paid: 10, free: 2 }),
            }
        );
        // Placeholders are filled in while loading: `Save {annual_saving}`
        // and `Yearly plan ({free_months} months free)`.
        assert_eq!(site.home.pricing.annual_badge.as_str(), "Save $50");
        assert_eq!(
            site.home.contact.promotion_options.annual.as_str(),
            "Yearly plan (2 months free)"
        );
        // Nor is any left anywhere (home.yaml, plans.yaml, faq.yaml and both
        // pages use them): the debug form prints every text of the site.
        let everything = format!("{site:?}");
        assert_eq!(placeholders::find(&everything).next(), None);
        let slugs: Vec<&str> = site.pages.iter().map(|p| p.slug.as_str()).collect();
        assert_eq!(slugs, ["privacypolicy", "start", "termsofservice"]);
        assert_eq!(site.faq.len(), 3);
    }
}

/// What the owner should still change before publishing, though the site
/// builds: each a warning line.
pub fn warnings(site: &Site) -> Vec<String> {
    let mut warnings = Vec::new();
    let business = &site.business;
    let missing: Vec<&str> = [
        ("street_address", business.street_address.is_none()),
        ("geo", business.geo.is_none()),
        ("opening_hours", business.opening_hours.is_none()),
    ]
    .into_iter()
    .filter_map(|(key, absent)| absent.then_some(key))
    .collect();
    if business.street_address.is_none() {
        warnings.push(format!(
            "content/business.yaml has no {}: Google's local business results require a street address and recommend the map position and opening hours; add them (see the end of business.yaml), or ignore this if the business has no address to show",
            missing.join(", ")
        ));
    }
    let footer_pages = site.footer_pages().count();
    if footer_pages > FOOTER_PAGES_LIMIT {
        warnings.push(format!(
            "content/pages/ has {footer_pages} pages linked from every page's footer (more than {FOOTER_PAGES_LIMIT}), so every page carries all {footer_pages} links and each page added makes every page larger; add the line `link: none` to the front matter (between the --- lines at the top) of the pages reached from your own text, and keep the footer for the few every visitor looks for, such as about, FAQ and legal pages"
        ));
    }
    let samples = sample_values(site);
    if !samples.is_empty() {
        warnings.push(format!(
            "content/business.yaml still has sample values for {}: replace them before publishing the site",
            samples.join(", ")
        ));
    }
    warnings
}

/// The business.yaml values still holding the repository's samples, which
/// must be replaced before the site is published. Samples use the names
/// reserved for examples: the `.example` domain and 555-01xx phone numbers.
pub fn sample_values(site: &Site) -> Vec<&'static str> {
    let business = &site.business;
    let mut samples = Vec::new();
    let example_domain = |text: &str| {
        text.split(['/', '@'])
            .any(|part| part == "example" || part.ends_with(".example"))
    };
    if example_domain(business.url.as_str()) {
        samples.push("url");
    }
    if business.phone.tel.get(5..9) == Some("5550") && business.phone.tel.get(9..10) == Some("1") {
        samples.push("phone");
    }
    if example_domain(business.email.as_str()) {
        samples.push("email");
    }
    if business.formspree_form_id.as_str().starts_with("xsample") {
        samples.push("formspree_form_id");
    }
    samples
}

#[cfg(test)]
mod sample_tests {
    use super::*;

    #[test]
    fn the_repository_content_is_all_samples() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let site = load(&dir, Path::new("content")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            sample_values(&site),
            ["url", "phone", "email", "formspree_form_id"]
        );
    }

    #[test]
    fn a_business_without_a_street_address_is_warned_about() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let mut site = load(&dir, Path::new("content")).unwrap_or_else(|e| panic!("{e}"));
        let first = |site: &Site| warnings(site).first().cloned().unwrap_or_default();
        assert!(
            first(&site).starts_with(
                "content/business.yaml has no street_address, geo, opening_hours: Google's"
            ),
            "{}",
            first(&site)
        );
        site.business.geo = Some(Geo {
            latitude: 44.3,
            longitude: -96.8,
        });
        assert!(
            first(&site).starts_with("content/business.yaml has no street_address, opening_hours:")
        );
        site.business.street_address = serde_yaml::from_str("1 Main Ave").ok();
        assert_eq!(warnings(&site).len(), 1, "only the sample values are left");
        assert!(!first(&site).contains("street_address"));
    }
}

#[cfg(test)]
mod footer_pages_tests {
    use super::*;

    /// The repository's content with `added` more pages, each linked as
    /// `link` says.
    fn site_with_pages(added: usize, link: PageLink) -> Site {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let mut site = load(&dir, Path::new("content")).unwrap_or_else(|e| panic!("{e}"));
        let mut page = site.pages[0].clone();
        page.meta.link = link;
        for n in 0..added {
            site.pages.push(Page {
                islands: Vec::new(),
                slug: format!("added-{n:04}"),
                ..page.clone()
            });
        }
        site
    }

    fn footer_warning(site: &Site) -> Option<String> {
        warnings(site)
            .into_iter()
            .find(|warning| warning.starts_with("content/pages/"))
    }

    #[test]
    fn more_pages_in_the_footer_than_the_limit_are_warned_about() {
        let over_by_one = FOOTER_PAGES_LIMIT + 1;
        let warning = footer_warning(&site_with_pages(over_by_one, PageLink::Footer));
        let start =
            format!("content/pages/ has {over_by_one} pages linked from every page's footer");
        assert!(
            warning
                .as_deref()
                .is_some_and(|warning| warning.starts_with(&start)
                    && warning.contains("add the line `link: none`")),
            "{warning:?}"
        );
    }

    #[test]
    fn pages_in_the_footer_up_to_the_limit_are_not_warned_about() {
        let at = site_with_pages(FOOTER_PAGES_LIMIT, PageLink::Footer);
        // The privacy policy and terms are not counted: they have links of
        // their own; nor is the door hangers' page, which says `link: none`.
        assert_eq!(
            at.pages.len(),
            FOOTER_PAGES_LIMIT + REQUIRED_PAGES.len() + 1
        );
        assert_eq!(footer_warning(&at), None);
        let unlinked = site_with_pages(FOOTER_PAGES_LIMIT * 10, PageLink::None);
        assert_eq!(footer_warning(&unlinked), None);
    }
}
