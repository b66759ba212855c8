//! The copy itself: the drawing parsed once its budget allows it, then
//! written element by element from the allowlists.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::budget;
use super::{allowed, css};
use crate::media::limits::{MAX_DEPTH, MAX_SVG_NODES};
use crate::media::refused::Refused;

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

pub fn clean(bytes: &[u8]) -> Result<Vec<u8>, Refused> {
    let limit = budget::limit(bytes.len());
    if bytes.len() as u64 > limit {
        return Err(Refused::DrawingTooLarge {
            text: bytes.len() as u64,
            limit,
            expanded: false,
        });
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Refused::BadDrawing("it is not UTF-8 text".to_string()))?;
    let expanded = budget::expanded_len(text)?;
    if expanded > limit {
        return Err(Refused::DrawingTooLarge {
            text: expanded,
            limit,
            expanded: true,
        });
    }
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_SVG_NODES,
        ..roxmltree::ParsingOptions::default()
    };
    let document = roxmltree::Document::parse_with_options(text, options)
        .map_err(|err| Refused::BadDrawing(err.to_string()))?;
    let root = document.root_element();
    if !in_svg(root) || root.tag_name().name() != "svg" {
        return Err(Refused::BadDrawing(
            "its outermost element is not an SVG drawing".to_string(),
        ));
    }
    let mut ids = HashSet::new();
    kept_ids(root, 0, &mut ids)?;
    let mut writer = Writer {
        out: String::with_capacity(text.len()),
        ids,
    };
    writer.element(root, "svg", 0)?;
    writer.out.push('\n');
    Ok(writer.out.into_bytes())
}

fn in_svg(node: roxmltree::Node) -> bool {
    node.is_element() && node.tag_name().namespace() == Some(SVG_NS)
}

/// The name an element is written with, `None` when it is left out with
/// everything inside it.
fn written_as(node: roxmltree::Node) -> Option<&'static str> {
    if !in_svg(node) {
        return None;
    }
    let name = node.tag_name().name();
    // A part drawn only for a reader with an extension (Illustrator's
    // private data) is not drawn by a browser.
    if node.has_attribute("requiredExtensions") {
        return None;
    }
    if allowed::UNWRAPPED.contains(&name) {
        return Some("g");
    }
    allowed::element(name)
}

/// The ids of `node` and of the elements under it that the copy keeps,
/// walked as the copy is written: once each, never deeper than the budget.
fn kept_ids<'a>(
    node: roxmltree::Node<'a, '_>,
    depth: usize,
    ids: &mut HashSet<&'a str>,
) -> Result<(), Refused> {
    if depth > MAX_DEPTH {
        return Err(Refused::TooDeep);
    }
    if let Some(id) = node.attribute("id") {
        ids.insert(id);
    }
    for child in node.children().filter(|child| written_as(*child).is_some()) {
        kept_ids(child, depth + 1, ids)?;
    }
    Ok(())
}

struct Writer<'input> {
    out: String,
    /// The ids of the elements the copy keeps: what a reference may name.
    ids: HashSet<&'input str>,
}

