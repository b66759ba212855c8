//! The JSON Schemas editors use (content/schemas/), against the real content
//! and the mistakes the build refuses: the real content validates, each type
//! mistake is rejected, and the written schemas are the ones the code makes.

use std::path::{Path, PathBuf};

use curbside::content::schema;
use serde_json::Value;

fn content() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("content")
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(content().join(relative))
        .unwrap_or_else(|err| panic!("read content/{relative}: {err}"))
}

/// The YAML of a content file, or of a page's front matter, as JSON.
fn as_json(file: &str, text: &str) -> Value {
    let yaml = if file.ends_with(".md") {
        let rest = text.strip_prefix("---\n").expect("front matter");
        &rest[..rest.find("\n---\n").expect("closed front matter")]
    } else {
        text
    };
    serde_yaml::from_str(yaml).unwrap_or_else(|err| panic!("{file}: {err}"))
}

/// The validator of the schema written for `file`, as an editor reads it.
fn validator(file: &str) -> jsonschema::Validator {
    let name = if file.starts_with("pages/") {
        "page.schema.json"
    } else {
        schema::files()
            .into_iter()
            .find(|(content_file, _, _)| *content_file == file)
            .map(|(_, name, _)| name)
            .unwrap_or_else(|| panic!("no schema for {file}"))
    };
    let text = read(&format!("{}/{name}", schema::FOLDER));
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).unwrap_or_else(|err| panic!("{name}: {err}"))
}

const FILES: [&str; 8] = [
    "business.yaml",
    "plans.yaml",
    "site.yaml",
    "home.yaml",
    "faq.yaml",
    "notfound.yaml",
    "pages/privacypolicy.md",
    "pages/termsofservice.md",
];

#[test]
fn the_written_schemas_are_the_ones_the_code_makes() {
    for (_, name, generated) in schema::files() {
        let path = format!("{}/{name}", schema::FOLDER);
        let written = std::fs::read_to_string(content().join(&path)).unwrap_or_default();
        assert!(
            written == generated,
            "content/{path} is stale: the content types changed since it was written; run `cargo run -- schemas` and commit the result"
        );
    }
}

#[test]
fn every_content_file_names_its_schema_for_editors() {
    for file in FILES {
        let text = read(file);
        let name = if file.starts_with("pages/") {
            "../schemas/page.schema.json".to_string()
        } else {
            format!("schemas/{}", file.replace(".yaml", ".schema.json"))
        };
        let line = format!("# yaml-language-server: $schema={name}");
        assert!(text.lines().any(|l| l == line), "{file} lacks `{line}`");
        assert!(
            content().join(file).parent().unwrap().join(&name).is_file(),
            "{name} from {file}"
        );
    }
}

#[test]
fn the_real_content_validates() {
    for file in FILES {
        let validator = validator(file);
        let instance = as_json(file, &read(file));
        let errors: Vec<String> = validator
            .iter_errors(&instance)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{file}: {errors:?}");
    }
}

