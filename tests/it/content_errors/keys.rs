//! Keys that are unknown (with the nearest known spelling when there is one)
//! or missing, at the top level, nested, in a list and in front matter.

use super::case::{fails_at, project};

#[test]
fn unknown_key_at_the_top_level() {
    let site = project();
    site.replace(
        "content/business.yaml",
        "city: Brookings",
        "citty: Brookings",
    );
    fails_at!(site, "content/business.yaml:18:1");
}

#[test]
fn unknown_key_nested() {
    let site = project();
    site.replace(
        "content/plans.yaml",
        "  cancellation: Renews annually.",
        "  cancelation: Renews annually.",
    );
    fails_at!(site, "content/plans.yaml:20:3");
}

#[test]
fn unknown_key_with_no_near_spelling() {
    let site = project();
    site.replace(
        "content/home.yaml",
        "faq:\n  heading: Frequently asked questions\n",
        "faq:\n  heading: Frequently asked questions\n  subtitle: Ask us anything\n",
    );
    fails_at!(site, "content/home.yaml:58:3");
}

#[test]
fn unknown_key_in_front_matter() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "date_label: Effective\n",
        "date_label: Effective\nauthor: The owner\n",
    );
    fails_at!(site, "content/pages/termsofservice.md:6:1");
}

#[test]
fn missing_key() {
    let site = project();
    site.replace("content/notfound.yaml", "heading: Page not found\n", "");
    fails_at!(site, "content/notfound.yaml:5:1");
}

#[test]
fn missing_key_nested() {
    let site = project();
    site.replace("content/business.yaml", "  holiday_notice_hours: 24\n", "");
    fails_at!(site, "content/business.yaml:29:3");
}

#[test]
fn missing_key_in_a_list_entry() {
    let site = project();
    site.replace(
        "content/faq.yaml",
        "- question: What happens on holidays?\n",
        "- question: Can I pause service?\n\n- question: What happens on holidays?\n",
    );
    fails_at!(site, "content/faq.yaml:17:3");
}

#[test]
fn missing_key_in_front_matter() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "description: The terms of the {business_name} bin-to-curb service, its plans, billing and cancellation.\n",
        "",
    );
    fails_at!(site, "content/pages/termsofservice.md:3:1");
}