impl Writer<'_> {
    fn element(
        &mut self,
        node: roxmltree::Node,
        name: &'static str,
        depth: usize,
    ) -> Result<(), Refused> {
        if depth > MAX_DEPTH {
            return Err(Refused::TooDeep);
        }
        self.out.push('<');
        self.out.push_str(name);
        if depth == 0 {
            let _ = write!(self.out, " xmlns=\"{SVG_NS}\" xmlns:xlink=\"{XLINK_NS}\"");
        }
        for attribute in node.attributes() {
            self.attribute(&attribute)?;
        }
        let mut open = false;
        for child in node.children() {
            if child.is_text() {
                let text = child.text().unwrap_or_default();
                if name == "style" {
                    css::check(text)?;
                }
                if !open {
                    self.out.push('>');
                    open = true;
                }
                self.out.push_str(&crate::text::escape_markup(text));
                continue;
            }
            if in_svg(child)
                && child.tag_name().name() == "image"
                && child
                    .attributes()
                    .any(|a| a.name() == "href" && a.value().trim_start().starts_with("data:"))
            {
                return Err(Refused::EmbeddedPicture);
            }
            let Some(child_name) = written_as(child) else {
                continue;
            };
            if !open {
                self.out.push('>');
                open = true;
            }
            self.element(child, child_name, depth + 1)?;
        }
        if open {
            let _ = write!(self.out, "</{name}>");
        } else {
            self.out.push_str("/>");
        }
        Ok(())
    }

    fn attribute(&mut self, attribute: &roxmltree::Attribute) -> Result<(), Refused> {
        let local = attribute.name();
        let value = attribute.value();
        let (prefix, name) = match attribute.namespace() {
            None if allowed::REFERENCES.contains(&local) => ("", "href"),
            Some(XLINK_NS) if allowed::REFERENCES.contains(&local) => ("xlink:", "href"),
            None => match allowed::attribute(local) {
                Some(name) => ("", name),
                None => return Ok(()),
            },
            Some(XML_NS) => match allowed::XML_ATTRIBUTES.iter().find(|n| **n == local) {
                Some(name) => ("xml:", *name),
                None => return Ok(()),
            },
            // Editors' own, and any other namespace's.
            Some(_) => return Ok(()),
        };
        if name == "href" {
            // Only a part of this drawing that the copy keeps.
            let target = value.trim_matches(|c: char| c.is_ascii_whitespace());
            if let Some(id) = target.strip_prefix('#').filter(|id| self.ids.contains(id)) {
                let _ = write!(
                    self.out,
                    " {prefix}href=\"#{}\"",
                    crate::text::escape_markup(id)
                );
            }
            return Ok(());
        }
        // Every value is CSS to some reader (presentation attributes are
        // parsed as CSS values): no fetch may hide in any of them.
        css::check(value)?;
        let _ = write!(
            self.out,
            " {prefix}{name}=\"{}\"",
            crate::text::escape_markup(value)
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRAWING: &str = r##"<?xml version="1.0" encoding="UTF-8"?>
<!-- Created with Inkscape by Jane Doe -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
     width="10" height="10" onload="alert(1)" sodipodi:docname="/home/jane/logo.svg">
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">Jane</rdf:RDF></metadata>
  <sodipodi:namedview inkscape:export-filename="/home/jane/logo.png"/>
  <script>alert(2)</script>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#0a0"/></linearGradient></defs>
  <a href="javascript:alert(3)"><rect width="5" height="5" fill="url(#g)" onclick="x()"/></a>
  <image xlink:href="/etc/passwd" width="1" height="1"/>
  <use xlink:href="#g"/>
  <text x="1" y="9">A &amp; B</text>
</svg>"##;

    #[test]
    fn only_the_drawing_is_kept() {
        let cleaned = String::from_utf8(clean(DRAWING.as_bytes()).unwrap()).unwrap();
        for gone in [
            "Inkscape",
            "Jane",
            "jane",
            "alert",
            "onload",
            "onclick",
            "script",
            "metadata",
            "sodipodi",
            "inkscape",
            "javascript",
            "/etc/passwd",
        ] {
            assert!(!cleaned.contains(gone), "{gone} left in {cleaned}");
        }
        for kept in [
            "fill=\"url(#g)\"",
            "xlink:href=\"#g\"",
            "A &amp; B</text>",
            "<linearGradient id=\"g\">",
        ] {
            assert!(cleaned.contains(kept), "{kept} missing from {cleaned}");
        }
        // What is written parses the same way again.
        assert_eq!(clean(cleaned.as_bytes()).unwrap(), cleaned.as_bytes());
    }

    #[test]
    fn embedded_photos_and_outside_styles_are_refused() {
        let photo = r#"<svg xmlns="http://www.w3.org/2000/svg"><image href="data:image/jpeg;base64,AAAA"/></svg>"#;
        assert_eq!(clean(photo.as_bytes()), Err(Refused::EmbeddedPicture));
        let font = r#"<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://fonts.example/a.css);</style></svg>"#;
        assert!(matches!(
            clean(font.as_bytes()),
            Err(Refused::ExternalStyle(_))
        ));
        let fill =
            r#"<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(/etc/x)"/></svg>"#;
        assert!(matches!(
            clean(fill.as_bytes()),
            Err(Refused::ExternalStyle(_))
        ));
    }

    #[test]
    fn nesting_past_the_budget_is_refused_before_it_is_walked_again() {
        // Within the node limit, 1.2 MB: each element is visited once.
        let deep = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\">{}{}</svg>",
            "<g>".repeat(200_000),
            "</g>".repeat(200_000)
        );
        assert_eq!(clean(deep.as_bytes()), Err(Refused::TooDeep));
        let fine = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\">{}<rect id=\"r\"/>{}<use href=\"#r\"/></svg>",
            "<g>".repeat(MAX_DEPTH - 1),
            "</g>".repeat(MAX_DEPTH - 1)
        );
        let copy = String::from_utf8(clean(fine.as_bytes()).unwrap()).unwrap();
        assert!(copy.contains("<use href=\"#r\"/>"), "{copy}");
    }
}
