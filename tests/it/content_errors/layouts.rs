//! Layouts broken in ways found before Node starts (syntax, encoding, a
//! missing folder), and in ways only the rendering after the islands step
//! finds: those cases link the project's frontend/.

use super::case::{fails_at, node_build, project};

#[test]
fn layout_variable_not_closed() {
    let site = project();
    site.replace(
        "layouts/sections/hero.html",
        "{{ home.hero.headline }}",
        "{{ home.hero.headline }",
    );
    fails_at!(site, "layouts/sections/hero.html:8:68");
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
    fails_at!(site, "layouts/sections/hero.html:9:30");
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
