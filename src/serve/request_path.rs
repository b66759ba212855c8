//! A request target as the segments of a file under the preview folder, or
//! refused: dot segments, encoded or backslash separators, NUL, empty segments
//! (`//etc`), drive letters and hidden names, before the file system is asked.
//! Symlinks are checked against the real path (`static_files`).

use percent_encoding::percent_decode_str;

/// Decoded and safe; `directory` when it ends in `/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestPath {
    pub segments: Vec<String>,
    pub directory: bool,
}

pub fn path_of(target: &str) -> &str {
    target.split(['?', '#']).next().unwrap_or_default()
}

/// With its `?`, or "".
pub fn query_of(target: &str) -> &str {
    let rest = &target[path_of(target).len()..];
    rest.split('#').next().unwrap_or_default()
}

/// `None` when static hosting would not serve it from its folder.
pub fn parse(target: &str) -> Option<RequestPath> {
    // Visible ASCII (RFC 9112 §3.2): no line break reaches a `Location`.
    if !target.bytes().all(|b| b.is_ascii_graphic()) {
        return None;
    }
    // Origin-form only: `*`, `http://…` and relative targets name no file.
    let path = path_of(target).strip_prefix('/')?;
    let (rest, directory) = match path.strip_suffix('/') {
        Some(inner) => (inner, true),
        None => (path, path.is_empty()),
    };
    let segments = match path {
        "" => Vec::new(),
        _ => rest
            .split('/')
            .enumerate()
            .map(|(at, raw)| match raw {
                // The one dotted folder a site publishes.
                WELL_KNOWN if at == 0 => Some(WELL_KNOWN.to_string()),
                raw => decode_segment(raw),
            })
            .collect::<Option<_>>()?,
    };
    Some(RequestPath {
        segments,
        directory,
    })
}

const WELL_KNOWN: &str = ".well-known";

/// Decoded, unless empty, hidden (dot segments included), or holding a
/// separator (a backslash, one on Windows and to some servers), a drive's colon
/// or a control character.
fn decode_segment(raw: &str) -> Option<String> {
    let decoded = percent_decode_str(raw).decode_utf8().ok()?;
    let safe = !decoded.is_empty()
        && !decoded.starts_with('.')
        && !decoded
            .chars()
            .any(|c| matches!(c, '/' | '\\' | ':') || c.is_control());
    safe.then(|| decoded.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments(target: &str) -> Option<Vec<String>> {
        parse(target).map(|p| p.segments)
    }

    #[test]
    fn well_known_is_the_one_dotted_folder_served() {
        assert_eq!(
            segments("/.well-known/security.txt"),
            Some(vec![".well-known".into(), "security.txt".into()])
        );
        assert_eq!(segments("/.well-known/.secret"), None);
        assert_eq!(segments("/docs/.well-known/x"), None);
        assert_eq!(segments("/.env"), None);
    }

    #[test]
    fn segments_are_percent_decoded() {
        assert_eq!(segments("/assets/a%20b.js").unwrap(), ["assets", "a b.js"]);
    }

    #[test]
    fn query_is_kept_apart() {
        assert_eq!(query_of("/docs?a=1#x"), "?a=1");
        assert_eq!(query_of("/docs#x?y"), "");
        assert_eq!(path_of("/docs#x?y"), "/docs");
    }
}
