//! Files of the preview folder, found the way GitHub Pages, Netlify and
//! Cloudflare Pages find them, so what works in preview works when deployed:
//!
//! | URL | file |
//! |---|---|
//! | `/` | `index.html` |
//! | `/privacypolicy` | `privacypolicy.html` (or a file named exactly so) |
//! | `/privacypolicy.html` | `privacypolicy.html` |
//! | `/docs/` | `docs/index.html` |
//! | `/docs` (a folder) | redirect to `/docs/` |
//! | anything else | `404.html`, with status 404 |
//!
//! Like those hosts, the files they read as settings (`_headers`,
//! `_redirects`) are not served.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use tiny_http::{Request, Response, ResponseBox, StatusCode};

use super::dev_assets;
use super::http::{self, with_header};
use super::preview::Preview;
use super::request_path::{self, RequestPath};
use crate::render::headers::IMMUTABLE;

/// What a URL names in the preview folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    File(PathBuf),
    /// A folder asked for without its trailing slash: where to send the client.
    Redirect(String),
    NotFound,
}

/// Finds the file `target` (a request target) names under `root`. Never a
/// path outside `root`, symlinks included.
pub fn resolve(root: &Path, target: &str) -> Resolved {
    let Some(request) = request_path::parse(target) else {
        return Resolved::NotFound;
    };
    let found = find(root, &request, target);
    match found {
        Resolved::File(path) => match inside(root, &path) {
            Some(real) => Resolved::File(real),
            None => Resolved::NotFound,
        },
        other => other,
    }
}

/// Files the hosts read as their settings and never serve.
const HOST_SETTINGS: &[&str] = &["_headers", "_redirects"];

fn find(root: &Path, request: &RequestPath, target: &str) -> Resolved {
    if let [only] = request.segments.as_slice()
        && HOST_SETTINGS.contains(&only.as_str())
    {
        return Resolved::NotFound;
    }
    let base: PathBuf = request
        .segments
        .iter()
        .fold(root.to_path_buf(), |path, s| path.join(s));
    if request.directory {
        let index = base.join("index.html");
        return if index.is_file() {
            Resolved::File(index)
        } else {
            Resolved::NotFound
        };
    }
    if base.is_file() {
        return Resolved::File(base);
    }
    let html = base.with_file_name(format!(
        "{}.html",
        request.segments.last().map_or("", String::as_str)
    ));
    if html.is_file() {
        return Resolved::File(html);
    }
    if base.join("index.html").is_file() {
        let path = request_path::path_of(target);
        let query = request_path::query_of(target);
        return Resolved::Redirect(format!("{path}/{query}"));
    }
    Resolved::NotFound
}

/// `path`'s real location when it is inside `root`'s, so a symlink cannot
/// lead out of the folder.
fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let root = root.canonicalize().ok()?;
    let real = path.canonicalize().ok()?;
    real.starts_with(&root).then_some(real)
}

/// The Content-Type of a file, by its extension; text is always UTF-8 here.
pub fn content_type(path: &Path) -> String {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    // mime_guess still says application/javascript; browsers and the HTML
    // standard use text/javascript.
    let mime = match extension.as_str() {
        "js" | "mjs" => "text/javascript".to_string(),
        "webmanifest" => "application/manifest+json".to_string(),
        _ => mime_guess::from_ext(&extension)
            .first_or_octet_stream()
            .essence_str()
            .to_string(),
    };
    let textual = mime.starts_with("text/")
        || mime.ends_with("+json")
        || mime.ends_with("+xml")
        || matches!(mime.as_str(), "application/json" | "application/xml");
    if textual {
        format!("{mime}; charset=utf-8")
    } else {
        mime
    }
}

/// Cache policy: pages are checked on every load; hashed assets are kept
/// forever, except while watching, where a developer's tools may pin them.
fn cache_control(target: &str, watching: bool) -> &'static str {
    if !watching && request_path::path_of(target).starts_with("/assets/") {
        IMMUTABLE
    } else {
        "no-cache"
    }
}

