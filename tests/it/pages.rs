//! Pages the owner adds: the real binary builds a site with a new Markdown
//! page, which is linked from every page's footer (unless its front matter
//! says otherwise), listed in the sitemap, and given its title and
//! description.

use crate::support::fixture::Fixture;
use scraper::{Html, Selector};

fn built(site: &Fixture, path: &str) -> String {
    std::fs::read_to_string(site.root().join("dist").join(path))
        .unwrap_or_else(|err| panic!("read {path}: {err}"))
}

/// Each footer link's address and words on the built page at `path`.
fn footer_links(site: &Fixture, path: &str) -> Vec<(String, String)> {
    let document = Html::parse_document(&built(site, path));
    let links = Selector::parse("footer nav a").expect("a selector");
    document
        .select(&links)
        .map(|a| {
            let href = a.value().attr("href").unwrap_or_default().to_string();
            (href, a.text().collect::<String>().trim().to_string())
        })
        .collect()
}

#[test]
fn an_added_page_is_linked_from_every_footer_and_listed_in_the_sitemap() {
    let site = Fixture::copy_of_project();
    site.with_frontend();
    site.write(
        "content/pages/about.md",
        "---\ntitle: About Us\ndescription: Who rolls your bins in {city}.\n---\n\nWe are neighbours.\n",
    );
    site.write(
        "content/pages/route-map.md",
        "---\ntitle: Our route\ndescription: Where the evening route goes.\nlink: none\n---\n\nSee [about us](/about).\n",
    );
    site.write(
        "content/pages/careers.md",
        "---\ntitle: Work with us on the evening route\ndescription: Jobs.\nlink_text: Jobs\n---\n\nWe are hiring.\n",
    );
    site.build_ok();

    let expected = [
        ("/about", "About Us"),
        ("/careers", "Jobs"),
        ("/privacypolicy", "Privacy Policy"),
        ("/termsofservice", "Terms of Service"),
    ]
    .map(|(href, text)| (href.to_string(), text.to_string()));
    for page in ["index.html", "about.html", "privacypolicy.html", "404.html"] {
        assert_eq!(footer_links(&site, page), expected, "the footer of {page}");
    }

    let about = Html::parse_document(&built(&site, "about.html"));
    let title = Selector::parse("title").expect("a selector");
    let description = Selector::parse("meta[name=description]").expect("a selector");
    let title: String = about.select(&title).flat_map(|t| t.text()).collect();
    assert_eq!(title, "About Us | Curbside Brookings");
    let description = about
        .select(&description)
        .next()
        .and_then(|m| m.value().attr("content"));
    assert_eq!(description, Some("Who rolls your bins in Brookings."));

    let sitemap = built(&site, "sitemap.xml");
    for slug in ["about", "careers", "route-map"] {
        assert!(sitemap.contains(&format!("/{slug}</loc>")), "{sitemap}");
    }
}

#[test]
fn without_added_pages_the_footer_is_as_before() {
    let site = Fixture::copy_of_project();
    site.with_frontend();
    site.build_ok();
    let links = footer_links(&site, "index.html");
    let hrefs: Vec<&str> = links.iter().map(|(href, _)| href.as_str()).collect();
    assert_eq!(hrefs, ["/privacypolicy", "/termsofservice"]);
    let document = Html::parse_document(&built(&site, "index.html"));
    let nav = Selector::parse("footer nav").expect("a selector");
    let label = document
        .select(&nav)
        .next()
        .and_then(|n| n.value().attr("aria-label"));
    assert_eq!(label, Some("Legal"));
}
