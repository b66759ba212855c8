//! Files of the preview folder, found as GitHub Pages, Netlify and Cloudflare
//! Pages find them: `/` is `index.html`; `/about` is `about.html` (or a file
//! named exactly so); `/docs/` is `docs/index.html`, and `/docs` redirects
//! there; anything else is `404.html` with status 404. As there, `_headers` and
//! `_redirects` are not served.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use tiny_http::{Response, ResponseBox};

use super::dev_assets;
use super::preview::Preview;
use super::request::Request;
use super::request_path::{self, RequestPath};
use super::response::{self, TEXT_PLAIN, with_header};
use crate::output::headers::IMMUTABLE;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    File(PathBuf),
    /// A folder asked for without its slash: where to send the client.
    Redirect(String),
    NotFound,
}

/// The file `target` names under `root`; never a path outside it, symlinks included.
pub fn resolve(root: &Path, target: &str) -> Resolved {
    let Some(request) = request_path::parse(target) else {
        return Resolved::NotFound;
    };
    match find(root, &request, target) {
        Resolved::File(path) => inside(root, &path).map_or(Resolved::NotFound, Resolved::File),
        other => other,
    }
}

const HOSTING_SETTINGS: &[&str] = &["_headers", "_redirects"];

fn find(root: &Path, request: &RequestPath, target: &str) -> Resolved {
    if let [only] = request.segments.as_slice()
        && HOSTING_SETTINGS.contains(&only.as_str())
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
        // Visible ASCII only: a header's value.
        let query = request_path::query_of(target);
        return Resolved::Redirect(format!("{path}/{query}"));
    }
    Resolved::NotFound
}

/// `path`'s real location if inside `root`'s: no symlink leads out.
fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let root = root.canonicalize().ok()?;
    let real = path.canonicalize().ok()?;
    real.starts_with(&root).then_some(real)
}

/// Content-Type by extension; text is UTF-8.
pub fn content_type(path: &Path) -> String {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    // mime_guess says application/javascript; the HTML standard, text/javascript.
    let mime = match extension.as_str() {
        "mjs" => "text/javascript".to_string(),
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

/// Pages revalidated on every load; hashed assets forever, except while
/// watching, where a developer's tools may pin them.
fn cache_control(target: &str, watching: bool) -> &'static str {
    if !watching && request_path::path_of(target).starts_with("/assets/") {
        IMMUTABLE
    } else {
        "no-cache"
    }
}

pub fn respond(request: &Request, preview: &Preview) -> ResponseBox {
    let target = &request.target;
    let root = preview.folder();
    if !root.is_dir() {
        // No build has succeeded yet: a page that waits for one.
        let response = response::text(
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
                request
                    .header("If-None-Match")
                    .is_some_and(|seen| seen.split(',').any(|s| s.trim() == tag))
            });
            let response = if unchanged {
                response::empty(304)
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
            let response = response::text(301, TEXT_PLAIN, format!("Moved to {location}\n"));
            with_header(response, "Location", &location)
        }
        Resolved::NotFound => not_found(root),
    }
}

fn not_found(root: &Path) -> ResponseBox {
    let response = file(404, &root.join("404.html"))
        .unwrap_or_else(|| response::text(404, TEXT_PLAIN, "Page not found\n".into()));
    with_header(response, "Cache-Control", "no-cache")
}

fn file(status: u16, path: &Path) -> Option<ResponseBox> {
    let response = Response::from_file(File::open(path).ok()?).with_status_code(status);
    Some(with_header(
        response.boxed(),
        "Content-Type",
        &content_type(path),
    ))
}

