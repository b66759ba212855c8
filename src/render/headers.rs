//! The security headers, in one place: written to `_headers` for hosts that
//! read it (Netlify, Cloudflare Pages) and sent by the preview server.

use super::props::HOSTED_FORM_SERVICE;

/// Header name and value pairs every response carries. `inline_styles` are
/// the CSP sources (`'sha256-…'`) of the pages' inline stylesheet.
pub fn security(inline_styles: &[String]) -> Vec<(&'static str, String)> {
    let mut style_src = String::from("style-src 'self'");
    for source in inline_styles {
        style_src.push(' ');
        style_src.push_str(source);
    }
    let csp = [
        "default-src 'self'".to_string(),
        "script-src 'self'".to_string(),
        style_src,
        "img-src 'self' data:".to_string(),
        "font-src 'self'".to_string(),
        format!("connect-src 'self' {HOSTED_FORM_SERVICE}"),
        format!("form-action 'self' {HOSTED_FORM_SERVICE}"),
        "frame-ancestors 'none'".to_string(),
        "base-uri 'self'".to_string(),
        "object-src 'none'".to_string(),
    ]
    .join("; ");
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

/// Cache policy for hashed assets: their names change with their content.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The CSP source allowing exactly `css` as an inline `<style>`.
pub fn style_hash(css: &str) -> String {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(css.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The `_headers` file.
pub fn headers_file(inline_styles: &[String]) -> String {
    let mut out = String::from("/*\n");
    for (name, value) in security(inline_styles) {
        out.push_str(&format!("  {name}: {value}\n"));
    }
    out.push_str(&format!("\n/assets/*\n  Cache-Control: {IMMUTABLE}\n"));
    out
}
