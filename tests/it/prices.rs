//! Prices the owner may set freely: the real binary builds the site with
//! other prices, and what each page claims about the annual plan is true.

use crate::support::fixture::Fixture;

/// The text of the built page at `path`'s body, tags removed and spaces
/// collapsed (a Markdown paragraph keeps its line breaks).
fn page_text(site: &Fixture, path: &str) -> String {
    let html = std::fs::read_to_string(site.root().join("dist").join(path))
        .unwrap_or_else(|err| panic!("read {path}: {err}"));
    let document = scraper::Html::parse_document(&html);
    let body = scraper::Selector::parse("body").expect("a selector");
    let text: String = document.select(&body).flat_map(|b| b.text()).collect();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn build_with_prices(monthly: u32, annual: u32) -> Fixture {
    let site = Fixture::copy_of_project();
    site.with_frontend();
    site.replace(
        "content/plans.yaml",
        "price: 25\n",
        &format!("price: {monthly}\n"),
    );
    site.replace(
        "content/plans.yaml",
        "price: 250\n",
        &format!("price: {annual}\n"),
    );
    site.build_ok();
    site
}

#[test]
fn raising_only_the_monthly_price_builds_and_claims_no_free_months() {
    let site = build_with_prices(30, 250);
    let home = page_text(&site, "index.html");
    let terms = page_text(&site, "termsofservice.html");
    for text in [&home, &terms] {
        for claim in ["months free", "month free", ", get "] {
            assert!(!text.contains(claim), "free months claimed: {text}");
        }
    }
    // 12 × $30 − $250: the saving, said in every place the free months were.
    assert!(home.contains("Save $110"), "the pricing badge: {home}");
    assert!(
        home.contains("Save $110 a year"),
        "the annual plan's feature"
    );
    assert!(
        home.contains("Yearly plan (save $110 a year)"),
        "the form's option"
    );
    assert!(terms.contains("$30 per month"), "{terms}");
    assert!(terms.contains("(save $110 a year)"), "{terms}");
}

#[test]
fn whole_months_are_still_told_as_free_months() {
    let site = build_with_prices(30, 300);
    let home = page_text(&site, "index.html");
    assert!(home.contains("Pay for 10 months, get 2 free"), "{home}");
    assert!(home.contains("Yearly plan (2 months free)"), "{home}");
    assert!(home.contains("Save $60"), "{home}");
    let terms = page_text(&site, "termsofservice.html");
    assert!(terms.contains("(pay for 10 months, get 2 free)"), "{terms}");
}
