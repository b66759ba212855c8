//! What makes builds fast never makes them less correct, through the real
//! binary: Node's results are reused only while their inputs hash the same,
//! a build from the caches writes the same files as one without them, and
//! work spread over every core still reports the first mistake in name order.

use std::path::PathBuf;
use std::process::Output;

use crate::support::fixture::{Fixture, tree};

fn build(site: &Fixture, out: &str) -> (Output, String) {
    let output = site.build_into(out);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output, stderr)
}

fn built(site: &Fixture, out: &str) -> String {
    let (output, stderr) = build(site, out);
    assert!(output.status.success(), "build failed:\n{stderr}");
    stderr
}

/// Adds `count` short Markdown pages, `fine-000` on.
fn add_pages(site: &Fixture, count: usize) {
    for i in 0..count {
        site.write(
            &format!("content/pages/fine-{i:03}.md"),
            "---\ntitle: T\ndescription: D\n---\n\nHello.\n",
        );
    }
}

/// The island server's cache: Node writes its server module there on every
/// islands render it does.
fn island_server_cache(site: &Fixture) -> PathBuf {
    site.root().join("frontend/node_modules/.cache")
}

const BUNDLED: &str = "[island-server] bundled";

#[test]
fn a_build_with_nothing_changed_skips_node_and_writes_the_same_files() {
    let site = Fixture::copy_with_own_frontend();
    // Pages enough for several batches: the cold build holds them until Node
    // is done, the warm one writes each batch as it renders.
    add_pages(&site, 300);
    let cold = built(&site, "cold");
    assert!(cold.contains(BUNDLED), "the first build bundles:\n{cold}");
    assert!(island_server_cache(&site).is_dir());
    std::fs::remove_dir_all(island_server_cache(&site)).unwrap();

    let warm = built(&site, "warm");
    // The build has ended: had Node run, it would have bundled (and said
    // so) or rendered the islands (and written its cache) by now.
    assert!(!warm.contains("[island-server]"), "Node ran:\n{warm}");
    assert!(
        !island_server_cache(&site).exists(),
        "Node rendered islands"
    );
    let (cold, warm) = (
        tree(&site.root().join("cold")),
        tree(&site.root().join("warm")),
    );
    assert_eq!(
        cold.keys().collect::<Vec<_>>(),
        warm.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &cold {
        assert!(warm[path] == *bytes, "{} differs", path.display());
    }
}

#[test]
fn a_changed_source_or_prop_is_never_served_from_the_cache() {
    let site = Fixture::copy_with_own_frontend();
    built(&site, "dist");

    // Same bytes written again: a new timestamp, the same key.
    site.rewrite("frontend/src/entries/loader.ts", String::into_bytes);
    let again = built(&site, "dist");
    assert!(!again.contains(BUNDLED), "{again}");

    // Any change to a source is bundled again, even one esbuild drops.
    site.rewrite("frontend/src/entries/loader.ts", |text| {
        format!("{text}\n// edited\n").into_bytes()
    });
    let edited = built(&site, "dist");
    assert!(edited.contains(BUNDLED), "{edited}");

    // A price is a prop of the pricing island: its server HTML follows.
    let island = |site: &Fixture| {
        let html = std::fs::read_to_string(site.root().join("dist/index.html")).unwrap();
        let start = html
            .find("data-island=\"pricing\"")
            .expect("the pricing island");
        let end = html[start..].find("</script>").expect("its props") + start;
        html[start..end].to_string()
    };
    let monthly = |price: &str| format!("plan-card__amount\">${price}<");
    assert!(island(&site).contains(&monthly("25")), "{}", island(&site));
    site.replace("content/plans.yaml", "price: 25\n", "price: 50\n");
    built(&site, "dist");
    let html = island(&site);
    let (markup, props) = html.split_once("<script").unwrap();
    assert!(markup.contains(&monthly("50")), "{markup}");
    assert!(props.contains("\"amount\":50,"), "{props}");
}

#[test]
fn the_first_broken_page_in_name_order_is_reported() {
    // Loaded and rendered on every core, the pages still report as if one
    // at a time: the mistake in a.md, never the one in z.md.
    let site = Fixture::copy_of_project();
    let page = "---\ntitle: T\ndescription: D\n---\n\nHello {no_such_value}.\n";
    for name in ["a-broken", "m-broken", "z-broken"] {
        site.write(&format!("content/pages/{name}.md"), page);
    }
    add_pages(&site, 200);
    site.build_fails_at("content/pages/a-broken.md:6:7");
}

#[test]
fn a_late_page_failing_after_earlier_pages_were_written_leaves_dist_as_it_was() {
    // Written a batch at a time as soon as Node's work is known (at once on
    // a warm build): the pages before the late one are already in the
    // staging folder when it fails.
    let site = Fixture::copy_with_own_frontend();
    add_pages(&site, 600);
    site.write(
        "content/pages/zz-late.md",
        "---\ntitle: Late\ndescription: D\n---\n\nHello.\n",
    );
    built(&site, "dist");
    // Only the late page filters a value the build fills in after rendering.
    site.replace(
        "layouts/page.html",
        "<h1>{{ doc.title }}</h1>",
        "<h1>{{ doc.title }}</h1>{% if doc.title == \"Late\" %}{{ assets.nojs_css|upper }}{% endif %}",
    );
    let error = site.build_fails_at("layouts");
    assert!(error.contains("in zz-late.html,"), "{error}");
}
