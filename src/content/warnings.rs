use super::site::{FOOTER_PAGES_LIMIT, Site};

/// What the owner should still change before publishing, though the site builds.
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

/// business.yaml's values still holding samples, which use names reserved for
/// examples: `.example` and 555-01xx.
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
mod tests {
    use std::path::Path;

    use super::*;
    use crate::content::{self, Geo, Page, PageLink, REQUIRED_PAGES};
    use crate::media::Library;

    fn real_site() -> Site {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
        let shown = Path::new("content");
        content::load(&dir, shown, &Library::new(&dir, shown, None))
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_repository_content_is_all_samples() {
        let site = real_site();
        assert_eq!(
            sample_values(&site),
            ["url", "phone", "email", "formspree_form_id"]
        );
    }

    #[test]
    fn a_business_without_a_street_address_is_warned_about() {
        let mut site = real_site();
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

    /// The repository's content and `added` pages linked as `link` says.
    fn site_with_pages(added: usize, link: PageLink) -> Site {
        let mut site = real_site();
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
        // The legal pages have their own links; the door hangers' page says
        // `link: none`.
        assert_eq!(
            at.pages.len(),
            FOOTER_PAGES_LIMIT + REQUIRED_PAGES.len() + 1
        );
        assert_eq!(footer_warning(&at), None);
        let unlinked = site_with_pages(FOOTER_PAGES_LIMIT * 10, PageLink::None);
        assert_eq!(footer_warning(&unlinked), None);
    }
}
