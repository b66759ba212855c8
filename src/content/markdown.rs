//! Markdown to HTML for FAQ answers and pages, through pulldown-cmark.
//!
//! Raw HTML in Markdown is shown as text, never passed through: content can
//! then never inject markup or script, whatever a site owner pastes in.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html};

use crate::diagnostics::Result;

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

/// A picture placed in Markdown as `![alt](src)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkdownPicture {
    /// Byte offset of the `!` in the Markdown.
    pub offset: usize,
    pub src: String,
    /// Empty for a decoration, written `![""](src)`.
    pub alt: String,
    /// Whether the author wrote any alt text at all (`![](src)` is a mistake:
    /// a screen reader would read out the file name).
    pub described: bool,
}

/// The Markdown a picture's alt text is taken from: `""`, also as smart
/// punctuation makes it, marks a decoration.
fn alt_text(written: &str) -> (String, bool) {
    let trimmed = written.trim();
    match trimmed {
        "" => (String::new(), false),
        "\"\"" | "\u{201c}\u{201d}" => (String::new(), true),
        _ => (trimmed.to_string(), true),
    }
}

/// Every picture of `markdown`, in order.
pub fn pictures(markdown: &str) -> Vec<MarkdownPicture> {
    let mut found = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    for (event, range) in Parser::new_ext(markdown, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Image { dest_url, .. }) => {
                open = Some((range.start, dest_url.to_string(), String::new()));
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some((_, _, alt)) = &mut open {
                    alt.push_str(&text);
                }
            }
            Event::End(TagEnd::Image) => {
                if let Some((offset, src, written)) = open.take() {
                    let (alt, described) = alt_text(&written);
                    found.push(MarkdownPicture {
                        offset,
                        src,
                        alt,
                        described,
                    });
                }
            }
            _ => {}
        }
    }
    found
}

/// [`to_html`], with each picture replaced by what `place` makes of it.
pub fn to_html_with_pictures(
    markdown: &str,
    mut place: impl FnMut(&MarkdownPicture) -> Result<String>,
) -> Result<String> {
    let mut events: Vec<Event> = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    for (event, range) in Parser::new_ext(markdown, options()).into_offset_iter() {
        match (event, &mut open) {
            (Event::Start(Tag::Image { dest_url, .. }), _) => {
                open = Some((range.start, dest_url.to_string(), String::new()));
            }
            (Event::Text(text) | Event::Code(text), Some((_, _, alt))) => alt.push_str(&text),
            (Event::End(TagEnd::Image), _) => {
                if let Some((offset, src, written)) = open.take() {
                    let (alt, described) = alt_text(&written);
                    let picture = MarkdownPicture {
                        offset,
                        src,
                        alt,
                        described,
                    };
                    events.push(Event::Html(CowStr::from(place(&picture)?)));
                }
            }
            (_, Some(_)) => {}
            (Event::Html(raw) | Event::InlineHtml(raw), None) => events.push(Event::Text(raw)),
            (other, None) => events.push(other),
        }
    }
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events.into_iter());
    Ok(out)
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
    fn pictures_are_found_with_their_alt_text_and_replaced() {
        let markdown =
            "Intro.\n\n![Our *green* truck](truck.jpg)\n\n![](bare.png) ![\"\"](line.svg)\n";
        let found = pictures(markdown);
        let summary: Vec<(&str, &str, bool)> = found
            .iter()
            .map(|p| (p.src.as_str(), p.alt.as_str(), p.described))
            .collect();
        assert_eq!(
            summary,
            [
                ("truck.jpg", "Our green truck", true),
                ("bare.png", "", false),
                ("line.svg", "", true)
            ]
        );
        assert_eq!(&markdown[found[0].offset..found[0].offset + 2], "![");
        let html = to_html_with_pictures(markdown, |p| Ok(format!("<PIC {}>", p.src)))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(html.contains("<p><PIC truck.jpg></p>"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        // Raw HTML stays text.
        let html = to_html_with_pictures("<b>x</b>", |_| Ok(String::new())).unwrap_or_default();
        assert!(html.contains("&lt;b&gt;"), "{html}");
    }

    #[test]
    fn plain_text_drops_markup_and_folds_space() {
        assert_eq!(
            to_plain_text("We **serve** the\ncity.\n\nSecond *para*."),
            "We serve the city. Second para."
        );
    }
}
