//! HTML minification with minify-html, set to keep the output valid and
//! spec-compliant (closing tags and quoting kept where validators want them).

/// Minifies a page. Scripts are left as they are.
pub fn html(page: &str) -> String {
    let cfg = minify_html::Cfg {
        minify_css: true,
        minify_js: false,
        keep_closing_tags: true,
        keep_html_and_head_opening_tags: true,
        keep_comments: false,
        ..minify_html::Cfg::default()
    };
    let bytes = minify_html::minify(page.as_bytes(), &cfg);
    String::from_utf8(bytes).unwrap_or_else(|_| page.to_string())
}
