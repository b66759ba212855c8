//! Markers for what exists only after the pages are rendered, and the real
//! thing put in their place. A marker is a name and a per-process number
//! between two U+F8FF: the minifier keeps it, and no content holds it by
//! accident (U+F8FF can be typed, the number cannot be guessed). Digits only,
//! so a filter changing letters (`|upper`) leaves it recognisable, and reported.

use std::sync::OnceLock;

use crate::diagnostics::{Diagnostic, Location, Result};

const EDGE: char = '\u{F8FF}';

pub fn marker(name: &str) -> String {
    format!("{EDGE}{}:{name}{EDGE}", nonce())
}

fn nonce() -> &'static str {
    static NONCE: OnceLock<String> = OnceLock::new();
    NONCE.get_or_init(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.finish().to_string()
    })
}

/// `html` with each marker replaced by `value`'s answer for its name, in one
/// pass (nothing put in is read again). An unknown name, or a marker a layout
/// cut or changed, is an error naming `page`.
pub fn replace_with(
    html: &str,
    page: &str,
    mut value: impl FnMut(&str) -> Option<String>,
) -> Result<String> {
    let start = format!("{EDGE}{}:", nonce());
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find(&start) {
        out.push_str(&rest[..at]);
        let after = &rest[at + start.len()..];
        let name = after.find(EDGE).map(|end| &after[..end]);
        let Some(value) = name.and_then(&mut value) else {
            return Err(changed_by_a_layout(page, name.unwrap_or(after)));
        };
        out.push_str(&value);
        rest = &after[name.map_or(0, |name| name.len() + EDGE.len_utf8())..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The marker names in `html`, in order; a cut one ends the list ([`replace_with`] reports it).
pub fn names(html: &str) -> Vec<&str> {
    let start = format!("{EDGE}{}:", nonce());
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(&start) {
        let after = &rest[at + start.len()..];
        let Some(end) = after.find(EDGE) else {
            break;
        };
        found.push(&after[..end]);
        rest = &after[end + EDGE.len_utf8()..];
    }
    found
}

/// `html` without the `<{tag}` element whose whole text is `marker` ([`count_as_element_text`]).
pub fn remove_element(html: &str, marker: &str, tag: &str) -> String {
    let Some(at) = html.find(marker) else {
        return html.to_string();
    };
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let start = html[..at].rfind(&open).unwrap_or(at);
    let end = html[at..]
        .find(&close)
        .map_or(at + marker.len(), |end| at + end + close.len());
    // With the element's line.
    let end = if html[end..].starts_with('\n') {
        end + 1
    } else {
        end
    };
    format!("{}{}", &html[..start], &html[end..])
}

fn changed_by_a_layout(page: &str, found: &str) -> Diagnostic {
    let shown: String = found.chars().take(40).collect();
    Diagnostic::new(format!(
        "in {page}, a value the build fills in after rendering was changed by a layout (found `{shown}`)"
    ))
    .at(Location::file("layouts"))
    .help("use `{{ assets.… }}` and `{{ islands.… }}` values as they are, without filters")
}

/// How often `marker` stands in `html`; `Err` where it is not the whole
/// text of a `<{tag}>` element.
pub fn count_as_element_text(
    html: &str,
    marker: &str,
    tag: &str,
) -> std::result::Result<usize, ()> {
    let mut count = 0;
    let mut rest = html;
    while let Some(at) = rest.find(marker) {
        let before = &rest[..at];
        let opened = before
            .rfind('<')
            .map(|open| &before[open..])
            .is_some_and(|start_tag| {
                start_tag.strip_prefix('<').is_some_and(|t| {
                    t.get(..tag.len())
                        .is_some_and(|name| name.eq_ignore_ascii_case(tag))
                }) && start_tag.ends_with('>')
            });
        let after = &rest[at + marker.len()..];
        let closed = after
            .get(..tag.len() + 3)
            .is_some_and(|end| end.eq_ignore_ascii_case(&format!("</{tag}>")));
        if !(opened && closed) {
            return Err(());
        }
        count += 1;
        rest = after;
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn replace(html: &str, values: &HashMap<&str, &str>, page: &str) -> Result<String> {
        replace_with(html, page, |name| values.get(name).map(|v| v.to_string()))
    }

    #[test]
    fn markers_are_replaced_once_and_what_goes_in_is_left_alone() {
        let a = marker("a");
        let b = marker("b");
        // A value holding a marker's text is not looked at again.
        let values = HashMap::from([("a", b.as_str()), ("b", "B")]);
        let html = format!("x{a}y{b}z\u{F8FF}apple\u{F8FF}");
        assert_eq!(
            replace(&html, &values, "p.html").unwrap(),
            format!("x{b}yBz\u{F8FF}apple\u{F8FF}")
        );
    }

    #[test]
    fn a_changed_or_cut_marker_is_reported() {
        let values = HashMap::from([("a", "A")]);
        let upper = marker("a").to_uppercase();
        let err = replace(&format!("<p>{upper}</p>"), &values, "index.html").unwrap_err();
        assert!(err.to_string().contains("index.html"), "{err}");
        let cut = format!("<p>{}</p>", marker("a").trim_end_matches(EDGE));
        assert!(replace(&cut, &values, "index.html").is_err());
    }

    #[test]
    fn a_marker_must_be_the_whole_text_of_its_element() {
        let m = marker("css");
        assert_eq!(
            count_as_element_text(&format!("<style>{m}</style>"), &m, "style"),
            Ok(1)
        );
        assert_eq!(
            count_as_element_text(
                &format!("<script data-x=\"1\">{m}</script><script>{m}</script>"),
                &m,
                "script"
            ),
            Ok(2)
        );
        assert_eq!(count_as_element_text("<p>none</p>", &m, "style"), Ok(0));
        for wrong in [
            format!("<style>\n{m}</style>"),
            format!("<style>{m} </style>"),
            format!("<style>a{{}}{m}</style>"),
            format!("<div>{m}</div>"),
            format!("<style>{m}</div>"),
            m.clone(),
        ] {
            assert_eq!(
                count_as_element_text(&wrong, &m, "style"),
                Err(()),
                "{wrong}"
            );
        }
    }
}
