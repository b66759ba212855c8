//! `{placeholders}` that name no value, in YAML text, blocks, page bodies
//! and front matter.

use super::case::{fails_at, project};

#[test]
fn placeholder_unknown_in_yaml_text() {
    let site = project();
    site.replace(
        "content/home.yaml",
        "after {evening_route_start} the night",
        "after {evening_route} the night",
    );
    fails_at!(site, "content/home.yaml:30:58");
}

#[test]
fn placeholder_unknown_in_a_block_of_text() {
    // The answer is a `|` block: the error points into the block, not at `|`.
    let site = project();
    site.replace(
        "content/faq.yaml",
        "{holiday_notice_hours} hours ahead",
        "{notice_hours} hours ahead",
    );
    fails_at!(site, "content/faq.yaml:20:40");
}

#[test]
fn placeholder_unknown_in_a_page_body() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "Phone: {phone}",
        "Phone: {telephone}",
    );
    fails_at!(site, "content/pages/termsofservice.md:80:8");
}

#[test]
fn placeholder_unknown_in_a_page_body_saved_by_a_windows_editor() {
    // A byte order mark and CRLF line ends must not shift the position.
    let site = project();
    site.rewrite("content/pages/termsofservice.md", |text| {
        let text = text.replace("Phone: {phone}", "Phone: {telephone}");
        let mut bytes = "\u{feff}".as_bytes().to_vec();
        bytes.extend(text.replace('\n', "\r\n").into_bytes());
        bytes
    });
    fails_at!(site, "content/pages/termsofservice.md:80:8");
}

#[test]
fn placeholder_unknown_in_front_matter() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "description: The terms of the {business_name} bin-to-curb",
        "description: The terms of the {business} bin-to-curb",
    );
    fails_at!(site, "content/pages/termsofservice.md:4:31");
}