/// From size and time: every build rewrites the folder, so an unchanged tag
/// means an unchanged file.
fn etag(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some(format!("W/\"{:x}-{:x}\"", meta.len(), modified.as_nanos()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder to serve and one beside it, with symlinks from the first into
    /// the second and within the first.
    #[cfg(unix)]
    struct Tree {
        _dir: tempfile::TempDir,
        root: PathBuf,
        outside: PathBuf,
    }

    #[cfg(unix)]
    const OUTSIDE: &str = "OUTSIDE-THE-OUTPUT-FOLDER";

    #[cfg(unix)]
    fn tree() -> Tree {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("out");
        let outside = dir.path().join("private");
        let long = "l".repeat(200);
        for (path, text) in [
            ("out/index.html", "home"),
            ("out/privacypolicy.html", "privacy"),
            ("out/404.html", "missing"),
            ("out/docs/index.html", "docs"),
            ("out/docs/a b.html", "spaced"),
            ("out/assets/site-abc.css", "css"),
            ("out/caf\u{e9}.html", "unicode"),
            ("out/_headers", "/*"),
            ("private/secret.txt", OUTSIDE),
            ("private/index.html", OUTSIDE),
            ("private/docs/index.html", OUTSIDE),
            ("secret.html", OUTSIDE),
        ] {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        std::fs::write(root.join(format!("{long}.html")), "long").unwrap();
        symlink(&outside, root.join("out")).unwrap();
        symlink(outside.join("secret.txt"), root.join("leak.txt")).unwrap();
        symlink(dir.path().join("secret.html"), root.join("leak.html")).unwrap();
        symlink("../private/docs", root.join("rel")).unwrap();
        symlink(root.join("docs"), root.join("inner")).unwrap();
        symlink("index.html", root.join("home.html")).unwrap();
        Tree {
            _dir: dir,
            root,
            outside,
        }
    }

    /// Targets from segments that have led servers out of their folder, names
    /// in the tree, and oddities.
    #[cfg(unix)]
    fn target() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let segment = prop_oneof![
            4 => prop::sample::select(vec![
                "..", ".", "%2e", "%2E", "%2e%2e", "%2E%2e", ".%2e", "%2e.", "%252e%252e",
                "%2f", "%2F", "%5c", "%5C", "\\", "..\\..", "", "%00", "\0", "%", "%zz", "%c0%ae",
                "out", "leak.txt", "leak.html", "leak", "rel", "inner", "home", "home.html",
                "secret.txt", "secret", "private", "index.html", "index", "docs", "assets",
                "site-abc.css", "privacypolicy", "privacypolicy.html", "a%20b", "a b",
                "caf%C3%A9", "caf\u{e9}", "\u{65e5}\u{672c}", "%ff", "_headers", "404",
                "C:", "c:%5c", "~", "?x=1", "#top", "?a\nb", ";", "%3F", "%23",
            ]).prop_map(String::from),
            1 => "[a-z.%/\\\\]{0,12}",
            1 => "\\PC{0,6}",
            1 => (1usize..300).prop_map(|n| "l".repeat(n) + ".html"),
        ];
        let built = (
            prop::collection::vec(segment, 0..6),
            any::<bool>(),
            prop::sample::select(vec!["/", "/", "/", "", "//", "\\"]),
        )
            .prop_map(|(segments, slash, start)| {
                let mut target = format!("{start}{}", segments.join("/"));
                if slash {
                    target.push('/');
                }
                target
            });
        let folder = (
            prop::sample::select(vec![
                "/docs", "/inner", "/rel", "/out", "/assets", "/%64ocs",
            ]),
            prop::sample::select(vec![
                "",
                "?a=1",
                "?a\nb",
                "?\r\nSet-Cookie:x",
                "#x",
                "?\u{e9} x",
            ]),
        )
            .prop_map(|(path, query)| format!("{path}{query}"));
        prop_oneof![4 => built, 1 => folder]
    }

    /// Any target resolves to a regular file really inside the folder, and a
    /// redirect stays on this server without adding a header.
    #[cfg(unix)]
    fn check(tree: &Tree, target: &str) -> std::result::Result<Resolved, String> {
        let root = tree.root.canonicalize().unwrap();
        let resolved = resolve(&tree.root, target);
        let fail = |why: &str| Err(format!("{target:?} -> {resolved:?}: {why}"));
        match &resolved {
            Resolved::File(path) => {
                if path.canonicalize().ok().as_ref() != Some(path) {
                    return fail("not a real path");
                }
                if !path.starts_with(&root)
                    || path.starts_with(tree.outside.canonicalize().unwrap())
                {
                    return fail("outside the folder");
                }
                if !std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file()) {
                    return fail("not a regular file");
                }
                if std::fs::read_to_string(path).is_ok_and(|text| text == OUTSIDE) {
                    return fail("a file from outside");
                }
            }
            Resolved::Redirect(location) => {
                if !location.starts_with('/') || location.starts_with("//") {
                    return fail("a redirect off this server");
                }
                if location
                    .bytes()
                    .any(|b| b.is_ascii_control() || !b.is_ascii())
                {
                    return fail("a Location that is not one header line");
                }
            }
            Resolved::NotFound => {}
        }
        Ok(resolved)
    }

    #[cfg(unix)]
    #[test]
    fn nothing_outside_the_folder_is_ever_served() {
        use proptest::test_runner::{Config, TestCaseError, TestRunner};
        let tree = tree();
        let mut runner = TestRunner::new(Config {
            cases: 3000,
            failure_persistence: None,
            ..Config::default()
        });
        let (files, redirects) = (std::cell::Cell::new(0), std::cell::Cell::new(0));
        runner
            .run(&target(), |target| {
                match check(&tree, &target).map_err(TestCaseError::fail)? {
                    Resolved::File(_) => files.set(files.get() + 1),
                    Resolved::Redirect(_) => redirects.set(redirects.get() + 1),
                    Resolved::NotFound => {}
                }
                Ok(())
            })
            .unwrap_or_else(|err| panic!("{err}"));
        // The property holds only if targets often name real files, folders and links.
        assert!(
            files.get() > 100 && redirects.get() > 100,
            "{files:?} {redirects:?}"
        );
    }

    #[test]
    fn text_is_declared_utf8() {
        for (file, expected) in [
            ("a.html", "text/html; charset=utf-8"),
            ("a.css", "text/css; charset=utf-8"),
            ("a.js", "text/javascript; charset=utf-8"),
            ("a.mjs", "text/javascript; charset=utf-8"),
            ("a.webmanifest", "application/manifest+json; charset=utf-8"),
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
