use super::derived::Derived;
use super::fill::{Fill, Values};
use super::model::{Business, Chrome, FaqEntry, Home, NotFound, Page, PageLink, Plans};

/// Under content/; the pictures pages place are found from it.
pub const PAGES_FOLDER: &str = "pages";

/// The site itself links to them.
pub const REQUIRED_PAGES: &[&str] = &["privacypolicy", "termsofservice"];

/// Validated, placeholders filled in.
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
    /// Added pages linked from every footer (the default), in file name order;
    /// the legal pages have their own links.
    pub fn footer_pages(&self) -> impl Iterator<Item = &Page> {
        self.pages
            .iter()
            .filter(|page| page.meta.link == PageLink::Footer)
            .filter(|page| !REQUIRED_PAGES.contains(&page.slug.as_str()))
    }
}

/// Added pages the footer links before the build warns. What an owner adds by
/// hand stays under it, a list a reader can scan, about half a kilobyte a page.
/// As every page carries every footer link, past it the site grows with the
/// square of its pages (45 KB of links a page at 1,000 pages).
pub const FOOTER_PAGES_LIMIT: usize = 12;

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
