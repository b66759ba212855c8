//! Content can never break out of where it lands: hostile text in every text
//! field of every content file is built into the site, and the pages, parsed
//! by a real HTML parser, hold exactly the elements the layouts put there,
//! with the text intact inside them.

use crate::support::fixture::Fixture;

use scraper::{Html, Selector};
use serde_yaml::Value;

/// Tries to close elements, attributes, comments and scripts, and to end a
/// JavaScript string (U+2028).
const PAYLOAD: &str =
    "<script>alert(\"x\")</script> </script><!-- --> \"q\" 'q' & \u{2028} <b>b</b>";

/// Keys whose values are typed (and checked), not free text.
const TYPED: &[&str] = &[
    "url",
    "phone",
    "email",
    "formspree_form_id",
    "postal_code",
    "zip_codes",
    "evening_route_start",
    "holiday_notice_hours",
    "price",
    "date",
];

fn poison(value: &mut Value) {
    match value {
        Value::Mapping(map) => {
            for (key, value) in map.iter_mut() {
                if !key.as_str().is_some_and(|k| TYPED.contains(&k)) {
                    poison(value);
                }
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(poison),
        Value::String(text) => text.push_str(PAYLOAD),
        _ => {}
    }
}

/// A copy of the project whose every text value ends with [`PAYLOAD`].
fn poisoned_project() -> Fixture {
    let fixture = Fixture::copy_of_project();
    fixture.with_frontend();
    let root = fixture.root();
    for entry in std::fs::read_dir(root.join("content")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let mut value: Value =
                serde_yaml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            poison(&mut value);
            std::fs::write(&path, serde_yaml::to_string(&value).unwrap()).unwrap();
        }
    }
    for entry in std::fs::read_dir(root.join("content/pages")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let text: String = text
            .lines()
            .map(|line| match line.split_once(": ") {
                Some((key @ ("title" | "description"), value)) => {
                    format!(
                        "{key}: '{}'\n",
                        format!("{value}{PAYLOAD}").replace('\'', "''")
                    )
                }
                _ => format!("{line}\n"),
            })
            .collect();
        std::fs::write(&path, format!("{text}\n{PAYLOAD}\n")).unwrap();
    }
    fixture
}

#[test]
fn hostile_content_stays_text_in_html_attributes_json_ld_and_island_props() {
    let project = poisoned_project();
    let out = project.root().join("dist");
    let output = project.build();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let scripts = Selector::parse("script").unwrap();
    let bold = Selector::parse("b").unwrap();
    let description = Selector::parse("meta[name=description]").unwrap();
    let title = Selector::parse("title").unwrap();
    for page in [
        "index.html",
        "privacypolicy.html",
        "termsofservice.html",
        "404.html",
    ] {
        let html = std::fs::read_to_string(out.join(page)).unwrap();
        let doc = Html::parse_document(&html);
        // No element came from content: no <b>, and only the layouts' scripts.
        assert_eq!(
            doc.select(&bold).count(),
            0,
            "{page}: content made an element"
        );
        let found: Vec<_> = doc.select(&scripts).collect();
        // The home page's scripts (loader, props, structured data) are what this checks; the
        // pages that place no island may have none.
        if page == "index.html" {
            assert!(!found.is_empty(), "{page}: no script to check");
        }
        for script in found {
            let attrs = script.value();
            let kind = attrs.attr("type").unwrap_or("");
            match kind {
                // The loader, the one script that runs: its text comes from frontend/, none
                // from content.
                "" => assert!(
                    attrs.attr("data-runtime").is_some() && !script.inner_html().contains("alert"),
                    "{page}: unexpected inline script {}",
                    script.html()
                ),
                "application/json" | "application/ld+json" => {
                    let json: serde_json::Value = serde_json::from_str(&script.inner_html())
                        .unwrap_or_else(|e| {
                            panic!("{page}: {kind} is not JSON after escaping: {e}")
                        });
                    assert!(
                        json.to_string().contains("alert"),
                        "{page}: payload missing from {kind}"
                    );
                }
                other => panic!("{page}: unexpected script type {other:?}"),
            }
        }
        // The minifier may fold white space in attributes (U+2028 counts);
        // what matters is that every character of the text is still text.
        let folded = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let meta = doc.select(&description).next().unwrap();
        let content = meta.value().attr("content").unwrap();
        assert!(
            folded(content).ends_with(&folded(PAYLOAD)),
            "{page}: description attribute {content:?}"
        );
        let title_text: String = doc.select(&title).next().unwrap().text().collect();
        assert!(title_text.contains(PAYLOAD), "{page}: title {title_text:?}");
    }
    let home = std::fs::read_to_string(out.join("index.html")).unwrap();
    let text: String = Html::parse_document(&home).root_element().text().collect();
    assert!(
        text.contains(PAYLOAD),
        "the payload is shown as text on the home page"
    );
}
