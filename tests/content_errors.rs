//! Broken content and layouts, through the real binary.
//!
//! Each case copies the repository's own content/ and layouts/ into a
//! temporary folder, makes one mistake a site owner could make, runs
//! `curbside build`, and checks (see `Fixture::build_fails_at`) that the build
//! fails without a panic, reports the mistake at the file, line and column
//! given in the case with a `help:` line saying what to change, and leaves the
//! previous `dist/` untouched.
//!
//! The whole message of every case (stderr from its `error:` line on; only
//! builds that reach Node print anything before it, Node's own log) is also
//! a snapshot in `tests/snapshots/content_errors__<case>.snap`, so that any
//! change to a message shows up in review. After changing a message on purpose, refresh
//! the snapshots and read the diff before committing:
//!
//! ```sh
//! INSTA_UPDATE=always cargo test --test content_errors && git diff tests/snapshots
//! # or, with cargo-insta installed (`cargo install cargo-insta`):
//! cargo insta test --test content_errors --review
//! ```
//!
//! Content and layout syntax errors are found before Node starts, so these
//! cases need no frontend. Errors found while rendering the pages come after
//! the islands step; those cases link the project's frontend/.

#[path = "common/fixture_support.rs"]
mod fixture_support;

use std::sync::{Mutex, MutexGuard};

use fixture_support::{Fixture, project_root};

/// Builds `$fixture`, checks that it fails at `$at` (see
/// `Fixture::build_fails_at`), and snapshots its stderr under the test's name.
macro_rules! fails_at {
    ($fixture:expr, $at:expr) => {{
        let stderr = $fixture.build_fails_at($at);
        insta::assert_snapshot!(stderr);
    }};
}

fn project() -> Fixture {
    Fixture::copy_of_project()
}

// ---------------------------------------------------------------------------
// YAML syntax

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

// ---------------------------------------------------------------------------
// Unknown and missing keys

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

// ---------------------------------------------------------------------------
// Missing and unreadable files

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

// ---------------------------------------------------------------------------
// Values

#[test]
fn text_empty() {
    let site = project();
    site.replace(
        "content/notfound.yaml",
        "heading: Page not found",
        r#"heading: """#,
    );
    fails_at!(site, "content/notfound.yaml:7:10");
}

#[test]
fn text_left_blank() {
    let site = project();
    site.replace("content/home.yaml", "  button: Start Service", "  button:");
    fails_at!(site, "content/home.yaml:32:10");
}

#[test]
fn price_zero() {
    let site = project();
    site.replace("content/plans.yaml", "price: 25\n", "price: 0\n");
    fails_at!(site, "content/plans.yaml:9:10");
}

#[test]
fn price_negative() {
    let site = project();
    site.replace("content/plans.yaml", "price: 25\n", "price: -25\n");
    fails_at!(site, "content/plans.yaml:9:10");
}

#[test]
fn price_with_cents() {
    let site = project();
    site.replace("content/plans.yaml", "price: 25\n", "price: 24.99\n");
    fails_at!(site, "content/plans.yaml:9:10");
}

#[test]
fn price_in_words() {
    let site = project();
    site.replace("content/plans.yaml", "price: 25\n", "price: twenty-five\n");
    fails_at!(site, "content/plans.yaml:9:10");
}

#[test]
fn price_with_a_dollar_sign() {
    let site = project();
    site.replace("content/plans.yaml", "price: 250\n", "price: $250\n");
    fails_at!(site, "content/plans.yaml:19:10");
}

#[test]
fn price_annual_not_below_twelve_monthly() {
    let site = project();
    site.replace("content/plans.yaml", "price: 250\n", "price: 300\n");
    fails_at!(site, "content/plans.yaml:19:10");
}

