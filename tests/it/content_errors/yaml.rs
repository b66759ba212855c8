//! YAML that does not parse, and values of the wrong type: each reported at
//! the place the owner has to change, not where the parser gave up.

use super::case::{fails_at, project};
use crate::support::fixture::Fixture;

#[test]
fn yaml_unclosed_quote() {
    // The parser only notices at the next quote, six lines further down; the
    // error must point at the quote that was left open.
    let site = project();
    site.replace(
        "content/business.yaml",
        r#"phone: "(605) 555-0142""#,
        r#"phone: "(605) 555-0142"#,
    );
    fails_at!(site, "content/business.yaml:14:8");
}

#[test]
fn yaml_unclosed_quote_in_front_matter() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "title: Terms of Service\n",
        "title: \"Terms of Service\n",
    );
    fails_at!(site, "content/pages/termsofservice.md:3:8");
}

#[test]
fn yaml_key_indented_too_far() {
    let site = project();
    site.replace("content/plans.yaml", "  price: 25\n", "   price: 25\n");
    fails_at!(site, "content/plans.yaml:9:9");
}

#[test]
fn yaml_key_indented_too_little() {
    let site = project();
    site.replace(
        "content/site.yaml",
        "  pricing: Pricing\n",
        " pricing: Pricing\n",
    );
    fails_at!(site, "content/site.yaml:8:2");
}

#[test]
fn yaml_tab_indentation() {
    fails_at!(
        Fixture::with_overlay("tab-indented-site"),
        "content/site.yaml:4:1"
    );
}

#[test]
fn yaml_key_without_its_colon_in_front_matter() {
    // Read as text running on into the next line, where the parser
    // complains; the message must point at the line that lost its colon.
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "title: Terms of Service\n",
        "title Terms of Service\n",
    );
    fails_at!(site, "content/pages/termsofservice.md:3:1");
}

#[test]
fn yaml_key_without_its_colon_last_in_a_group() {
    let site = project();
    site.replace("content/notfound.yaml", "link: ", "link ");
    fails_at!(site, "content/notfound.yaml:9:1");
}

#[test]
fn yaml_colon_in_unquoted_text() {
    let site = project();
    site.replace(
        "content/notfound.yaml",
        "text: The address may be mistyped, or the page may have moved.",
        "text: Sorry: the address may be mistyped.",
    );
    fails_at!(site, "content/notfound.yaml:8:12");
}

#[test]
fn yaml_text_starting_with_a_placeholder() {
    // `{city}` at the start of a value reads as a YAML mapping.
    let site = project();
    site.replace(
        "content/notfound.yaml",
        "text: The address may be mistyped, or the page may have moved.",
        "text: {business_name} has no page at this address.",
    );
    fails_at!(site, "content/notfound.yaml:8:7");
}

#[test]
fn yaml_text_starting_with_an_asterisk() {
    // Markdown emphasis at the start of a value reads as a YAML alias.
    let site = project();
    site.replace(
        "content/faq.yaml",
        "- question: Do you bring the bins back?\n  answer: |\n    Yes. Returning",
        "- question: Do you bring the bins back?\n  answer: *Yes.* Returning",
    );
    fails_at!(site, "content/faq.yaml:13:11");
}

#[test]
fn yaml_duplicate_key() {
    let site = project();
    site.replace(
        "content/site.yaml",
        "back_to_top: Back to top\n",
        "back_to_top: Back to top\nmenu_button: Open the menu\n",
    );
    fails_at!(site, "content/site.yaml:13:1");
}

#[test]
fn yaml_second_document() {
    let site = project();
    site.replace(
        "content/site.yaml",
        "menu_button: Menu\n",
        "menu_button: Menu\n---\n",
    );
    fails_at!(site, "content/site.yaml:12:1");
}

// ---------------------------------------------------------------------------
// Wrong types

#[test]
fn type_text_where_a_list_is_expected() {
    let site = project();
    site.replace(
        "content/plans.yaml",
        "  features:\n    - Weekly bin-to-curb service\n",
        "  features: Weekly bin-to-curb service\n  old_features:\n",
    );
    fails_at!(site, "content/plans.yaml:11:13");
}

#[test]
fn type_list_where_keys_are_expected() {
    let site = project();
    site.replace(
        "content/site.yaml",
        "nav:\n  how_it_works: How It Works\n  pricing: Pricing\n  faq: FAQ\n  contact: Contact\n",
        "nav:\n  - How It Works\n  - Pricing\n  - FAQ\n  - Contact\n",
    );
    fails_at!(site, "content/site.yaml:7:3");
}

#[test]
fn type_keys_where_a_list_is_expected() {
    // The FAQ written as one question without the leading `- `.
    let site = project();
    site.write(
        "content/faq.yaml",
        "question: What area do you serve?\nanswer: We serve {service_area}.\n",
    );
    fails_at!(site, "content/faq.yaml:1:1");
}

#[test]
fn type_text_where_a_number_is_expected() {
    let site = project();
    site.replace(
        "content/business.yaml",
        "holiday_notice_hours: 24",
        "holiday_notice_hours: a day",
    );
    fails_at!(site, "content/business.yaml:31:25");
}