/// Answers a GET or HEAD for a file of the preview folder.
pub(crate) fn respond(request: &Request, preview: &Preview) -> ResponseBox {
    let target = request.url();
    let root = preview.folder();
    if !root.is_dir() {
        // The first build has not succeeded yet: a page that waits for it.
        let response = http::text(
            503,
            "text/html; charset=utf-8",
            dev_assets::not_built_page(),
        );
        return with_header(response, "Cache-Control", "no-cache");
    }
    match resolve(root, target) {
        Resolved::File(path) => {
            let etag = etag(&path);
            let unchanged = etag.as_deref().is_some_and(|tag| {
                http::request_header(request, "If-None-Match")
                    .is_some_and(|seen| seen.split(',').any(|s| s.trim() == tag))
            });
            let response = if unchanged {
                http::empty(304)
            } else {
                match file(200, &path) {
                    Some(response) => response,
                    None => not_found(root),
                }
            };
            let response = with_header(
                response,
                "Cache-Control",
                cache_control(target, preview.watching()),
            );
            match etag {
                Some(tag) => with_header(response, "ETag", &tag),
                None => response,
            }
        }
        Resolved::Redirect(location) => {
            let response = http::text(301, http::TEXT_PLAIN, format!("Moved to {location}\n"));
            with_header(response, "Location", &location)
        }
        Resolved::NotFound => not_found(root),
    }
}

/// The site's own 404 page, with status 404.
fn not_found(root: &Path) -> ResponseBox {
    let response = file(404, &root.join("404.html"))
        .unwrap_or_else(|| http::text(404, http::TEXT_PLAIN, "Page not found\n".into()));
    with_header(response, "Cache-Control", "no-cache")
}

fn file(status: u16, path: &Path) -> Option<ResponseBox> {
    let file = File::open(path).ok()?;
    let length = usize::try_from(file.metadata().ok()?.len()).ok()?;
    let response = Response::new(
        StatusCode(status),
        Vec::new(),
        Box::new(file) as Box<dyn Read + Send>,
        Some(length),
        None,
    );
    Some(with_header(response, "Content-Type", &content_type(path)))
}

/// A validator from size and modification time: every build rewrites the
/// folder, so an unchanged tag means an unchanged file.
fn etag(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some(format!("W/\"{:x}-{:x}\"", meta.len(), modified.as_nanos()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in [
            ("index.html", "home"),
            ("privacypolicy.html", "privacy"),
            ("404.html", "missing"),
            ("docs/index.html", "docs"),
            ("assets/site-abc.css", "css"),
            ("_headers", "/*"),
        ] {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    fn name(resolved: Resolved, root: &Path) -> String {
        match resolved {
            Resolved::File(path) => path
                .strip_prefix(root.canonicalize().unwrap())
                .unwrap()
                .to_string_lossy()
                .into_owned(),
            Resolved::Redirect(to) => format!("-> {to}"),
            Resolved::NotFound => "404".into(),
        }
    }

    #[test]
    fn urls_resolve_as_static_hosts_do() {
        let dir = site();
        let root = dir.path();
        for (url, expected) in [
            ("/", "index.html"),
            ("/?utm=x", "index.html"),
            ("/index.html", "index.html"),
            ("/privacypolicy", "privacypolicy.html"),
            ("/privacypolicy.html", "privacypolicy.html"),
            ("/privacypolicy?x", "privacypolicy.html"),
            ("/privacypolicy/", "404"),
            ("/docs/", "docs/index.html"),
            ("/docs", "-> /docs/"),
            ("/docs?a=1", "-> /docs/?a=1"),
            ("/assets/site-abc.css", "assets/site-abc.css"),
            ("/assets/", "404"),
            ("/_headers", "404"),
            ("/nope", "404"),
            ("/../index.html", "404"),
        ] {
            assert_eq!(name(resolve(root, url), root), expected, "{url}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_folder_are_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
        let dir = site();
        let root = dir.path();
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), root.join("secret.txt"))
            .unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("out")).unwrap();
        std::os::unix::fs::symlink(root.join("index.html"), root.join("home.html")).unwrap();
        assert_eq!(resolve(root, "/secret.txt"), Resolved::NotFound);
        assert_eq!(resolve(root, "/out/secret.txt"), Resolved::NotFound);
        assert_eq!(name(resolve(root, "/home"), root), "index.html");
    }

    #[test]
    fn text_is_declared_utf8() {
        for (file, expected) in [
            ("a.html", "text/html; charset=utf-8"),
            ("a.css", "text/css; charset=utf-8"),
            ("a.js", "text/javascript; charset=utf-8"),
            ("a.svg", "image/svg+xml; charset=utf-8"),
            ("a.xml", "text/xml; charset=utf-8"),
            ("robots.txt", "text/plain; charset=utf-8"),
            ("a.json", "application/json; charset=utf-8"),
            ("a.png", "image/png"),
            ("a.woff2", "font/woff2"),
            ("_headers", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(file)), expected, "{file}");
        }
    }
}
