//! How large a drawing becomes once parsed, known before it is parsed. An
//! entity declared in the file's own DTD and used many times expands a few
//! kilobytes into gigabytes (the parser's loop check stops only a reference
//! to itself), so the text entities expand to is counted first, from the
//! declarations alone, and a file over the budget is never parsed.

use crate::media::limits::{MAX_TEXT, SVG_GROWTH_ALLOWED};
use crate::media::refused::Refused;
use std::collections::HashMap;

/// The most text `bytes` may expand to.
pub fn limit(len: usize) -> u64 {
    (2 * len as u64 + SVG_GROWTH_ALLOWED).min(MAX_TEXT)
}

/// An upper bound of the text the document expands to: every `&name;`
/// anywhere in the file counted as the entity's full expansion.
pub fn expanded_len(text: &str) -> Result<u64, Refused> {
    expanded_len_of(text).map_err(Refused::BadDrawing)
}

fn expanded_len_of(text: &str) -> Result<u64, String> {
    let declared = declarations(text)?;
    let longest = declared.keys().map(|name| name.len()).max().unwrap_or(0);
    let mut known = HashMap::new();
    let mut total = text.len() as u64;
    for (name, at_least) in references(text, longest) {
        if declared.contains_key(name) {
            let full = entity_len(name, &declared, longest, &mut known, 0)?;
            total = total.saturating_add(full.saturating_sub(at_least));
        }
    }
    Ok(total)
}

/// The internal subset's entities, name to value, read by an XML tokenizer
/// up to the first element.
fn declarations(text: &str) -> Result<HashMap<&str, &str>, String> {
    let mut declared = HashMap::new();
    for token in xmlparser::Tokenizer::from(text) {
        match token.map_err(|err| err.to_string())? {
            xmlparser::Token::EntityDeclaration {
                name,
                definition: xmlparser::EntityDefinition::EntityValue(value),
                ..
            } => {
                declared.insert(name.as_str(), value.as_str());
            }
            xmlparser::Token::ElementStart { .. } => break,
            _ => {}
        }
    }
    Ok(declared)
}

/// Each `&name;` in `text` whose name is at most `longest` bytes (no
/// declared entity's is longer), with the length of the reference itself.
/// Each `&` looks that far ahead and no further, so a file of ampersands
/// costs one pass.
fn references(text: &str, longest: usize) -> impl Iterator<Item = (&str, u64)> {
    text.match_indices('&').filter_map(move |(at, _)| {
        let rest = text.get(at + 1..)?;
        let window = rest
            .char_indices()
            .nth(longest + 1)
            .map_or(rest, |(end, _)| &rest[..end]);
        let end = window.find(';')?;
        let name = &rest[..end];
        (!name.is_empty() && !name.starts_with('#') && !name.contains(char::is_whitespace))
            .then(|| (name, end as u64 + 2))
    })
}

/// The text `name` expands to, its own references expanded in turn.
fn entity_len<'a>(
    name: &'a str,
    declared: &HashMap<&'a str, &'a str>,
    longest: usize,
    known: &mut HashMap<&'a str, u64>,
    depth: u8,
) -> Result<u64, String> {
    if let Some(len) = known.get(name) {
        return Ok(*len);
    }
    // The parser itself stops at ten levels; deeper is a loop or an attack.
    if depth > 10 {
        return Err(format!("the entity &{name}; refers to itself"));
    }
    let value = declared.get(name).copied().unwrap_or_default();
    let mut len = value.len() as u64;
    for (inner, reference) in references(value, longest) {
        if declared.contains_key(inner) {
            let full = entity_len(inner, declared, longest, known, depth + 1)?;
            len = len.saturating_add(full.saturating_sub(reference));
        }
    }
    known.insert(name, len);
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laughs(levels: usize, per_level: usize) -> String {
        let mut dtd = String::from("<!ENTITY l0 \"lol\">");
        for level in 1..levels {
            let refs = format!("&l{};", level - 1).repeat(per_level);
            dtd.push_str(&format!("<!ENTITY l{level} \"{refs}\">"));
        }
        format!(
            "<!DOCTYPE svg [{dtd}]><svg xmlns=\"http://www.w3.org/2000/svg\"><text>&l{};</text></svg>",
            levels - 1
        )
    }

    #[test]
    fn expansion_is_counted_before_parsing() {
        // `&l1;` is 9 characters once expanded; a bound counts no reference
        // as shorter than what it names, so it says 12 (the value as written).
        let small = laughs(2, 3);
        assert_eq!(expanded_len(&small).unwrap(), small.len() as u64 + 12 - 4);
        let bomb = laughs(6, 10);
        assert!(expanded_len(&bomb).unwrap() > 300_000);
        assert!(expanded_len(&bomb).unwrap() > limit(bomb.len()));
    }

    #[test]
    fn one_entity_used_many_times_is_counted_each_time() {
        let value = "x".repeat(3000);
        let uses = "&big;".repeat(30_000);
        let text = format!(
            "<!DOCTYPE svg [<!ENTITY big \"{value}\">]><svg xmlns=\"http://www.w3.org/2000/svg\"><text>{uses}</text></svg>"
        );
        assert!(expanded_len(&text).unwrap() >= 90_000_000);
    }

    #[test]
    fn illustrators_namespace_entities_fit() {
        let text = "<?xml version=\"1.0\"?><!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\" [\n\t<!ENTITY ns_extend \"http://ns.adobe.com/Extensibility/1.0/\">\n\t<!ENTITY ns_ai \"http://ns.adobe.com/AdobeIllustrator/10.0/\">\n]><svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:x=\"&ns_extend;\" xmlns:i=\"&ns_ai;\"/>";
        let expanded = expanded_len(text).unwrap();
        assert!(expanded > text.len() as u64 && expanded <= limit(text.len()));
    }

    #[test]
    fn a_file_of_ampersands_is_read_once() {
        // Each `&` looks only as far as the longest declared name.
        let text = format!(
            "<!DOCTYPE svg [<!ENTITY a \"x\">]><svg xmlns=\"http://www.w3.org/2000/svg\"><text>{}</text></svg>",
            "&".repeat(4_000_000)
        );
        assert_eq!(expanded_len(&text).unwrap(), text.len() as u64);
    }
}