/// Type mistakes the build refuses (content_errors has each as a
/// build case): file, text as written, text with the mistake.
const MISTAKES: &[(&str, &str, &str)] = &[
    ("plans.yaml", "price: 25\n", "price: twenty-five\n"),
    ("plans.yaml", "price: 25\n", "price: 0\n"),
    ("plans.yaml", "price: 25\n", "price: -25\n"),
    ("plans.yaml", "price: 25\n", "price: 24.99\n"),
    ("plans.yaml", "price: 250\n", "price: $250\n"),
    (
        "plans.yaml",
        "cancellation: Renews annually.",
        "cancelation: Renews annually.",
    ),
    ("plans.yaml", "    - One payment a year\n", "    - \"  \"\n"),
    (
        "plans.yaml",
        "  features:\n    - Weekly bin-to-curb service\n    - Bins returned after pickup (optional)\n    - Text reminders and vacation holds\n    - No contracts or hidden fees\n",
        "  features: Weekly bin-to-curb service\n",
    ),
    ("business.yaml", "city: Brookings", "citty: Brookings"),
    (
        "business.yaml",
        "email: hello@curbside-brookings.example",
        "email: hello.curbside-brookings.example",
    ),
    (
        "business.yaml",
        "phone: \"(605) 555-0142\"",
        "phone: \"(605) BIN-CURB\"",
    ),
    (
        "business.yaml",
        "phone: \"(605) 555-0142\"",
        "phone: \"555-0142\"",
    ),
    (
        "business.yaml",
        "postal_code: \"57006\"",
        "postal_code: 5706",
    ),
    (
        "business.yaml",
        "postal_code: \"57006\"",
        "postal_code: \"SD 57006\"",
    ),
    ("business.yaml", "\"57007\"", "\"5700\""),
    (
        "business.yaml",
        "url: https://curbside-brookings.example",
        "url: www.curbside-brookings.example",
    ),
    (
        "business.yaml",
        "formspree_form_id: xsample1",
        "formspree_form_id: https://formspree.io/f/xsample1",
    ),
    (
        "business.yaml",
        "evening_route_start: \"18:00\"",
        "evening_route_start: \"6 pm\"",
    ),
    (
        "business.yaml",
        "evening_route_start: \"18:00\"",
        "evening_route_start: \"24:30\"",
    ),
    (
        "business.yaml",
        "holiday_notice_hours: 24",
        "holiday_notice_hours: -5",
    ),
    (
        "business.yaml",
        "holiday_notice_hours: 24",
        "holiday_notice_hours: a day",
    ),
    (
        "business.yaml",
        "zip_codes: [\"57006\", \"57007\", \"57002\", \"57071\"]",
        "zip_codes: []",
    ),
    (
        "business.yaml",
        "\nschedule:",
        "\nopening_hours:\n  - days: [Funday]\n    opens: \"08:00\"\n    closes: \"17:00\"\nschedule:",
    ),
    (
        "business.yaml",
        "\nschedule:",
        "\ngeo:\n  latitude: north\n  longitude: -96.8\nschedule:",
    ),
    (
        "site.yaml",
        "nav:\n  how_it_works: How It Works\n  pricing: Pricing\n  faq: FAQ\n  contact: Contact\n",
        "nav:\n  - How It Works\n  - Pricing\n",
    ),
    ("home.yaml", "  button: Start Service\n", "  button: \"\"\n"),
    (
        "home.yaml",
        "faq:\n  heading:",
        "faq:\n  subtitle: x\n  heading:",
    ),
    ("notfound.yaml", "heading: Page not found\n", ""),
    (
        "faq.yaml",
        "- question: What area do you serve?",
        "- question: [What area, do you serve]",
    ),
    (
        "pages/privacypolicy.md",
        "date: 2025-08-25",
        "date: 08/25/2025",
    ),
    (
        "pages/privacypolicy.md",
        "date: 2025-08-25",
        "date: 9/1/2025",
    ),
    (
        "pages/termsofservice.md",
        "date_label: Effective\n",
        "date_label: Effective\nauthor: The owner\n",
    ),
    (
        "pages/termsofservice.md",
        "date_label: Effective\n",
        "date_label: Effective\nlink: sidebar\n",
    ),
    (
        "pages/termsofservice.md",
        "description: The terms",
        "summary: The terms",
    ),
];

#[test]
fn each_type_mistake_is_rejected() {
    for (file, old, new) in MISTAKES {
        let text = read(file);
        assert_eq!(
            text.matches(old).count(),
            1,
            "{file} should hold {old:?} once"
        );
        let broken = text.replacen(old, new, 1);
        let instance = as_json(file, &broken);
        assert!(
            !validator(file).is_valid(&instance),
            "the schema of {file} accepts {new:?}"
        );
    }
}
