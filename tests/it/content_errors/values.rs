//! Values the content's rules refuse: empty text, prices, dates, ZIP and
//! postal codes, contact details, times of day; and lists left empty.

use super::case::{fails_at, project};

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
