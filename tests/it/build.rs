//! The real binary on the real content: `curbside build` writes the whole
//! site, and what it writes is what the site must hold.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use scraper::{Html, Selector};

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
    build_real_site_with(&[])
}

/// The same, with more arguments (`--hosting nginx`).
fn build_real_site_with(args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("dist");
    let root = repo();
    let mut all = vec![
        "build",
        "--root",
        root.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    all.extend(args);
    let output = curbside(&all);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "build failed:\n{stderr}");
    assert!(stderr.contains("Built "), "{stderr}");
    (dir, out)
}

/// The elements of `html` matching `selector`, as a parsed document sees them.
fn select<'a>(doc: &'a Html, selector: &str) -> Vec<scraper::ElementRef<'a>> {
    let selector = Selector::parse(selector).unwrap_or_else(|e| panic!("{selector}: {e}"));
    doc.select(&selector).collect()
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

/// V8's magic comment: compile every function of the file eagerly, off the main thread.
const COMPILE_HINT: &str = "//# allFunctionsCalledOnLoad\n";

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
    assert_eq!(assets(&out, "nojs-", ".css").len(), 1);
    assert_eq!(assets(&out, "islands-", ".js").len(), 1);
    // The island chunks, React's above all, ask Chromium to compile them as they stream in; the
    // runtime, on every page and within its 2 KB, does without.
    let chunks = assets(&out, "chunk-", ".js");
    assert!(!chunks.is_empty());
    for chunk in chunks.iter().chain(&assets(&out, "pricing-", ".js")) {
        let code = read(&out, &format!("assets/{chunk}"));
        assert!(
            code.starts_with(COMPILE_HINT),
            "{chunk} lacks the compile hint"
        );
    }
    let runtime = &assets(&out, "islands-", ".js")[0];
    assert!(!read(&out, &format!("assets/{runtime}")).contains(COMPILE_HINT));
    let sitemap = read(&out, "sitemap.xml");
    assert!(sitemap.contains("<loc>https://curbside-brookings.example/</loc>"));
    assert!(sitemap.contains(
        "<loc>https://curbside-brookings.example/privacypolicy</loc><lastmod>2025-08-25</lastmod>"
    ));
    assert!(!sitemap.contains("404"));
    assert!(
        read(&out, "robots.txt")
            .contains("Sitemap: https://curbside-brookings.example/sitemap.xml")
    );
}

#[test]
fn the_home_page_has_every_section_in_order_as_static_html() {
    let (_dir, out) = build_real_site();
    let html = read(&out, "index.html");
    let doc = Html::parse_document(&html);
    let sections: Vec<String> = select(&doc, "main > section")
        .iter()
        .map(|s| {
            s.value()
                .id()
                .or(s.value().attr("aria-labelledby"))
                .unwrap_or("")
                .to_string()
        })
        .collect();
    assert_eq!(
        sections,
        ["hero-heading", "how-it-works", "pricing", "faq", "contact"]
    );
    let text: String = doc.root_element().text().collect();
    for expected in [
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
    ] {
        assert!(text.contains(expected), "home page lacks {expected:?}");
    }
    assert!(
        select(&doc, "a[href='tel:+16055550142']").len() >= 2,
        "phone links in the contact section and the footer"
    );
    assert!(!select(&doc, "a[href='mailto:hello@curbside-brookings.example']").is_empty());
    assert_eq!(select(&doc, "a.skip-link[href='#main']").len(), 1);
    assert_eq!(select(&doc, "#faq details.faq__item").len(), 3);
    let hero_link = select(&doc, ".hero a")[0];
    assert_eq!(hero_link.value().attr("href"), Some("#contact"));
}

/// What the form sends without JavaScript (every field, the hidden plan
/// fields, the action) is checked by a real native post in the browser tests
/// (no-javascript.spec.ts); here, what that post cannot show.
#[test]
fn the_contact_forms_fields_are_required_and_its_promotions_listed_in_the_static_html() {
    let (_dir, out) = build_real_site();
    let doc = Html::parse_document(&read(&out, "index.html"));
    assert_eq!(select(&doc, "#contact form").len(), 1);
    // The required fields travel in the island's props, from the one list
    // the preview's stand-in for the form service checks too; the server
    // HTML marks exactly those.
    let props: serde_json::Value = serde_json::from_str(
        &select(&doc, "script#props-contact")[0]
            .text()
            .collect::<String>(),
    )
    .expect("the contact island's props are JSON");
    let required: Vec<&str> = props["requiredFields"]
        .as_array()
        .expect("the contact island's props list the required fields")
        .iter()
        .map(|name| name.as_str().expect("a field name"))
        .collect();
    let listed: Vec<String> = curbside::islands::contact::REQUIRED_FIELDS
        .iter()
        .map(|field| field.name())
        .collect();
    assert_eq!(required, listed);
    let mut marked: Vec<&str> = select(&doc, "#contact form [name]")
        .iter()
        .filter(|field| field.value().attr("required").is_some())
        .map(|field| field.value().attr("name").unwrap_or_default())
        .collect();
    let mut required = required;
    marked.sort();
    required.sort();
    assert_eq!(marked, required, "the fields marked required");
    let options: Vec<(String, String)> = select(&doc, "[name='promotion'] option")
        .iter()
        .map(|o| {
            (
                o.value().attr("value").unwrap_or("").to_string(),
                o.text().collect(),
            )
        })
        .collect();
    assert_eq!(
        options,
        [
            ("None".into(), "Just Curious".into()),
            ("Monthly plan".into(), "Monthly plan".into()),
            (
                "Yearly plan (2 months free)".into(),
                "Yearly plan (2 months free)".into()
            ),
        ]
    );
}

