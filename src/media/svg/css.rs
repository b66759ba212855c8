//! CSS in a drawing (`<style>`, `style=` and every presentation attribute),
//! read by a real CSS tokenizer, so escapes (`\75 rl(`), comments and case
//! are seen as a browser sees them. Only functions that compute a value are
//! allowed, and `url()` only as a reference within the drawing (`#id`):
//! nothing a style names can be fetched.

use crate::media::refused::Refused;
use cssparser::{Parser, Token};

/// Functions that compute a colour, a length, a transform, a shape or a
/// selector, and fetch nothing. Left out: `image()`, `image-set()`,
/// `cross-fade()`, `element()`, `src()`, `attr()` and any function not
/// named, known today or not.
const FUNCTIONS: &[&str] = &[
    // Colours.
    "rgb",
    "rgba",
    "hsl",
    "hsla",
    "hwb",
    "lab",
    "lch",
    "oklab",
    "oklch",
    "color",
    "color-mix",
    "light-dark",
    // Numbers.
    "calc",
    "min",
    "max",
    "clamp",
    "var",
    // Transforms.
    "matrix",
    "matrix3d",
    "translate",
    "translatex",
    "translatey",
    "translate3d",
    "scale",
    "scalex",
    "scaley",
    "scale3d",
    "rotate",
    "rotatex",
    "rotatey",
    "rotate3d",
    "skew",
    "skewx",
    "skewy",
    "perspective",
    // Timing of CSS transitions.
    "cubic-bezier",
    "steps",
    // Filters and shapes.
    "blur",
    "brightness",
    "contrast",
    "drop-shadow",
    "grayscale",
    "hue-rotate",
    "invert",
    "opacity",
    "saturate",
    "sepia",
    "inset",
    "circle",
    "ellipse",
    "polygon",
    "path",
    // Gradients: drawn, not fetched.
    "linear-gradient",
    "radial-gradient",
    "conic-gradient",
    "repeating-linear-gradient",
    "repeating-radial-gradient",
    "repeating-conic-gradient",
    // Selectors.
    "not",
    "is",
    "where",
    "has",
    "nth-child",
    "nth-last-child",
    "nth-of-type",
    "nth-last-of-type",
    "lang",
    "dir",
];

/// At-rules that group or time rules and load nothing. Left out:
/// `@import`, `@font-face`, `@namespace` and any not named.
const AT_RULES: &[&str] = &[
    "media",
    "supports",
    "keyframes",
    "-webkit-keyframes",
    "layer",
    "container",
    "charset",
];

/// Why the style cannot be published as it is, quoting the part at fault.
pub fn check(css: &str) -> Result<(), Refused> {
    let mut parser = Parser::new(css);
    let mut refused = None;
    walk(&mut parser, &mut refused);
    refused.map_or(Ok(()), |what| Err(Refused::ExternalStyle(what)))
}

fn walk(parser: &mut Parser, refused: &mut Option<String>) {
    while refused.is_none() {
        let Ok(token) = parser.next_including_whitespace_and_comments() else {
            return;
        };
        let nested = match token {
            Token::UnquotedUrl(url) => {
                if !url.starts_with('#') {
                    *refused = Some(format!("url({})", shorten(url)));
                }
                None
            }
            Token::BadUrl(url) => {
                *refused = Some(format!("url({})", shorten(url)));
                None
            }
            Token::AtKeyword(name) => {
                if !allowed(AT_RULES, name) {
                    *refused = Some(format!("@{}", shorten(name)));
                }
                None
            }
            Token::Function(name) if name.eq_ignore_ascii_case("url") => Some(true),
            Token::Function(name) => {
                if !allowed(FUNCTIONS, name) {
                    *refused = Some(format!("{}()", shorten(name)));
                }
                Some(false)
            }
            Token::ParenthesisBlock | Token::SquareBracketBlock | Token::CurlyBracketBlock => {
                Some(false)
            }
            _ => None,
        };
        let Some(is_url) = nested else { continue };
        if refused.is_some() {
            return;
        }
        let read = parser.parse_nested_block(|inner| -> Result<(), cssparser::ParseError<()>> {
            if is_url {
                url_argument(inner, refused);
            } else {
                walk(inner, refused);
            }
            Ok(())
        });
        // Past the tokenizer's nesting limit: what is inside was not read.
        if read.is_err() && refused.is_none() {
            *refused = Some("blocks nested too deep to read".to_string());
        }
    }
}

/// `url("…")`: one string naming a part of this drawing, nothing else.
fn url_argument(parser: &mut Parser, refused: &mut Option<String>) {
    let mut target = None;
    loop {
        match parser.next_including_whitespace_and_comments() {
            Err(_) => break,
            Ok(Token::WhiteSpace(_) | Token::Comment(_)) => {}
            Ok(Token::QuotedString(value)) if target.is_none() => {
                target = Some(value.to_string());
            }
            Ok(other) => {
                *refused = Some(format!("url(… {} …)", shorten(&format!("{other:?}"))));
                return;
            }
        }
    }
    match target {
        Some(value) if value.starts_with('#') => {}
        Some(value) => *refused = Some(format!("url(\"{}\")", shorten(&value))),
        None => *refused = Some("url()".to_string()),
    }
}

fn allowed(list: &[&str], name: &str) -> bool {
    list.iter()
        .any(|allowed| allowed.eq_ignore_ascii_case(name))
}

/// What a message quotes: enough to find it in the file.
fn shorten(text: &str) -> String {
    text.chars().take(60).collect()
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn references_within_the_drawing_and_computed_values_pass() {
        for css in [
            "fill: url(#g); stroke: url( '#h' )",
            ".st0{fill:#FFF;stroke:rgb(0 0 0 / 50%)} @media (max-width: 9px) { .a { opacity: calc(1 - .5) } }",
            "transform: translate(10px, 2px) rotate(45deg)",
            "rect:not(.a):nth-child(2n+1) { fill: color-mix(in srgb, red, blue) }",
            "@keyframes spin { to { transform: rotate(1turn) } }",
        ] {
            assert_eq!(check(css), Ok(()), "{css}");
        }
    }

    #[test]
    fn every_spelling_of_a_fetch_is_refused() {
        for css in [
            "fill: url(https://example.com/a.svg#x)",
            "fill: URL(\"//example.com/x\")",
            "fill: \\75 rl(https://example.com/x)",
            "fill: u\\72l(\"https://example.com/x\")",
            "@import 'https://example.com/a.css';",
            "@\\69mport 'x.css';",
            "@IMPORT url(#x);",
            "@font-face { font-family: a; src: local(a) }",
            "background: image-set('a.png' 1x)",
            "background: -webkit-image-set(url(#a) 1x)",
            "background: image(\"a.png\")",
            "background: cross-fade(url(#a), url(#b))",
            "fill: url(#a) , url(b)",
            "fill: url(\"#a\" \"b\")",
            "fill: url(",
            "fill: url(a b)",
            "fill: var(--x, url(https://example.com/x))",
            "rect { fill: attr(data-x url) }",
            &format!(
                "{}url(https://example.com/x){}",
                "(".repeat(300),
                ")".repeat(300)
            ),
        ] {
            assert!(check(css).is_err(), "{css} passed");
        }
    }
}
