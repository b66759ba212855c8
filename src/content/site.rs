//! The whole site's content as one value, and what every page links to.

use super::derived::Derived;
use super::fill::{Fill, Values};
use super::model::{Business, Chrome, FaqEntry, Home, NotFound, Page, PageLink, Plans};

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