#[test]
fn inline_code_is_only_the_hashed_stylesheet_and_scripts_and_structured_data_is_escaped() {
    let (_dir, out) = build_real_site();
    let headers = read(&out, "_headers");
    assert!(!headers.contains("unsafe-inline"));
    let csp_hash = curbside::output::headers::csp_hash;
    let script_src = header_policy(&out)
        .into_iter()
        .find(|directive| directive.starts_with("script-src "))
        .expect("a script-src directive");
    for page in [
        "index.html",
        "privacypolicy.html",
        "termsofservice.html",
        "404.html",
    ] {
        let html = read(&out, page);
        let doc = Html::parse_document(&html);
        // Data blocks, and one script: the loader, which starts the runtime named by its
        // attribute. Nothing in the head fetches the islands' code before a visitor engages.
        let code: Vec<_> = select(&doc, "script")
            .into_iter()
            .filter(|script| {
                !matches!(
                    script.value().attr("type"),
                    Some("application/json" | "application/ld+json")
                )
            })
            .collect();
        // The bytes as written: a parser's re-serialization may differ from them.
        let between = |open: &str, close: &str| {
            let start = html.find(open).unwrap() + open.len();
            html[start..start + html[start..].find(close).unwrap()].to_string()
        };
        // Only a page that places islands has their scripts; the others run no code.
        let has_islands = !select(&doc, "[data-island]").is_empty();
        assert_eq!(has_islands, page == "index.html", "{page}");
        assert_eq!(code.len(), usize::from(has_islands), "{page}: {code:?}");
        if has_islands {
            let runtime = code[0].value().attr("data-runtime").expect("data-runtime");
            assert!(
                out.join(runtime.trim_start_matches('/')).is_file(),
                "{page}: {runtime}"
            );
            assert!(
                code.iter()
                    .all(|script| script.value().attr("src").is_none())
            );
            let loader = between(&format!("<script data-runtime=\"{runtime}\">"), "</script>");
            assert!(loader.contains("PerformanceObserver"), "{page}: {loader}");
            // Allowed by exactly its own hash.
            let mut allowed: Vec<&str> = script_src.split_whitespace().skip(1).collect();
            allowed.sort_unstable();
            let mut hashes = vec!["'self'".to_string(), csp_hash(&loader)];
            hashes.sort_unstable();
            assert_eq!(allowed, hashes, "{page}: {script_src}");
        }
        let css = between("<style>", "</style>");
        assert_eq!(select(&doc, "style").len(), 1, "{page}");
        assert!(
            headers.contains(&format!("style-src 'self' {};", csp_hash(&css))),
            "{page}: stylesheet hash not in {headers}"
        );
        // Minified: no comments, no line breaks.
        assert!(
            !css.contains("/*") && !css.contains('\n'),
            "{page}: {css:.200}"
        );
        assert!(
            css.contains(".pricing__switch"),
            "islands.css is part of it"
        );
    }
    let doc = Html::parse_document(&read(&out, "index.html"));
    let blocks: Vec<serde_json::Value> = select(&doc, "script[type='application/ld+json']")
        .iter()
        .map(|s| serde_json::from_str(&s.inner_html()).expect("JSON-LD parses"))
        .collect();
    assert_eq!(blocks[0]["@type"], "LocalBusiness");
    assert_eq!(blocks[0]["makesOffer"][1]["price"], "250");
    assert_eq!(blocks[1]["@type"], "FAQPage");
    assert_eq!(blocks[1]["mainEntity"].as_array().map(Vec::len), Some(3));
}

/// The policy of `_headers`, directive by directive.
fn header_policy(out: &Path) -> Vec<String> {
    let headers = read(out, "_headers");
    let policy = headers
        .lines()
        .find_map(|line| line.trim().strip_prefix("Content-Security-Policy:"))
        .expect("a Content-Security-Policy in _headers");
    policy.split(';').map(|d| d.trim().to_string()).collect()
}

