//! An SVG as published: the drawing and nothing else. Editors write names,
//! paths and settings into it (`<metadata>`, `inkscape:`, `sodipodi:`,
//! comments), and it may carry code (`<script>`, `onload=`, `javascript:`) or
//! reach for other files. The copy is written anew with only SVG's own elements
//! and attributes; what cannot be removed without changing the drawing is refused.

use std::fmt::Write as _;

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Dropped with everything inside.
const DROPPED: &[&str] = &["metadata", "script", "foreignObject"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    Unreadable(String),
    /// An embedded photo, which may carry camera details.
    EmbeddedPicture,
    /// A style naming a file or address outside the drawing.
    ExternalStyle(String),
}

pub fn clean(bytes: &[u8]) -> Result<Vec<u8>, Refused> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Refused::Unreadable("it is not UTF-8 text".to_string()))?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: 1_000_000,
        ..roxmltree::ParsingOptions::default()
    };
    let document = roxmltree::Document::parse_with_options(text, options)
        .map_err(|err| Refused::Unreadable(err.to_string()))?;
    let root = document.root_element();
    if root.tag_name().name() != "svg" || root.tag_name().namespace() != Some(SVG_NS) {
        return Err(Refused::Unreadable(
            "its outermost element is not an SVG drawing".to_string(),
        ));
    }
    let mut out = String::with_capacity(text.len());
    write_element(&mut out, root, true)?;
    out.push('\n');
    Ok(out.into_bytes())
}

fn write_element(out: &mut String, node: roxmltree::Node, root: bool) -> Result<(), Refused> {
    let name = node.tag_name().name();
    out.push('<');
    out.push_str(name);
    if root {
        let _ = write!(out, " xmlns=\"{SVG_NS}\" xmlns:xlink=\"{XLINK_NS}\"");
    }
    for attribute in node.attributes() {
        let local = attribute.name();
        let prefix = match attribute.namespace() {
            None => "",
            Some(XLINK_NS) => "xlink:",
            Some(XML_NS) => "xml:",
            // Any editor's own.
            Some(_) => continue,
        };
        if local.to_ascii_lowercase().starts_with("on") {
            continue;
        }
        let value = attribute.value();
        if local == "href" {
            if value.trim_start().starts_with("data:") && name == "image" {
                return Err(Refused::EmbeddedPicture);
            }
            // Only references within the drawing (a gradient, a symbol).
            if !value.trim_start().starts_with('#') {
                continue;
            }
        }
        if local == "style" || value.contains("url(") {
            check_style(value)?;
        }
        let _ = write!(out, " {prefix}{local}=\"{}\"", escape(value, true));
    }
    let children: Vec<roxmltree::Node> = node
        .children()
        .filter(|child| {
            child.is_text()
                || (child.is_element()
                    && child.tag_name().namespace() == Some(SVG_NS)
                    && !DROPPED.contains(&child.tag_name().name()))
        })
        .collect();
    if children.is_empty() {
        out.push_str("/>");
        return Ok(());
    }
    out.push('>');
    for child in children {
        if child.is_element() {
            write_element(out, child, false)?;
        } else if let Some(text) = child.text() {
            if name == "style" {
                check_style(text)?;
            }
            out.push_str(&escape(text, false));
        }
    }
    let _ = write!(out, "</{name}>");
    Ok(())
}

fn check_style(css: &str) -> Result<(), Refused> {
    let lower = css.to_ascii_lowercase();
    if lower.contains("@import") {
        return Err(Refused::ExternalStyle("@import".to_string()));
    }
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("url(") {
        rest = &rest[at + 4..];
        let target = rest.trim_start().trim_start_matches(['"', '\'']);
        if !target.starts_with('#') {
            let shown: String = target.chars().take_while(|c| *c != ')').take(60).collect();
            return Err(Refused::ExternalStyle(format!("url({shown})")));
        }
    }
    Ok(())
}

fn escape(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            '\n' if attribute => out.push_str("&#10;"),
            _ => out.push(c),
        }
    }
    out
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
}
