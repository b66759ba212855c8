//! Islands placed anywhere, through the real build and `curbside check`: a
//! layout places one as often as it likes with `island("<name>", prop=…,
//! hydrate=…)`, a Markdown page with a fenced `island` block; each placement
//! has its own props, ids and moment, Node renders each distinct placement
//! once, a page that places none carries no script, and every mistake in a
//! placement is an error at its file, line and column.

use std::collections::BTreeSet;

use crate::support::fixture::Fixture;
use scraper::{Html, Selector};
use serde_json::Value;

const PRICING_SECTION: &str = "layouts/sections/pricing.html";

/// The home page with a second pricing toggle after the first, on the
/// yearly plan and hydrating when the browser is idle.
fn two_toggles() -> Fixture {
    let site = Fixture::copy_with_frontend();
    site.replace(
        PRICING_SECTION,
        "{{ islands.pricing }}\n",
        "{{ islands.pricing }}\n{{ island(\"pricing\", plan=\"annual\", hydrate=\"idle\") }}\n",
    );
    site
}

fn page(site: &Fixture, path: &str) -> Html {
    let text = std::fs::read_to_string(site.root().join("dist").join(path))
        .unwrap_or_else(|err| panic!("read {path}: {err}"));
    Html::parse_document(&text)
}

fn select<'a>(doc: &'a Html, selector: &str) -> Vec<scraper::ElementRef<'a>> {
    let parsed = Selector::parse(selector).unwrap_or_else(|_| panic!("selector {selector}"));
    doc.select(&parsed).collect()
}

fn props(doc: &Html, id: &str) -> Value {
    let script = select(doc, &format!("script#props-{id}"));
    assert_eq!(script.len(), 1, "one props-{id}");
    serde_json::from_str(&script[0].text().collect::<String>()).expect("props are JSON")
}

/// Every id on the page appears once, and every id a label or ARIA
/// attribute names is there.
fn ids_are_unique_and_found(doc: &Html) {
    let mut ids = BTreeSet::new();
    for element in select(doc, "[id]") {
        let id = element.value().id().unwrap_or_default();
        assert!(
            ids.insert(id.to_string()),
            "the id {id} is on the page twice"
        );
    }
    assert!(!ids.is_empty(), "no id on the page");
    let naming = select(doc, "[aria-labelledby], [aria-describedby], label[for]");
    assert!(!naming.is_empty(), "no label or ARIA attribute names an id");
    for element in naming {
        for attribute in ["aria-labelledby", "aria-describedby", "for"] {
            for id in element
                .value()
                .attr(attribute)
                .unwrap_or("")
                .split_whitespace()
            {
                assert!(
                    ids.contains(id),
                    "{attribute} names {id}, which is not on the page"
                );
            }
        }
    }
}

