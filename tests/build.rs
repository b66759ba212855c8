//! The real binary on the real content: `curbside build` writes the whole
//! site, and what it writes is what the spec asks for.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn curbside(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_curbside"))
        .args(args)
        .output()
        .expect("the curbside binary runs")
}

/// Builds the repository's own site into a fresh temporary folder.
fn build_real_site() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("dist");
    let root = repo();
    let output = curbside(&["build", "--root", root.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "build failed:\n{stderr}");
    assert!(stderr.contains("Built "), "{stderr}");
    (dir, out)
}

fn read(out: &Path, path: &str) -> String {
    std::fs::read_to_string(out.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn assets(out: &Path, prefix: &str, ext: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(out.join("assets"))
        .expect("assets folder")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix) && n.ends_with(ext))
        .collect();
    names.sort();
    names
}

#[test]
fn builds_every_page_and_file_of_the_site() {
    let (_dir, out) = build_real_site();
    for file in [
        "index.html",
        "privacypolicy.html",
        "termsofservice.html",
        "404.html",
        "sitemap.xml",
        "robots.txt",
        "_headers",
    ] {
        assert!(out.join(file).is_file(), "{file} missing");
    }
    assert_eq!(assets(&out, "site-", ".css").len(), 1);
    assert_eq!(assets(&out, "islands-", ".js").len(), 1);
    let sitemap = read(&out, "sitemap.xml");
    assert!(sitemap.contains("<loc>https://curbside-brookings.example/</loc>"));
    assert!(sitemap.contains("<loc>https://curbside-brookings.example/privacypolicy</loc><lastmod>2025-08-25</lastmod>"));
    assert!(!sitemap.contains("404"));
    assert!(read(&out, "robots.txt").contains("Sitemap: https://curbside-brookings.example/sitemap.xml"));
}

#[test]
fn the_home_page_has_every_section_in_order_as_static_html() {
    let (_dir, out) = build_real_site();
    let html = read(&out, "index.html");
    let positions: Vec<usize> = [
        "id=\"hero-heading\"",
        "id=\"how-it-works\"",
        "id=\"pricing\"",
        "id=\"faq\"",
        "id=\"contact\"",
    ]
    .iter()
    .map(|id| html.find(id).unwrap_or_else(|| panic!("{id} missing")))
    .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "sections out of order: {positions:?}");
    for text in [
        "Start Service",
        "Schedule",
        "Evening route after 6 pm",
        "Enjoy your time",
        "Start Monthly",
        "Start Annual",
        "$250",
        "Save $50",
        "Promotions cannot be combined.",
        "Just Curious",
        "Yearly plan (2 months free)",
        "(605) 555-0142",
        "href=\"tel:+16055550142\"",
        "href=\"mailto:hello@curbside-brookings.example\"",
        "<a class=\"skip-link\" href=\"#main\">",
    ] {
        assert!(html.contains(text), "home page lacks {text:?}");
    }
    assert_eq!(html.matches("<details class=\"faq__item\">").count(), 3);
}

#[test]
fn the_contact_form_posts_to_the_form_service_without_javascript() {
    let (_dir, out) = build_real_site();
    let html = read(&out, "index.html");
    assert!(html.contains("action=\"https://formspree.io/f/xsample1\""), "form action");
    for name in [
        "firstName",
        "lastName",
        "address",
        "city",
        "state",
        "zip",
        "email",
        "phone",
        "promotion",
        "plan_type",
        "plan_amount",
        "billing_frequency",
        "_gotcha",
    ] {
        assert!(html.contains(&format!("name=\"{name}\"")), "field {name} missing");
    }
}

#[test]
fn pages_carry_no_inline_script_and_escaped_structured_data() {
    let (_dir, out) = build_real_site();
    for page in ["index.html", "privacypolicy.html", "termsofservice.html", "404.html"] {
        let html = read(&out, page);
        for (at, _) in html.match_indices("<script") {
            let tag = &html[at..at + html[at..].find('>').unwrap()];
            let allowed = tag.contains(" src=")
                || tag.contains("type=\"application/json\"")
                || tag.contains("type=\"application/ld+json\"");
            assert!(allowed, "{page}: inline script {tag}");
        }
    }
    let html = read(&out, "index.html");
    let start = html.find("<script type=\"application/ld+json\">").unwrap() + 35;
    let json = &html[start..start + html[start..].find("</script>").unwrap()];
    let data: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(data["@type"], "LocalBusiness");
    assert_eq!(data["makesOffer"][1]["price"], "250");
    let headers = read(&out, "_headers");
    assert!(headers.contains("Content-Security-Policy: default-src 'self'; script-src 'self';"));
    assert!(!headers.contains("unsafe-inline"));
}

#[test]
fn a_second_build_writes_the_same_site() {
    let (_a, first) = build_real_site();
    let (_b, second) = build_real_site();
    for entry in walkdir::WalkDir::new(&first) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(&first).unwrap();
            let other = std::fs::read(second.join(relative)).unwrap_or_default();
            assert!(std::fs::read(entry.path()).unwrap() == other, "{} differs", relative.display());
        }
    }
}

#[test]
fn help_explains_each_command_and_flag() {
    let output = curbside(&["--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(help.contains("build"), "{help}");
    let output = curbside(&["build", "--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains("--out <DIR>") && help.contains("Where to write the site"), "{help}");
}

#[test]
fn a_project_without_content_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let output = curbside(&["build", "--root", dir.path().to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr.starts_with("error: content/business.yaml: this file is missing"), "{stderr}");
    assert!(!dir.path().join("dist").exists());
}
