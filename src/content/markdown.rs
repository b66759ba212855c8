//! Markdown to HTML for FAQ answers and pages, through pulldown-cmark.
//!
//! Raw HTML in Markdown is shown as text, never passed through: content can
//! then never inject markup or script, whatever a site owner pastes in.

use pulldown_cmark::{Event, Options, Parser, TagEnd, html};

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SMART_PUNCTUATION
}

pub fn to_html(markdown: &str) -> String {
    let parser = Parser::new_ext(markdown, options()).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, parser);
    out
}

/// The words of `markdown` without markup, for structured data.
pub fn to_plain_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Text(text) | Event::Code(text) | Event::Html(text) | Event::InlineHtml(text) => {
                out.push_str(&text)
            }
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            // Inline ends (emphasis, links) join their words; block ends separate them.
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::TableCell
                | TagEnd::CodeBlock,
            ) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_is_escaped_not_passed_through() {
        let html = to_html("Hi <script>alert(1)</script> there\n\n<div onclick=x>block</div>\n");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<div"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
    }

    #[test]
    fn plain_text_drops_markup_and_folds_space() {
        assert_eq!(
            to_plain_text("We **serve** the\ncity.\n\nSecond *para*."),
            "We serve the city. Second para."
        );
    }
}