#[test]
fn a_layout_places_an_island_twice_each_with_its_props_ids_and_moment() {
    let site = two_toggles();
    site.build_ok();
    let home = page(&site, "index.html");
    let toggles = select(&home, "[data-island=pricing]");
    let placed: Vec<(&str, &str)> = toggles
        .iter()
        .map(|el| {
            (
                el.value().attr("data-placement").unwrap_or_default(),
                el.value().attr("data-hydrate").unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(placed, [("pricing", "visible"), ("pricing_2", "idle")]);
    // Each has its own props: the content's, and the content's with the plan laid over them.
    let first = props(&home, "pricing");
    let second = props(&home, "pricing_2");
    assert_eq!(first["plan"], Value::Null);
    assert_eq!(second["plan"], "annual");
    assert_eq!(first["plans"], second["plans"]);
    // Server-rendered from those props: the second shows its plan without JavaScript.
    let shown: Vec<&str> = select(&home, "[data-island=pricing] [data-current-plan]")
        .iter()
        .map(|el| el.value().attr("data-current-plan").unwrap_or_default())
        .collect();
    assert_eq!(shown, ["monthly", "annual"]);
    ids_are_unique_and_found(&home);
}

#[test]
fn every_placement_names_its_islands_files_its_own_chunk_first_then_the_shared_ones() {
    let site = two_toggles();
    site.build_ok();
    let home = page(&site, "index.html");
    let placements = select(&home, "[data-island]");
    assert_eq!(placements.len(), 3, "two toggles and the form");
    let mut shared: Option<BTreeSet<String>> = None;
    for element in placements {
        let name = element.value().attr("data-island").unwrap_or_default();
        let files: Vec<&str> = element
            .value()
            .attr("data-files")
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        assert!(files.len() >= 2, "{name} names {files:?}");
        assert!(
            files[0].starts_with(&format!("/assets/{name}-")),
            "{name}'s own chunk first: {files:?}"
        );
        for file in &files {
            assert!(
                site.root().join("dist").join(&file[1..]).is_file(),
                "{name} names {file}, which the build did not write"
            );
        }
        // React's chunk and the rest: the same files for every island.
        let rest: BTreeSet<String> = files[1..].iter().map(|f| f.to_string()).collect();
        assert_eq!(shared.get_or_insert_with(|| rest.clone()), &rest);
    }
}

#[test]
fn node_renders_each_distinct_placement_once() {
    let site = two_toggles();
    // The same placement on a second page is the same render.
    site.replace(
        "layouts/page.html",
        "{{ doc.body_html }}\n",
        "{{ doc.body_html }}\n{{ island(\"pricing\", plan=\"annual\", hydrate=\"idle\") }}\n",
    );
    site.build_ok();
    let stored = std::fs::read_to_string(site.root().join(".curbside/node/islands.json"))
        .expect("the islands' cache");
    let stored: Value = serde_json::from_str(&stored).expect("the cache is JSON");
    let renders = stored["value"]
        .as_object()
        .map_or(0, |renders| renders.len());
    // pricing and contact as the content places them; pricing on the yearly plan first on
    // the legal pages (its id there is `pricing`) and second on the home page (`pricing_2`);
    // the door hangers' form on the yearly plan.
    assert_eq!(renders, 5, "{stored:#}");
    let terms = page(&site, "termsofservice.html");
    assert_eq!(props(&terms, "pricing")["plan"], "annual");
}

#[test]
fn the_door_hanger_page_holds_the_form_on_the_yearly_plan_without_javascript() {
    let site = Fixture::copy_with_frontend();
    site.build_ok();
    let start = page(&site, "start.html");
    assert_eq!(
        select(&start, "h1")[0].text().collect::<String>(),
        "Welcome, neighbor"
    );
    let form = select(&start, "main [data-island=contact] form");
    assert_eq!(form.len(), 1, "the sign-up form is on the page");
    assert_eq!(props(&start, "contact")["plan"], "annual");
    let selected: Vec<String> = select(&start, "select[name=promotion] option[selected]")
        .iter()
        .map(|o| o.value().attr("value").unwrap_or_default().to_string())
        .collect();
    assert_eq!(selected, ["Yearly plan (2 months free)"]);
    let fields: Vec<&str> = ["plan_type", "plan_amount", "billing_frequency"]
        .iter()
        .map(|name| {
            select(&start, &format!("input[name={name}]"))[0]
                .value()
                .attr("value")
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(fields, ["annual", "250", "yearly"]);
    ids_are_unique_and_found(&start);
    // Not in the footer of any page.
    for path in ["index.html", "privacypolicy.html", "start.html", "404.html"] {
        let doc = page(&site, path);
        assert!(
            select(&doc, "footer a[href='/start']").is_empty(),
            "{path} links to /start in its footer"
        );
    }
}

#[test]
fn a_page_that_places_no_island_carries_no_script() {
    let site = Fixture::copy_with_frontend();
    site.build_ok();
    for path in ["privacypolicy.html", "termsofservice.html", "404.html"] {
        let doc = page(&site, path);
        assert!(select(&doc, "[data-island]").is_empty(), "{path}");
        assert!(
            select(&doc, "script").is_empty(),
            "{path} holds a script: {}",
            doc.html()
        );
    }
    // A page with islands still starts them; nothing fetches their code before a visitor engages.
    let home = page(&site, "index.html");
    assert_eq!(select(&home, "script[data-runtime]").len(), 1);
    assert!(select(&home, "head script:not([type])").is_empty());
}

/// Runs `curbside check` on the fixture; returns its stderr from the first
/// `error:` line, and checks that it failed at `at` with a help line.
fn check_fails_at(site: &Fixture, at: &str) -> String {
    let output = site.check();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let error = &stderr[stderr.find("error: ").unwrap_or(0)..];
    assert!(error.starts_with(&format!("error: {at}: ")), "{stderr}");
    assert!(error.contains("\n  help: "), "{stderr}");
    error.to_string()
}

/// A mistake in a placement, reported alike by the build and the check.
fn fails_at(site: &Fixture, at: &str, says: &str) {
    let built = site.build_fails_at(at);
    assert!(built.contains(says), "{built}");
    let checked = check_fails_at(site, at);
    assert!(checked.contains(says), "{checked}");
}

#[test]
fn a_mistake_in_a_layouts_placement_is_reported_where_it_is_written() {
    for (call, says) in [
        (
            "island(\"pricng\")",
            "there is no island `pricng`\n  help: did you mean `pricing`?",
        ),
        (
            "island(\"pricing\", plann=\"annual\")",
            "the island `pricing` has no prop `plann`\n  help: did you mean `plan`?",
        ),
        (
            "island(\"pricing\", toggleLabel=3)",
            "the prop `toggleLabel` of the island `pricing` is text, not a number",
        ),
        (
            "island(\"pricing\", plan=\"yearly\")",
            "cannot be \"yearly\": unknown variant `yearly`, expected `monthly` or `annual`",
        ),
        (
            "island(\"pricing\", hydrate=\"soon\")",
            "`soon` is not a moment to hydrate",
        ),
    ] {
        let site = Fixture::copy_with_frontend();
        site.replace(
            PRICING_SECTION,
            "{{ islands.pricing }}\n",
            &format!("{{{{ islands.pricing }}}}\n  {{{{ {call} }}}}\n"),
        );
        fails_at(&site, &format!("{PRICING_SECTION}:6:6"), says);
    }
}

#[test]
fn a_mistake_in_a_markdown_placement_is_reported_where_it_is_written() {
    const START: &str = "content/pages/start.md";
    for (old, new, at, says) in [
        (
            "```island contact",
            "```island contakt",
            "14:11",
            "there is no island `contakt`",
        ),
        (
            "plan: annual",
            "promo: annual",
            "15:1",
            "the island `contact` has no prop `promo`",
        ),
        (
            "plan: annual",
            "plan: yearly",
            "15:7",
            "unknown variant `yearly`",
        ),
        (
            "plan: annual",
            "plan: annual\nheading: 5",
            "16:10",
            "the prop `heading` of the island `contact` is text, not a number",
        ),
        (
            "plan: annual",
            "plan: annual\n  hydrate: later",
            "16:12",
            "`later` is not a moment to hydrate",
        ),
        (
            "plan: annual",
            "the yearly plan",
            "15:1",
            "`the yearly plan` in an island block is not a setting",
        ),
    ] {
        let site = Fixture::copy_with_frontend();
        site.replace(START, old, new);
        fails_at(&site, &format!("{START}:{at}"), says);
    }
}

#[test]
fn an_island_with_fixed_ids_placed_twice_on_a_page_is_refused() {
    // The form's fields have ids of their own (the form service's names), so two forms on
    // one page would share them.
    let site = Fixture::copy_with_frontend();
    site.replace(
        "layouts/sections/contact.html",
        "{{ islands.contact }}\n",
        "{{ islands.contact }}\n{{ island(\"contact\", plan=\"annual\") }}\n",
    );
    let stderr = site.build_fails_at("layouts");
    assert!(
        stderr.contains("in index.html, the island `contact` is placed twice, and both hold an element with the id `contact-heading`"),
        "{stderr}"
    );
}

#[test]
fn an_island_that_reads_no_props_needs_no_registry_entry_and_gets_none() {
    let site = Fixture::copy_with_own_frontend();
    site.write(
        "frontend/src/islands/wave.tsx",
        "export default function Wave() {\n  return <button type=\"button\">Wave</button>;\n}\n",
    );
    site.replace(
        PRICING_SECTION,
        "{{ islands.pricing }}\n",
        "{{ islands.pricing }}\n{{ islands.wave }}\n",
    );
    site.build_ok();
    let home = page(&site, "index.html");
    assert_eq!(props(&home, "wave"), serde_json::json!({}));
}