#[test]
fn every_page_carries_the_header_policy_in_a_meta_except_frame_ancestors() {
    let (_dir, out) = build_real_site();
    let header = header_policy(&out);
    assert!(
        header.iter().any(|d| d == "frame-ancestors 'none'"),
        "{header:?}"
    );
    let expected: Vec<&String> = header
        .iter()
        .filter(|d| !d.starts_with("frame-ancestors"))
        .collect();
    for page in [
        "index.html",
        "privacypolicy.html",
        "termsofservice.html",
        "404.html",
    ] {
        let html = read(&out, page);
        let doc = Html::parse_document(&html);
        let metas = select(&doc, "meta[http-equiv='Content-Security-Policy']");
        assert_eq!(metas.len(), 1, "{page}");
        let meta: Vec<String> = metas[0]
            .value()
            .attr("content")
            .unwrap()
            .split(';')
            .map(|d| d.trim().to_string())
            .collect();
        assert_eq!(meta.iter().collect::<Vec<_>>(), expected, "{page}");
        // A browser applies it only to what follows it: it comes before any style or script.
        let at = html.find("http-equiv=\"Content-Security-Policy\"").unwrap();
        assert!(at < html.find("<style").unwrap(), "{page}");
        if let Some(script) = html.find("<script") {
            assert!(at < script, "{page}");
        }
    }
}

#[test]
fn the_404_page_claims_no_address_and_asks_not_to_be_indexed() {
    let (_dir, out) = build_real_site();
    let doc = Html::parse_document(&read(&out, "404.html"));
    assert!(select(&doc, "link[rel=canonical]").is_empty());
    assert!(select(&doc, "meta[property='og:url']").is_empty());
    let robots = select(&doc, "meta[name=robots]");
    assert_eq!(robots.len(), 1);
    assert_eq!(robots[0].value().attr("content"), Some("noindex"));
    for (page, url) in [
        ("index.html", "https://curbside-brookings.example/"),
        (
            "privacypolicy.html",
            "https://curbside-brookings.example/privacypolicy",
        ),
    ] {
        let doc = Html::parse_document(&read(&out, page));
        let canonical = select(&doc, "link[rel=canonical]");
        assert_eq!(canonical[0].value().attr("href"), Some(url), "{page}");
        let og = select(&doc, "meta[property='og:url']");
        assert_eq!(og[0].value().attr("content"), Some(url), "{page}");
        assert!(select(&doc, "meta[name=robots]").is_empty(), "{page}");
    }
}

#[test]
fn the_icon_is_inline_and_the_nojs_stylesheet_is_minified() {
    let (_dir, out) = build_real_site();
    let doc = Html::parse_document(&read(&out, "index.html"));
    let icon = select(&doc, "link[rel=icon]");
    let href = icon[0].value().attr("href").unwrap();
    let encoded = href.strip_prefix("data:image/svg+xml;base64,").expect(href);
    use base64::Engine as _;
    let svg = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .unwrap();
    let source = std::fs::read(repo().join("layouts/assets/favicon.svg")).unwrap();
    assert_eq!(svg, source);
    assert!(
        assets(&out, "favicon", "").is_empty(),
        "no icon file is needed"
    );
    let nojs = assets(&out, "nojs-", ".css");
    let html = read(&out, "index.html");
    assert!(
        html.contains(&format!("href=\"/assets/{}\"", nojs[0])),
        "linked from the page"
    );
    let css = read(&out, &format!("assets/{}", nojs[0]));
    let source = std::fs::read_to_string(repo().join("layouts/assets/nojs.css")).unwrap();
    assert!(source.contains("/*") && !css.contains("/*"), "{css}");
    assert!(css.len() < source.len());
}

/// Every file under `out`, by its path relative to it.
fn files_of(out: &Path) -> Vec<String> {
    let mut files: Vec<String> = walkdir::WalkDir::new(out)
        .into_iter()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let relative = entry.path().strip_prefix(out).unwrap();
            relative.to_string_lossy().into_owned()
        })
        .collect();
    files.sort();
    files
}

