//! The share card through the real binary: a 1200×630 PNG under its hash,
//! small, referenced from every page for link previews and used as the
//! business's picture and logo in its structured data.

use crate::support::fixture::Fixture;
use scraper::{Html, Selector};
use serde_json::Value;

fn built(site: &Fixture, path: &str) -> String {
    std::fs::read_to_string(site.root().join("dist").join(path))
        .unwrap_or_else(|err| panic!("read {path}: {err}"))
}

fn meta(document: &Html, attribute: &str, name: &str) -> Option<String> {
    let selector = Selector::parse(&format!("meta[{attribute}=\"{name}\"]")).expect("a selector");
    document
        .select(&selector)
        .next()
        .and_then(|m| m.value().attr("content"))
        .map(str::to_string)
}

#[test]
fn every_page_shares_the_card_and_the_business_shows_it() {
    let site = Fixture::copy_of_project();
    site.with_frontend();
    site.build_ok();

    let home = Html::parse_document(&built(&site, "index.html"));
    let url = meta(&home, "property", "og:image").expect("og:image");
    let prefix = "https://curbside-brookings.example/assets/share-";
    assert!(url.starts_with(prefix) && url.ends_with(".png"), "{url}");
    for page in [
        "index.html",
        "privacypolicy.html",
        "termsofservice.html",
        "404.html",
    ] {
        let document = Html::parse_document(&built(&site, page));
        assert_eq!(
            meta(&document, "property", "og:image").as_deref(),
            Some(url.as_str()),
            "{page}"
        );
        assert_eq!(
            meta(&document, "property", "og:image:width").as_deref(),
            Some("1200")
        );
        assert_eq!(
            meta(&document, "property", "og:image:height").as_deref(),
            Some("630")
        );
        assert_eq!(
            meta(&document, "property", "og:image:alt").as_deref(),
            Some("Curbside Brookings: Your trash bins, at the curb on pickup day. $25 per month.")
        );
        assert_eq!(
            meta(&document, "name", "twitter:card").as_deref(),
            Some("summary_large_image")
        );
    }

    // A real PNG of that size, small enough for every link preview.
    let png = std::fs::read(
        site.root()
            .join("dist")
            .join(&url["https://curbside-brookings.example/".len()..]),
    )
    .expect("the card is in dist/");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (1200, 630));
    assert!(png.len() <= 150 * 1024, "{} bytes", png.len());

    let script = Selector::parse("script[type=\"application/ld+json\"]").expect("a selector");
    let business: Value = home
        .select(&script)
        .map(|s| serde_json::from_str::<Value>(&s.text().collect::<String>()).unwrap())
        .find(|v| v["@type"] == "LocalBusiness")
        .expect("LocalBusiness data");
    assert_eq!(business["image"], url.as_str());
    assert_eq!(business["logo"], url.as_str());
}

#[test]
fn the_card_follows_the_content_and_its_editable_layout() {
    let site = Fixture::copy_of_project();
    site.with_frontend();
    site.build_ok();
    let first = meta(
        &Html::parse_document(&built(&site, "index.html")),
        "property",
        "og:image",
    );

    // A rebuild with nothing changed keeps the same picture and name.
    site.build_ok();
    let again = meta(
        &Html::parse_document(&built(&site, "index.html")),
        "property",
        "og:image",
    );
    assert_eq!(again, first);

    // The price is drawn on it: a new price is a new picture.
    site.replace("content/plans.yaml", "price: 25\n", "price: 30\n");
    site.build_ok();
    let repriced = meta(
        &Html::parse_document(&built(&site, "index.html")),
        "property",
        "og:image",
    );
    assert_ne!(repriced, first);

    // A mistake in the owner's layout is reported like any other.
    site.replace("layouts/share-card.svg", "{{ price }}", "{{ prise }}");
    let output = site.build();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: layouts/share-card.svg:"),
        "{stderr}"
    );
}

#[test]
fn a_later_build_reads_the_card_its_inputs_drew_before() {
    let site = Fixture::copy_of_project();
    site.with_frontend();
    site.build_ok();
    let cache = site.root().join(".curbside/share-card");
    let cached: Vec<_> = std::fs::read_dir(&cache)
        .expect("the card is kept in .curbside/share-card")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
    // Marked, so the next build shows whether it drew the card or read it.
    let mut marked = std::fs::read(&cached[0]).expect("read the cached card");
    marked.extend_from_slice(b"read from the cache");
    std::fs::write(&cached[0], &marked).expect("mark the cached card");

    site.build_ok();
    let assets = site.root().join("dist/assets");
    let card = std::fs::read_dir(&assets)
        .expect("dist/assets")
        .map(|entry| entry.expect("an entry").path())
        .find(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            name.starts_with("share-") && name.ends_with(".png")
        })
        .expect("a share card");
    assert_eq!(std::fs::read(card).expect("read the card"), marked);
}