#[test]
fn free_months_claimed_where_the_prices_give_none() {
    // $260 a year is not a whole number of $25 payments: the owner's own
    // text still counting free months would not be true.
    let site = project();
    site.replace("content/plans.yaml", "price: 250\n", "price: 260\n");
    site.replace(
        "content/faq.yaml",
        "  answer: |\n    Yes. Returning",
        "  answer: |\n    Yes, and the annual plan gives you {free_months} months free. Returning",
    );
    fails_at!(site, "content/faq.yaml:14:40");
}

#[test]
fn date_that_does_not_exist() {
    let site = project();
    site.replace(
        "content/pages/privacypolicy.md",
        "date: 2025-08-25",
        "date: 2025-02-30",
    );
    fails_at!(site, "content/pages/privacypolicy.md:6:7");
}

#[test]
fn date_in_us_format() {
    let site = project();
    site.replace(
        "content/pages/privacypolicy.md",
        "date: 2025-08-25",
        "date: 08/25/2025",
    );
    fails_at!(site, "content/pages/privacypolicy.md:6:7");
}

#[test]
fn date_in_us_format_without_leading_zeros() {
    let site = project();
    site.replace(
        "content/pages/privacypolicy.md",
        "date: 2025-08-25",
        "date: 9/1/2025",
    );
    fails_at!(site, "content/pages/privacypolicy.md:6:7");
}

#[test]
fn date_in_words() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "date: 2025-08-25",
        "date: August 25, 2025",
    );
    fails_at!(site, "content/pages/termsofservice.md:6:7");
}

#[test]
fn zip_code_of_four_digits_in_the_list() {
    let site = project();
    site.replace("content/business.yaml", r#""57007""#, r#""5700""#);
    fails_at!(site, "content/business.yaml:25:24");
}

#[test]
fn zip_code_with_letters_in_the_list() {
    let site = project();
    site.replace("content/business.yaml", r#""57071""#, r#""57O71""#);
    fails_at!(site, "content/business.yaml:25:42");
}

#[test]
fn map_position_off_the_map() {
    let site = project();
    site.rewrite("content/business.yaml", |text| {
        format!("{text}geo:\n  latitude: 44.31\n  longitude: -296.8\n").into_bytes()
    });
    fails_at!(site, "content/business.yaml:47:14");
}

#[test]
fn opening_hours_on_a_day_that_does_not_exist() {
    let site = project();
    site.rewrite("content/business.yaml", |text| {
        format!("{text}opening_hours:\n  - days: [Monday, Funday]\n    opens: \"08:00\"\n    closes: \"17:00\"\n").into_bytes()
    });
    fails_at!(site, "content/business.yaml:46:20");
}

#[test]
fn zip_code_list_empty() {
    let site = project();
    site.replace(
        "content/business.yaml",
        r#"zip_codes: ["57006", "57007", "57002", "57071"]"#,
        "zip_codes: []",
    );
    fails_at!(site, "content/business.yaml:25:14");
}

#[test]
fn postal_code_of_four_digits() {
    let site = project();
    site.replace(
        "content/business.yaml",
        r#"postal_code: "57006""#,
        "postal_code: 5706",
    );
    fails_at!(site, "content/business.yaml:20:14");
}

#[test]
fn postal_code_with_letters() {
    let site = project();
    site.replace(
        "content/business.yaml",
        r#"postal_code: "57006""#,
        "postal_code: SD 57006",
    );
    fails_at!(site, "content/business.yaml:20:14");
}

#[test]
fn email_without_at_sign() {
    let site = project();
    site.replace(
        "content/business.yaml",
        "email: hello@curbside-brookings.example",
        "email: hello.curbside-brookings.example",
    );
    fails_at!(site, "content/business.yaml:15:8");
}

#[test]
fn email_with_a_name() {
    let site = project();
    site.replace(
        "content/business.yaml",
        "email: hello@curbside-brookings.example",
        r#"email: "Curbside <hello@curbside-brookings.example>""#,
    );
    fails_at!(site, "content/business.yaml:15:8");
}

#[test]
fn phone_without_area_code() {
    let site = project();
    site.replace(
        "content/business.yaml",
        r#""(605) 555-0142""#,
        r#""555-0142""#,
    );
    fails_at!(site, "content/business.yaml:14:8");
}

#[test]
fn phone_with_letters() {
    let site = project();
    site.replace(
        "content/business.yaml",
        r#""(605) 555-0142""#,
        r#""(605) BIN-CURB""#,
    );
    fails_at!(site, "content/business.yaml:14:8");
}

#[test]
fn site_url_without_scheme() {
    let site = project();
    site.replace(
        "content/business.yaml",
        "url: https://curbside-brookings.example",
        "url: www.curbside-brookings.example",
    );
    fails_at!(site, "content/business.yaml:13:6");
}

#[test]
fn form_id_given_as_the_whole_address() {
    let site = project();
    site.replace(
        "content/business.yaml",
        "formspree_form_id: xsample1",
        "formspree_form_id: https://formspree.io/f/xsample1",
    );
    fails_at!(site, "content/business.yaml:16:20");
}

#[test]
fn time_of_day_in_twelve_hour_format() {
    let site = project();
    site.replace("content/business.yaml", r#""18:00""#, r#""6 pm""#);
    fails_at!(site, "content/business.yaml:29:24");
}

#[test]
fn time_of_day_past_midnight() {
    let site = project();
    site.replace("content/business.yaml", r#""18:00""#, r#""24:30""#);
    fails_at!(site, "content/business.yaml:29:24");
}

#[test]
fn notice_hours_negative() {
    let site = project();
    site.replace(
        "content/business.yaml",
        "holiday_notice_hours: 24",
        "holiday_notice_hours: -5",
    );
    fails_at!(site, "content/business.yaml:31:25");
}

// ---------------------------------------------------------------------------
// Placeholders

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

// ---------------------------------------------------------------------------
// Pages

#[test]
fn page_without_front_matter() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "---\n# yaml-language-server: $schema=../schemas/page.schema.json\n",
        "# yaml-language-server: $schema=../schemas/page.schema.json\n",
    );
    fails_at!(site, "content/pages/termsofservice.md:1:1");
}

#[test]
fn page_front_matter_not_closed() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "date: 2025-08-25\n---\n",
        "date: 2025-08-25\n\n",
    );
    fails_at!(site, "content/pages/termsofservice.md:1:1");
}

