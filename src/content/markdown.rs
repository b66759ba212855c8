//! Markdown to HTML through pulldown-cmark. Raw HTML is shown as text, so
//! content can never inject markup or script.

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd, html};

use crate::diagnostics::Result;

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SMART_PUNCTUATION
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkdownPicture {
    pub offset: usize,
    pub src: String,
    /// Empty for a decoration, written `![""](src)`.
    pub alt: String,
    /// Whether any alt text was written: `![](src)` would have a screen reader
    /// read the file name.
    pub described: bool,
    pub title: String,
}

/// `markdown` with each picture whose path has a space (which CommonMark reads
/// as text) in the `<…>` form, and where each such `!` now stands.
fn bracket_spaced_paths(markdown: &str) -> (std::borrow::Cow<'_, str>, Vec<usize>) {
    let mut out = String::new();
    let mut fixed = Vec::new();
    let mut copied = 0;
    let mut fenced = false;
    let mut line_start = 0;
    for line in markdown.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
        }
        let mut from = 0;
        while !fenced && let Some(bang) = line[from..].find("![").map(|at| at + from) {
            from = bang + 2;
            // Inside a code span.
            if line[..bang].matches('`').count() % 2 == 1 {
                continue;
            }
            let Some(open) = line[bang..].find("](").map(|at| at + bang + 2) else {
                break;
            };
            let Some(close) = line[open..].find(')').map(|at| at + open) else {
                break;
            };
            let dest = &line[open..close];
            let titled = dest.trim_end().ends_with(['"', '\'']) && dest.contains([' ', '\t']);
            if dest.starts_with('<') || titled || !dest.trim().contains(' ') {
                continue;
            }
            let at = line_start + open;
            out.push_str(&markdown[copied..at]);
            fixed.push(line_start + bang + 2 * fixed.len());
            out.push('<');
            out.push_str(dest.trim());
            out.push('>');
            copied = line_start + close;
            from = close;
        }
        line_start += line.len();
    }
    if fixed.is_empty() {
        return (std::borrow::Cow::Borrowed(markdown), fixed);
    }
    out.push_str(&markdown[copied..]);
    (std::borrow::Cow::Owned(out), fixed)
}

/// A picture's alt text; `""`, also as smart punctuation makes it, marks a decoration.
fn alt_text(written: &str) -> (String, bool) {
    let trimmed = written.trim();
    match trimmed {
        "" => (String::new(), false),
        "\"\"" | "\u{201c}\u{201d}" => (String::new(), true),
        _ => (trimmed.to_string(), true),
    }
}

/// Every picture of `markdown`, as [`to_html_with_pictures`] meets them.
pub fn pictures(markdown: &str) -> Vec<MarkdownPicture> {
    let mut found = Vec::new();
    let _ = to_html_with_pictures(markdown, |picture| {
        found.push(picture.clone());
        Ok(String::new())
    });
    found
}

/// The word that opens a fenced block placing an island: ```` ```island contact ````.
pub const ISLAND_FENCE: &str = "island";

