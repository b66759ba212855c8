//! Files that are missing, unreadable, too large, empty, or a folder.

use super::case::{fails_at, project};
use crate::support::fixture::{Fixture, project_root};

#[test]
fn missing_business_yaml() {
    let site = project();
    site.remove("content/business.yaml");
    fails_at!(site, "content/business.yaml");
}

#[test]
fn missing_plans_yaml() {
    let site = project();
    site.remove("content/plans.yaml");
    fails_at!(site, "content/plans.yaml");
}

#[test]
fn missing_required_page() {
    let site = project();
    site.remove("content/pages/privacypolicy.md");
    fails_at!(site, "content/pages/privacypolicy.md");
}

#[test]
fn missing_pages_folder() {
    let site = project();
    site.remove_folder("content/pages");
    fails_at!(site, "content/pages");
}

#[test]
fn missing_content_folder() {
    // Most likely a wrong --root; reported as the first file it lacks.
    let site = project();
    site.remove_folder("content");
    fails_at!(site, "content/business.yaml");
}

#[test]
fn file_not_utf8() {
    // "café" in Latin-1: the é is the byte 0xE9, on line 9 after "Can I pay at the caf".
    fails_at!(
        Fixture::with_overlay("non-utf8-faq"),
        "content/faq.yaml:9:33"
    );
}

#[test]
fn file_larger_than_one_mebibyte() {
    let site = project();
    let mut faq = std::fs::read_to_string(project_root().join("content/faq.yaml"))
        .expect("read the real faq.yaml");
    while faq.len() <= 1024 * 1024 {
        faq.push_str("# A very long comment, such as a pasted log file, repeated.\n");
    }
    site.write("content/faq.yaml", faq);
    fails_at!(site, "content/faq.yaml:1:1");
}

#[test]
fn file_is_a_folder() {
    let site = project();
    site.remove("content/site.yaml");
    site.write(
        "content/site.yaml/README",
        "a folder where a file should be\n",
    );
    fails_at!(site, "content/site.yaml");
}

#[test]
fn file_empty() {
    let site = project();
    site.write("content/site.yaml", "");
    fails_at!(site, "content/site.yaml:1:1");
}