#[test]
fn page_linked_from_a_place_there_is_no_link_for() {
    let site = project();
    site.write(
        "content/pages/about.md",
        "---\ntitle: About Us\ndescription: Who we are.\nlink: sidebar\n---\n\nHello.\n",
    );
    fails_at!(site, "content/pages/about.md:4:7");
}

#[test]
fn page_date_without_date_label() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "date_label: Effective\n",
        "",
    );
    fails_at!(site, "content/pages/termsofservice.md:5:7");
}

#[test]
fn page_date_label_without_date() {
    let site = project();
    site.replace("content/pages/termsofservice.md", "date: 2025-08-25\n", "");
    fails_at!(site, "content/pages/termsofservice.md:5:13");
}

#[test]
fn page_file_name_with_capitals_and_a_space() {
    let site = project();
    site.write(
        "content/pages/About Us.md",
        "---\ntitle: About us\ndescription: Who we are.\n---\n\nWe are neighbours.\n",
    );
    fails_at!(site, "content/pages/About Us.md");
}

#[test]
fn page_file_name_taken_by_the_home_page() {
    let site = project();
    site.write(
        "content/pages/index.md",
        "---\ntitle: Home\ndescription: Home.\n---\n\nHello.\n",
    );
    fails_at!(site, "content/pages/index.md");
}

#[test]
fn page_in_a_subfolder() {
    let site = project();
    site.write(
        "content/pages/legal/cookies.md",
        "---\ntitle: Cookies\ndescription: We set none.\n---\n\nNone.\n",
    );
    fails_at!(site, "content/pages/legal/cookies.md");
}