/// An island placed by a fenced block: ```` ```island contact ```` and a `name:
/// value` line per setting.
#[derive(Debug, Clone, PartialEq)]
pub struct MarkdownIsland {
    pub name: String,
    /// Byte offset of the name (of the fence without one).
    pub name_offset: usize,
    pub settings: Vec<IslandSetting>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct IslandSetting {
    pub key: String,
    pub key_offset: usize,
    /// Text, a whole number or true/false, as written.
    pub value: serde_json::Value,
    pub value_offset: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NotASetting {
    pub offset: usize,
    pub line: String,
}

fn island_fence(info: &str) -> bool {
    info.split_whitespace().next() == Some(ISLAND_FENCE)
}

pub fn islands(markdown: &str) -> std::result::Result<Vec<MarkdownIsland>, NotASetting> {
    let mut found = Vec::new();
    let mut open: Option<MarkdownIsland> = None;
    for (event, range) in Parser::new_ext(markdown, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if island_fence(&info) => {
                let block = &markdown[range.clone()];
                let fence = block.find(ISLAND_FENCE).unwrap_or(0);
                let after = &block[fence + ISLAND_FENCE.len()..];
                let first_line = after.lines().next().unwrap_or("");
                let name = first_line.split_whitespace().collect::<Vec<_>>().join(" ");
                let skipped = first_line.len() - first_line.trim_start().len();
                let name_offset = if name.is_empty() {
                    range.start
                } else {
                    range.start + fence + ISLAND_FENCE.len() + skipped
                };
                open = Some(MarkdownIsland {
                    name,
                    name_offset,
                    settings: Vec::new(),
                });
            }
            Event::Text(text) => {
                let Some(island) = &mut open else { continue };
                // Exact unless the block is indented (in a list), which cuts its lines.
                let exact = markdown.get(range.clone()) == Some(&*text);
                let mut at = 0;
                for line in text.split_inclusive('\n') {
                    let offset = range.start + if exact { at } else { 0 };
                    at += line.len();
                    let trimmed = line.trim();
                    if trimmed.is_empty() || trimmed.starts_with('#') {
                        continue;
                    }
                    let indent = line.len() - line.trim_start().len();
                    island
                        .settings
                        .push(setting(line.trim_end(), offset, indent)?);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(island) = open.take() {
                    found.push(island);
                }
            }
            _ => {}
        }
    }
    Ok(found)
}

/// `name: value`: text, a whole number or true/false; quotes make anything text.
fn setting(
    line: &str,
    offset: usize,
    indent: usize,
) -> std::result::Result<IslandSetting, NotASetting> {
    let not = || NotASetting {
        offset: offset + indent,
        line: line.trim().to_string(),
    };
    let (key, rest) = line.split_once(':').ok_or_else(not)?;
    let key_trimmed = key.trim();
    let is_name = key_trimmed
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && key_trimmed
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let written = rest.trim();
    if !is_name || written.is_empty() {
        return Err(not());
    }
    let value_offset = offset + key.len() + 1 + (rest.len() - rest.trim_start().len());
    let quoted = written.len() >= 2
        && ((written.starts_with('"') && written.ends_with('"'))
            || (written.starts_with('\'') && written.ends_with('\'')));
    let value = if quoted {
        serde_json::Value::String(written[1..written.len() - 1].to_string())
    } else if written == "true" || written == "false" {
        serde_json::Value::Bool(written == "true")
    } else if let Ok(number) = written.parse::<i64>() {
        serde_json::Value::from(number)
    } else {
        serde_json::Value::String(written.to_string())
    };
    Ok(IslandSetting {
        key: key_trimmed.to_string(),
        key_offset: offset + (key.len() - key.trim_start().len()),
        value,
        value_offset,
    })
}

/// `markdown` in HTML, each picture replaced by `place`'s markup; island blocks stay code.
pub fn to_html_with_pictures(
    markdown: &str,
    place: impl FnMut(&MarkdownPicture) -> Result<String>,
) -> Result<String> {
    to_html_with_placements(markdown, place, |_| Ok(None))
}

/// As [`to_html_with_pictures`], and island block `n` ([`islands`]' order)
/// replaced by `place_island(n)` (`None` leaves it code).
pub fn to_html_with_placements(
    markdown: &str,
    mut place: impl FnMut(&MarkdownPicture) -> Result<String>,
    mut place_island: impl FnMut(usize) -> Result<Option<String>>,
) -> Result<String> {
    let mut events: Vec<Event> = Vec::new();
    let mut open: Option<(usize, String, String, String)> = None;
    let mut islands = 0;
    let mut in_island = false;
    let (source, fixed) = bracket_spaced_paths(markdown);
    // Each fix added two bytes before it.
    let original = |offset: usize| offset - 2 * fixed.iter().filter(|at| **at < offset).count();
    for (event, range) in Parser::new_ext(&source, options()).into_offset_iter() {
        if in_island {
            in_island = !matches!(event, Event::End(TagEnd::CodeBlock));
            continue;
        }
        match (event, &mut open) {
            (Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))), None)
                if island_fence(&info) =>
            {
                let n = islands;
                islands += 1;
                match place_island(n)? {
                    Some(html) => {
                        events.push(Event::Html(CowStr::from(html)));
                        in_island = true;
                    }
                    None => events.push(Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))),
                }
            }
            (
                Event::Start(Tag::Image {
                    dest_url, title, ..
                }),
                _,
            ) => {
                let src = dest_url.to_string();
                open = Some((original(range.start), src, title.to_string(), String::new()));
            }
            (Event::Text(text) | Event::Code(text), Some((_, _, _, alt))) => alt.push_str(&text),
            (Event::End(TagEnd::Image), _) => {
                if let Some((offset, src, title, written)) = open.take() {
                    let (alt, described) = alt_text(&written);
                    let picture = MarkdownPicture {
                        offset,
                        src,
                        alt,
                        described,
                        title,
                    };
                    events.push(Event::Html(CowStr::from(place(&picture)?)));
                }
            }
            (_, Some(_)) => {}
            (Event::Html(raw) | Event::InlineHtml(raw), None) => events.push(Event::Text(raw)),
            (other, None) => events.push(other),
        }
    }
    let mut out = String::with_capacity(source.len() * 3 / 2);
    html::push_html(&mut out, events.into_iter());
    Ok(out)
}

pub fn to_plain_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Text(text) | Event::Code(text) | Event::Html(text) | Event::InlineHtml(text) => {
                out.push_str(&text)
            }
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            // Inline ends join their words; block ends separate them.
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
        let html = to_html_with_pictures(
            "Hi <script>alert(1)</script> there\n\n<div onclick=x>block</div>\n",
            |_| Ok(String::new()),
        )
        .unwrap_or_default();
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
    fn a_path_with_a_space_and_a_title_are_read_as_written() {
        let markdown = "`![code](a b.jpg)`\n\nSee ![Our truck](../photos/Our Truck.jpg) and ![Bins](bins.jpg \"At dusk\").\n";
        let found = pictures(markdown);
        let summary: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|p| (p.src.as_str(), p.alt.as_str(), p.title.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                ("../photos/Our Truck.jpg", "Our truck", ""),
                ("bins.jpg", "Bins", "At dusk")
            ]
        );
        for picture in &found {
            assert_eq!(&markdown[picture.offset..picture.offset + 2], "![");
        }
        assert_eq!(&markdown[found[1].offset..found[1].offset + 6], "![Bins");
    }

    #[test]
    fn plain_text_drops_markup_and_folds_space() {
        assert_eq!(
            to_plain_text("We **serve** the\ncity.\n\nSecond *para*."),
            "We serve the city. Second para."
        );
    }
}
