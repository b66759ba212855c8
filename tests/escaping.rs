//! Content can never break out of where it lands: hostile text in every text
//! field of every content file is built into the site, and the pages, parsed
//! by a real HTML parser, hold exactly the elements the layouts put there,
//! with the text intact inside them.

use std::path::{Path, PathBuf};
use std::process::Command;

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

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

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

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A copy of the project whose every text value ends with [`PAYLOAD`].
fn poisoned_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(&repo().join("content"), &root.join("content"));
    copy_dir(&repo().join("layouts"), &root.join("layouts"));
    std::os::unix::fs::symlink(repo().join("frontend"), root.join("frontend")).unwrap();
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
        let text = text.replacen(
            "title: ",
            &format!("title: '{}' ", PAYLOAD.replace('\'', "''")),
            1,
        );
        std::fs::write(&path, format!("{text}\n{PAYLOAD}\n")).unwrap();
    }
    dir
}

#[test]
fn hostile_content_stays_text_in_html_attributes_json_ld_and_island_props() {
    let project = poisoned_project();
    let out = project.path().join("dist");
    let output = Command::new(env!("CARGO_BIN_EXE_curbside"))
        .args([
            "build",
            "--root",
            project.path().to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
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
        for script in doc.select(&scripts) {
            let attrs = script.value();
            let kind = attrs.attr("type").unwrap_or("");
            match kind {
                "module" => assert!(attrs.attr("src").is_some(), "{page}: inline module script"),
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
        let meta = doc.select(&description).next().unwrap();
        assert!(
            meta.value().attr("content").unwrap().ends_with(PAYLOAD),
            "{page}: description attribute"
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