#[test]
fn pages_symlink_loop() {
    let site = project();
    site.symlink("..", "content/pages/archive/pages");
    fails_at!(site, "content/pages/archive/pages");
}

#[test]
fn pages_symlink_to_nothing() {
    let site = project();
    site.symlink("../drafts/about.md", "content/pages/about.md");
    fails_at!(site, "content/pages/about.md");
}

// ---------------------------------------------------------------------------
// Empty lists

#[test]
fn faq_list_empty() {
    let site = project();
    site.write("content/faq.yaml", "# No questions yet.\n[]\n");
    fails_at!(site, "content/faq.yaml:2:1");
}

#[test]
fn how_it_works_steps_empty() {
    let site = project();
    site.rewrite("content/home.yaml", |text| {
        let start = text.find("  steps:\n").expect("home.yaml has steps");
        let end = text.find("\npricing:").expect("home.yaml has pricing");
        format!("{}  steps: []\n{}", &text[..start], &text[end..]).into_bytes()
    });
    fails_at!(site, "content/home.yaml:36:10");
}

#[test]
fn plan_features_empty() {
    let site = project();
    site.rewrite("content/plans.yaml", |text| {
        let start = text
            .find("  features:\n    - Everything")
            .expect("annual features");
        format!("{}  features: []\n", &text[..start]).into_bytes()
    });
    fails_at!(site, "content/plans.yaml:21:13");
}

// ---------------------------------------------------------------------------
// Layouts, loaded before Node starts

#[test]
fn layout_variable_not_closed() {
    let site = project();
    site.replace(
        "layouts/sections/hero.html",
        "{{ home.hero.headline }}",
        "{{ home.hero.headline }",
    );
    fails_at!(site, "layouts/sections/hero.html:5:68");
}

#[test]
fn layout_block_not_closed() {
    let site = project();
    site.replace("layouts/page.html", "{%- endif %}\n", "");
    fails_at!(site, "layouts/page.html:9:4");
}

#[test]
fn layout_not_utf8() {
    let site = project();
    site.write("layouts/partials/footer.html", b"<p>\xa9 2025</p>\n");
    fails_at!(site, "layouts/partials/footer.html:1:4");
}

#[test]
fn layouts_folder_missing() {
    let site = project();
    site.remove_folder("layouts");
    fails_at!(site, "layouts");
}

// ---------------------------------------------------------------------------
// Layouts, rendered after the islands step (needs Node and frontend/)

/// Builds that start Node share the project's frontend/ (and its one-time
/// `npm ci`), so they run one at a time.
fn node_build() -> MutexGuard<'static, ()> {
    static NODE: Mutex<()> = Mutex::new(());
    NODE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[test]
fn layout_missing() {
    let _node = node_build();
    let site = project();
    site.with_frontend().remove("layouts/home.html");
    fails_at!(site, "layouts/home.html");
}

// The inline stylesheet and scripts are allowed by the hashes of exactly their
// texts: anything beside them in their element would block them in the browser.
// Only the part of the build after Node can see that, so these need the frontend.

macro_rules! layout_edit_fails_at_layouts {
    ($old:expr, $new:expr) => {{
        let _node = node_build();
        let site = project();
        site.with_frontend()
            .replace("layouts/base.html", $old, $new);
        fails_at!(site, "layouts");
    }};
}

#[test]
fn layout_adds_text_beside_the_loader() {
    layout_edit_fails_at_layouts!(
        "{{ assets.islands_loader }}</script>",
        "{{ assets.islands_loader }};</script>"
    );
}

#[test]
fn layout_adds_text_beside_the_heads_script() {
    layout_edit_fails_at_layouts!(
        "{{ assets.islands_preload }}</script>",
        "{{ assets.islands_preload }};</script>"
    );
}

