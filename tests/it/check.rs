//! `curbside check` on fixture sites, through the real binary: it exits 0 on
//! the repository's own site and writes nothing, and exits 1 with a
//! file:line:column message for each broken link, missing `#anchor` and
//! page that cannot be reached, and for content mistakes as `build` does.
//! Messages are snapshots, like the build's (content_errors).

use crate::support::fixture::{Fixture, tree};

/// Runs the check, which must fail with exit code 1, and returns its stderr
/// from the first `error:` line, the sample-values warning above it left out.
fn check_fails(site: &Fixture) -> String {
    let output = site.check();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let start = stderr
        .find("error: ")
        .unwrap_or_else(|| panic!("no error in:\n{stderr}"));
    stderr[start..].to_string()
}

#[test]
fn the_repository_site_passes_and_nothing_is_written() {
    let site = Fixture::copy_with_frontend();
    let before = tree(site.root());
    let output = site.check();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("Checked 5 pages and ") && stderr.contains("no problems found"),
        "{stderr}"
    );
    // The build's warnings are the check's too.
    assert!(stderr.contains("warning: content/business.yaml still has sample values"));
    assert_eq!(
        tree(site.root()),
        before,
        "the check wrote or changed files"
    );
}

#[test]
fn a_link_to_a_page_that_does_not_exist() {
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/pages/about.md",
        "---\ntitle: About Us\ndescription: Who we are.\n---\n\nRead our [terms](/termsofservise) first.\n",
    );
    let stderr = check_fails(&site);
    assert!(
        stderr.starts_with("error: content/pages/about.md:6:18: the link `/termsofservise`"),
        "{stderr}"
    );
    insta::assert_snapshot!(stderr);
}

/// A link written relative to its page is resolved as a browser resolves
/// it, and checked like any other.
#[test]
fn a_relative_link_to_a_page_that_does_not_exist() {
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/pages/about.md",
        "---\ntitle: About Us\ndescription: Who we are.\n---\n\nRead our [terms](termsofservise) and [privacy](./privacypolicy) first.\n",
    );
    let stderr = check_fails(&site);
    assert!(
        stderr.starts_with(
            "error: content/pages/about.md:6:18: the link `termsofservise` leads to no page: the site has no /termsofservise"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("found 1 problem"), "{stderr}");
}

#[test]
fn a_link_to_a_section_that_does_not_exist() {
    let site = Fixture::copy_with_frontend();
    site.replace(
        "content/faq.yaml",
        "    Yes. Returning",
        "    Yes ([see the prices](/#prices)). Returning",
    );
    let stderr = check_fails(&site);
    assert!(
        stderr.starts_with("error: content/faq.yaml:14:27: the link `/#prices`"),
        "{stderr}"
    );
    insta::assert_snapshot!(stderr);
}

#[test]
fn a_page_no_link_reaches() {
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/pages/route-map.md",
        "---\ntitle: Our route\ndescription: Where we go.\nlink: none\n---\n\nThe route.\n",
    );
    let stderr = check_fails(&site);
    insta::assert_snapshot!(stderr);

    // Linked from another page's text, it is reachable.
    site.replace(
        "content/pages/termsofservice.md",
        "These terms apply",
        "See [our route](/route-map). These terms apply",
    );
    let output = site.check();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn every_problem_is_reported_not_only_the_first() {
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/pages/about.md",
        "---\ntitle: About Us\ndescription: Who we are.\n---\n\n[One](/nowhere) and [two](/#nothing).\n",
    );
    let stderr = check_fails(&site);
    assert_eq!(
        stderr.matches("error: content/pages/about.md:6:").count(),
        2,
        "{stderr}"
    );
    assert!(
        stderr.ends_with("error: found 2 problems in 6 pages\n"),
        "{stderr}"
    );
}

#[test]
fn a_content_mistake_is_reported_as_the_build_reports_it() {
    let site = Fixture::copy_with_frontend();
    site.replace("content/plans.yaml", "price: 25\n", "price: twenty-five\n");
    let stderr = check_fails(&site);
    assert!(
        stderr.starts_with(
            "error: content/plans.yaml:9:10: the monthly plan's price must be a number"
        ),
        "{stderr}"
    );
}

#[test]
fn a_landing_page_needs_no_link_to_it() {
    // The door hangers' page: visitors come from its QR code, not from the site.
    let site = Fixture::copy_with_frontend();
    let output = site.check();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    site.replace("content/pages/start.md", "landing: true\n", "");
    let stderr = check_fails(&site);
    assert!(
        stderr.starts_with(
            "error: content/pages/start.md:1:1: the page /start cannot be reached from the home page"
        ),
        "{stderr}"
    );
}
