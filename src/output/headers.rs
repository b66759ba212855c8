//! The security headers, in one place: `_headers` for hosting that reads it,
//! and the preview server's.

/// The sign-up form posts there, so the policy allows it beside the site.
pub const HOSTED_FORM_SERVICE: &str = "https://formspree.io";

/// The CSP sources of the pages' inline stylesheet and script.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InlineSources {
    pub styles: Vec<String>,
    pub scripts: Vec<String>,
}

impl InlineSources {
    pub fn allowing(styles: &[&str], scripts: &[&str]) -> InlineSources {
        InlineSources {
            styles: styles.iter().map(|text| csp_hash(text)).collect(),
            scripts: scripts.iter().map(|text| csp_hash(text)).collect(),
        }
    }

    /// The sources a [`headers_file`] allows, read back by the preview when it
    /// serves an earlier session's build.
    pub fn from_headers_file(text: &str) -> InlineSources {
        let mut sources = InlineSources::default();
        let Some(csp) = text
            .lines()
            .find_map(|line| line.trim().strip_prefix("Content-Security-Policy:"))
        else {
            return sources;
        };
        for directive in csp.split(';') {
            let mut words = directive.split_whitespace();
            let list = match words.next() {
                Some("script-src") => &mut sources.scripts,
                Some("style-src") => &mut sources.styles,
                _ => continue,
            };
            list.extend(
                words
                    .filter(|word| word.starts_with("'sha256-"))
                    .map(str::to_string),
            );
        }
        sources
    }
}

/// In the order they are sent.
fn policy_directives(inline: &InlineSources) -> Vec<String> {
    let with = |directive: &str, sources: &[String]| {
        std::iter::once(directive.to_string())
            .chain(sources.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    };
    vec![
        "default-src 'self'".to_string(),
        with("script-src 'self'", &inline.scripts),
        with("style-src 'self'", &inline.styles),
        "img-src 'self' data:".to_string(),
        "font-src 'self'".to_string(),
        format!("connect-src 'self' {HOSTED_FORM_SERVICE}"),
        format!("form-action 'self' {HOSTED_FORM_SERVICE}"),
        "frame-ancestors 'none'".to_string(),
        "base-uri 'self'".to_string(),
        "object-src 'none'".to_string(),
    ]
}

/// Ignored in a `<meta>` policy (X-Frame-Options covers framing where no header
/// file is read).
const HEADER_ONLY_DIRECTIVES: &[&str] = &["frame-ancestors"];

/// The `<meta>` policy, for hosting that sends none of the site's headers: the
/// header's, less what a `<meta>` cannot hold.
pub fn meta_policy(inline: &InlineSources) -> String {
    policy_directives(inline)
        .into_iter()
        .filter(|directive| {
            let name = directive.split_whitespace().next().unwrap_or_default();
            !HEADER_ONLY_DIRECTIVES.contains(&name)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

pub fn security(inline: &InlineSources) -> Vec<(&'static str, String)> {
    let csp = policy_directives(inline).join("; ");
    vec![
        ("Content-Security-Policy", csp),
        (
            "Strict-Transport-Security",
            "max-age=63072000; includeSubDomains".into(),
        ),
        ("X-Content-Type-Options", "nosniff".into()),
        ("Referrer-Policy", "strict-origin-when-cross-origin".into()),
        (
            "Permissions-Policy",
            "camera=(), microphone=(), geolocation=(), payment=(), usb=()".into(),
        ),
        ("X-Frame-Options", "DENY".into()),
        ("Cross-Origin-Opener-Policy", "same-origin".into()),
    ]
}

/// Hashed assets: their names change with their content.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

pub fn csp_hash(text: &str) -> String {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

pub fn headers_file(inline: &InlineSources) -> String {
    let mut out = String::from("/*\n");
    for (name, value) in security(inline) {
        out.push_str(&format!("  {name}: {value}\n"));
    }
    out.push_str(&format!("\n/assets/*\n  Cache-Control: {IMMUTABLE}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inline_sources_are_read_back_from_the_headers_file() {
        let inline = InlineSources::allowing(&["body{}", "p{}"], &["void 0"]);
        let file = headers_file(&inline);
        assert_eq!(InlineSources::from_headers_file(&file), inline);
        assert_eq!(
            InlineSources::from_headers_file("/*\n  X-Frame-Options: DENY\n"),
            InlineSources::default()
        );
    }
}