#[test]
fn layout_drops_the_files_attribute_of_the_heads_script() {
    layout_edit_fails_at_layouts!(
        "<script data-files=\"{{ assets.islands_files }}\">",
        "<script>"
    );
}

#[test]
fn layout_places_the_heads_script_twice() {
    layout_edit_fails_at_layouts!(
        "<noscript>",
        "<script data-files=\"{{ assets.islands_files }}\">{{ assets.islands_preload }}</script>\n<noscript>"
    );
}

#[test]
fn layout_filters_a_value_filled_in_after_rendering() {
    layout_edit_fails_at_layouts!(
        "<style>{{ assets.inline_css }}</style>",
        "<style>{{ assets.inline_css|upper }}</style>"
    );
}

#[test]
fn layout_drops_the_loader_of_pages_with_islands() {
    layout_edit_fails_at_layouts!(
        "<script data-runtime=\"{{ assets.islands }}\">{{ assets.islands_loader }}</script>\n",
        ""
    );
}

#[test]
fn layout_drops_the_runtime_attribute_of_the_loader() {
    layout_edit_fails_at_layouts!("<script data-runtime=\"{{ assets.islands }}\">", "<script>");
}

#[test]
fn layout_drops_the_content_security_policy_meta() {
    layout_edit_fails_at_layouts!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{{ assets.csp }}\" />\n",
        ""
    );
}

#[test]
fn layout_unknown_variable() {
    let _node = node_build();
    let site = project();
    site.with_frontend().replace(
        "layouts/sections/hero.html",
        "{{ home.hero.lead }}",
        "{{ home.hero.leed }}",
    );
    fails_at!(site, "layouts/sections/hero.html:6:30");
}

#[test]
fn layout_includes_a_missing_file() {
    let _node = node_build();
    let site = project();
    site.with_frontend().replace(
        "layouts/home.html",
        r#"{% include "sections/faq.html" %}"#,
        r#"{% include "sections/questions.html" %}"#,
    );
    fails_at!(site, "layouts/home.html:7:4");
}

// ---------------------------------------------------------------------------
// Island files against the islands registry (src/islands/registry.rs),
// checked as the project loads, by the build and by `curbside check` alike;
// these cases edit a frontend/ of their own.

/// Builds `$fixture`, checks that it fails at `$at` and snapshots the
/// message (as [`fails_at!`]), then checks that `curbside check` reports the
/// same first line.
macro_rules! build_and_check_fail_at {
    ($fixture:expr, $at:expr) => {{
        let _node = node_build();
        let site = $fixture;
        let stderr = site.build_fails_at($at);
        let checked = site.check();
        let checked = String::from_utf8_lossy(&checked.stderr);
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            checked.lines().any(|line| line == first),
            "curbside check should report {first:?}, but said:\n{checked}"
        );
        insta::assert_snapshot!(stderr);
    }};
}

#[test]
fn island_importing_the_props_types_without_a_registry_entry() {
    let site = Fixture::copy_with_own_frontend();
    site.write(
        "frontend/src/islands/opening-hours.tsx",
        r#"import type { MenuProps } from "../shared/island-types";

export default function OpeningHours({ label }: MenuProps) {
  return <p>{label}</p>;
}
"#,
    );
    build_and_check_fail_at!(site, "frontend/src/islands/opening-hours.tsx");
}

#[test]
fn island_component_taking_props_without_a_registry_entry() {
    let site = Fixture::copy_with_own_frontend();
    site.write(
        "frontend/src/islands/hours.tsx",
        "export default function Hours({ days }: { days: string[] }) {\n  return <p>{days.join(\", \")}</p>;\n}\n",
    );
    build_and_check_fail_at!(site, "frontend/src/islands/hours.tsx");
}

#[test]
fn registry_entry_without_its_island_file() {
    let site = Fixture::copy_with_own_frontend();
    site.remove("frontend/src/islands/pricing.tsx");
    build_and_check_fail_at!(site, "frontend/src/islands");
}