#[test]
fn for_nginx_and_caddy_every_text_file_has_gzip_and_brotli_copies() {
    for hosting in ["nginx", "caddy"] {
        let (_dir, out) = build_real_site_with(&["--hosting", hosting]);
        let files = files_of(&out);
        for file in &files {
            let text = ["html", "css", "js", "svg", "xml", "txt"]
                .iter()
                .any(|ext| file.ends_with(&format!(".{ext}")));
            if text {
                for suffix in ["gz", "br"] {
                    let copy = format!("{file}.{suffix}");
                    assert!(
                        files.contains(&copy),
                        "--hosting {hosting}: {file} has no .{suffix}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_published_folder_holds_only_what_its_hosting_uses() {
    // Netlify serves `_headers` as a file too unless `_redirects` hides it.
    for (hosting, headers_file, redirects_file) in [
        ("netlify", true, true),
        ("cloudflare", true, false),
        ("github-pages", false, false),
    ] {
        let (_dir, out) = build_real_site_with(&["--hosting", hosting]);
        let files = files_of(&out);
        assert!(files.contains(&"index.html".to_string()), "{files:?}");
        assert_eq!(
            files.contains(&"_headers".to_string()),
            headers_file,
            "--hosting {hosting}: {files:?}"
        );
        assert_eq!(
            files.contains(&"_redirects".to_string()),
            redirects_file,
            "--hosting {hosting}: {files:?}"
        );
        let internal: Vec<&String> = files
            .iter()
            .filter(|f| f.starts_with('.') || f.ends_with(".br") || f.ends_with(".gz"))
            .collect();
        assert!(
            internal.is_empty(),
            "--hosting {hosting} publishes {internal:?}"
        );
    }
}

#[test]
fn server_configuration_is_written_beside_the_site_with_the_same_headers() {
    let (dir, out) = build_real_site();
    let server = dir.path().join("dist-server");
    assert_eq!(
        files_of(&server),
        [".curbside-output", "Caddyfile", "build.json", "nginx.conf"]
    );
    // What `curbside verify` checks the live site against: the same headers.
    let record: curbside::output::record::BuildRecord =
        serde_json::from_str(&read(&server, "build.json")).unwrap();
    assert_eq!(record.hosting, "netlify");
    assert!(!out.join(".curbside-output").exists());
    let headers = read(&out, "_headers");
    let nginx = read(&server, "nginx.conf");
    let caddy = read(&server, "Caddyfile");
    let mut names = 0;
    for line in headers.lines().filter(|line| line.starts_with("  ")) {
        let (name, value) = line.trim().split_once(": ").unwrap();
        assert!(
            nginx.contains(&format!("add_header {name} \"{value}\" always;")),
            "nginx.conf lacks {name}: {value}"
        );
        assert!(
            caddy.contains(&format!("{name} \"{value}\"")),
            "Caddyfile lacks {name}: {value}"
        );
        assert!(
            record
                .headers
                .contains(&(name.to_string(), value.to_string()))
                || (name, value) == ("Cache-Control", record.asset_cache_control.as_str()),
            "build.json lacks {name}: {value}"
        );
        names += 1;
    }
    assert_eq!(names, 8, "{headers}");
}

#[test]
fn a_second_build_writes_the_same_site() {
    let (_a, first) = build_real_site();
    let (_b, second) = build_real_site();
    let mut compared = 0;
    for entry in walkdir::WalkDir::new(&first) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(&first).unwrap();
            let other = std::fs::read(second.join(relative)).unwrap_or_default();
            assert!(
                std::fs::read(entry.path()).unwrap() == other,
                "{} differs",
                relative.display()
            );
            compared += 1;
        }
    }
    assert!(compared > 0, "the first build wrote no file");
}

#[test]
fn help_explains_each_command_and_flag() {
    let output = curbside(&["--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(help.contains("build"), "{help}");
    let output = curbside(&["build", "--help"]);
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(
        help.contains("--out <DIR>") && help.contains("Where to write the site"),
        "{help}"
    );
    assert!(
        help.contains("--hosting <HOSTING>") && !help.contains("--for"),
        "{help}"
    );
    for hosting in ["netlify", "cloudflare", "github-pages", "nginx", "caddy"] {
        assert!(help.contains(&format!("- {hosting}:")), "{help}");
    }
    assert!(
        help.contains("DIR-server/") && help.contains("never published"),
        "{help}"
    );
}

#[test]
fn a_project_without_content_fails_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let output = curbside(&["build", "--root", dir.path().to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr.starts_with("error: content/business.yaml: this file is missing"),
        "{stderr}"
    );
    assert!(!dir.path().join("dist").exists());
}

#[test]
fn an_output_folder_holding_the_project_is_refused_and_nothing_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("site");
    std::fs::create_dir_all(project.join("content")).unwrap();
    std::fs::write(project.join("content/keep.txt"), "mine").unwrap();
    for out in [".", "..", "content"] {
        let output = curbside(&["build", "--root", project.to_str().unwrap(), "--out", out]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "--out {out}: {stderr}");
        assert!(
            stderr.starts_with("error: refusing to write the site to"),
            "{stderr}"
        );
        assert_eq!(
            std::fs::read_to_string(project.join("content/keep.txt")).unwrap(),
            "mine"
        );
    }
}
