//! `curbside verify` through the real binary against small servers on
//! 127.0.0.1 (no other network): a deployment served as built passes, and
//! each broken one fails with the message that names its cause: a stale
//! index.html, headers not applied (a missing `_headers`), a server still on
//! an earlier build's policy, `dist-server/` published, a server that
//! hangs, answers 500, redirects to another origin or sends an endless body.
//!
//! The site is a small one written here with the build's record beside it,
//! so each test runs in a moment and without Node; the host tests run
//! `verify` against the real build on real servers.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use curbside::output::headers::{InlineSources, headers_file};
use curbside::output::hosting::Hosting;
use curbside::output::record::{BuildRecord, RECORD_FILE};

/// The site as built: files by path.
const CSS: &str = "body{color:#123}";
const FORM: &str = "https://formspree.io/f/mqkrwzab";

fn page(title: &str, css: &str, form: &str) -> String {
    format!(
        "<!doctype html><html><head><title>{title}</title><link rel=\"stylesheet\" href=\"/assets/{css}\"></head>\
<body><h1>{title}</h1><form action=\"{form}\" method=\"POST\"></form></body></html>"
    )
}

fn site_files(form: &str) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "index.html",
            page("Home", "site-0123456789.css", form).into_bytes(),
        ),
        (
            "about.html",
            page("About", "site-0123456789.css", form).into_bytes(),
        ),
        (
            "404.html",
            b"<!doctype html><title>Not found</title>".to_vec(),
        ),
        ("assets/site-0123456789.css", CSS.as_bytes().to_vec()),
        ("robots.txt", b"User-agent: *\n".to_vec()),
    ]
}

fn inline() -> InlineSources {
    InlineSources::allowing(&["p{}"], &["void 0"])
}

/// The built site and its record, for an origin known once the server listens.
struct Built {
    _dir: tempfile::TempDir,
    out: PathBuf,
}

fn build(url: &str) -> Built {
    build_as(url, Hosting::Netlify, FORM, &[])
}

/// The site built for `hosting`, its form posting to `form`, with these
/// business.yaml values still the samples.
fn build_as(url: &str, hosting: Hosting, form: &str, samples: &[&str]) -> Built {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("dist");
    for (path, bytes) in site_files(form) {
        let file = out.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, bytes).unwrap();
    }
    if hosting.facts().headers_file {
        std::fs::write(out.join("_headers"), headers_file(&inline())).unwrap();
    }
    let server = dir.path().join("dist-server");
    std::fs::create_dir_all(&server).unwrap();
    let record = BuildRecord::new(hosting, url, &inline(), samples);
    std::fs::write(server.join(RECORD_FILE), record.file().contents).unwrap();
    Built { _dir: dir, out }
}

/// An answer of the test server, or a way of not answering.
enum Reply {
    Answer {
        status: u16,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// Reads the request and says nothing, until the test ends.
    Hang,
    /// Headers, then a body that never ends.
    Endless,
}

type Handler = Arc<dyn Fn(&str) -> Reply + Send + Sync>;

/// A server on a free port of 127.0.0.1, one thread a connection; it lives
/// as long as the test's process (each test's port is its own).
fn serve(handler: Handler) -> String {
    reserve().1(handler)
}

fn answer(mut stream: TcpStream, handler: &Handler) {
    let mut request = Vec::new();
    let mut buffer = [0u8; 4096];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buffer[..n]),
        }
    }
    let text = String::from_utf8_lossy(&request);
    let path = text.split(' ').nth(1).unwrap_or("/").to_string();
    match handler(&path) {
        Reply::Answer {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
        Reply::Hang => {
            // Held open, unanswered: the client's timeout must end it.
            let _ = stream.read_to_end(&mut Vec::new());
        }
        Reply::Endless => {
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n",
            );
            let chunk = vec![b'x'; 64 * 1024];
            while stream.write_all(&chunk).is_ok() {}
        }
    }
}

/// A server that serves `out` as Netlify does: the `_headers` on every
/// answer (unless `headers` is false), pages at their clean address,
/// `.html` forms redirected, the 404 page for anything else.
fn netlify_like(out: &Path, headers: bool) -> impl Fn(&str) -> Reply + Send + Sync + 'static {
    let out = out.to_path_buf();
    move |path: &str| {
        let mut sent: Vec<(String, String)> = Vec::new();
        if headers {
            for (name, value) in curbside::output::headers::security(&inline()) {
                sent.push((name.to_string(), value));
            }
        }
        if let Some(page) = path.strip_suffix(".html") {
            let to = if page == "/index" { "/" } else { page };
            sent.push(("Location".into(), to.into()));
            return Reply::Answer {
                status: 301,
                headers: sent,
                body: Vec::new(),
            };
        }
        let hidden = path.starts_with("/_") || path.contains("/.");
        let file = match path {
            "/" => Some(out.join("index.html")),
            _ if hidden => None,
            _ => [
                out.join(&path[1..]),
                out.join(format!("{}.html", &path[1..])),
            ]
            .into_iter()
            .find(|file| file.is_file()),
        };
        let (status, file) = match file {
            Some(file) => (200, file),
            None => (404, out.join("404.html")),
        };
        let kind = match file.extension().and_then(|e| e.to_str()) {
            Some("html") => "text/html; charset=utf-8",
            Some("css") => "text/css",
            _ => "text/plain",
        };
        sent.push(("Content-Type".into(), kind.into()));
        if path.starts_with("/assets/") && status == 200 && headers {
            sent.push((
                "Cache-Control".into(),
                "public, max-age=31536000, immutable".into(),
            ));
        }
        Reply::Answer {
            status,
            headers: sent,
            body: std::fs::read(file).unwrap_or_default(),
        }
    }
}

fn verify(built: &Built, url: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_curbside"))
        .arg("verify")
        .arg(url)
        .arg("--out")
        .arg(&built.out)
        .args(extra)
        .output()
        .unwrap()
}

/// Runs verify on a deployment that must fail; returns its stderr.
fn fails(built: &Built, url: &str, extra: &[&str]) -> String {
    let output = verify(built, url, extra);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

/// A server built on `netlify_like`, with `change` deciding some answers.
fn deployment(change: impl Fn(&str) -> Option<Reply> + Send + Sync + 'static) -> (Built, String) {
    let listener_url = reserve();
    let built = build(&listener_url.0);
    let served = netlify_like(&built.out, true);
    let url = listener_url.1(Arc::new(move |path: &str| {
        change(path).unwrap_or_else(|| served(path))
    }));
    (built, url)
}

/// The origin a server will have, before its handler is known: the site
/// is built for its address first.
fn reserve() -> (String, Box<dyn FnOnce(Handler) -> String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let address = url.clone();
    let start = move |handler: Handler| {
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let handler = Arc::clone(&handler);
                std::thread::spawn(move || answer(stream, &handler));
            }
        });
        address
    };
    (url, Box::new(start))
}

#[test]
fn a_deployment_served_as_built_passes_with_a_json_report() {
    let (built, url) = deployment(|_| None);
    let output = verify(&built, &url, &["--json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("no problems found"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["ok"], true, "{report}");
    assert_eq!(report["hosting"], "netlify");
    assert!(report["addresses"].as_u64().unwrap() >= 10, "{report}");
}

#[test]
fn a_stale_index_html_is_named_with_its_cause() {
    let old = page("Home", "site-9999999999.css", FORM);
    let (built, url) = deployment(move |path| {
        (path == "/").then(|| Reply::Answer {
            status: 200,
            headers: curbside::output::headers::security(&inline())
                .into_iter()
                .map(|(n, v)| (n.to_string(), v))
                .chain([("Content-Type".to_string(), "text/html".to_string())])
                .collect(),
            body: old.clone().into_bytes(),
        })
    });
    let stderr = fails(&built, &url, &[]);
    assert!(
        stderr.contains(&format!("error: {url}/: is an earlier build's page: it names /assets/site-9999999999.css, which this build does not have")),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: deploy dist/ again, whole"),
        "{stderr}"
    );
}

#[test]
fn headers_not_applied_as_with_a_missing_headers_file_are_reported() {
    let (url_now, start) = reserve();
    let built = build(&url_now);
    let url = start(Arc::new(netlify_like(&built.out, false)));
    let stderr = fails(&built, &url, &[]);
    assert!(
        stderr.contains(&format!(
            "error: {url}/: no Content-Security-Policy header is sent"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("no Strict-Transport-Security header is sent"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "help: the headers come from dist/_headers: deploy dist/ whole, _headers included"
        ),
        "{stderr}"
    );
}

#[test]
fn a_policy_with_an_earlier_builds_hashes_is_named() {
    let old = InlineSources::allowing(&["p{color:red}"], &["void 1"]);
    let (url_now, start) = reserve();
    let built = build(&url_now);
    let served = netlify_like(&built.out, true);
    let stale_csp = curbside::output::headers::security(&old)[0].1.clone();
    let url = start(Arc::new(move |path: &str| match served(path) {
        Reply::Answer {
            status,
            mut headers,
            body,
        } => {
            for (name, value) in &mut headers {
                if name == "Content-Security-Policy" {
                    *value = stale_csp.clone();
                }
            }
            Reply::Answer {
                status,
                headers,
                body,
            }
        }
        other => other,
    }));
    let stderr = fails(&built, &url, &[]);
    assert!(
        stderr.contains("the Content-Security-Policy sent is another build's: its hashes of the inline code are not this build's"),
        "{stderr}"
    );
}

#[test]
fn dist_server_published_is_named() {
    let (built, url) = deployment(|path| {
        (path == "/dist-server/nginx.conf").then(|| Reply::Answer {
            status: 200,
            headers: vec![("Content-Type".into(), "text/plain".into())],
            body: b"# Written by curbside for nginx\n".to_vec(),
        })
    });
    let stderr = fails(&built, &url, &[]);
    assert!(
        stderr.contains(&format!(
            "error: {url}/dist-server/nginx.conf: is served to anyone (it answers 200): dist-server/ must never be published"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: publish the folder dist/ only"),
        "{stderr}"
    );
}

#[test]
fn a_server_that_hangs_is_given_up_on_in_bounded_time() {
    let (built, url) = deployment(|_| Some(Reply::Hang));
    let stderr = fails(&built, &url, &["--timeout", "1"]);
    assert!(
        stderr.contains(&format!(
            "error: {url}/: could not be fetched, after 3 tries: no answer in time"
        )),
        "{stderr}"
    );
}

#[test]
fn a_server_answering_500_is_reported_once() {
    let (built, url) = deployment(|_| {
        Some(Reply::Answer {
            status: 500,
            headers: Vec::new(),
            body: b"oops".to_vec(),
        })
    });
    let stderr = fails(&built, &url, &[]);
    assert!(
        stderr.contains(&format!(
            "error: {url}/: answers 500, a server error, after 3 tries"
        )),
        "{stderr}"
    );
    assert_eq!(stderr.matches("error: http").count(), 1, "{stderr}");
}

#[test]
fn a_redirect_to_another_origin_is_not_followed() {
    // The other origin is a server of this test: were it asked, it would say so.
    let asked = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = Arc::clone(&asked);
    let other = serve(Arc::new(move |_: &str| {
        seen.store(true, std::sync::atomic::Ordering::SeqCst);
        Reply::Answer {
            status: 200,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }));
    let to = format!("{other}/");
    let (built, url) = deployment(move |_| {
        Some(Reply::Answer {
            status: 301,
            headers: vec![("Location".into(), to.clone())],
            body: Vec::new(),
        })
    });
    let stderr = fails(&built, &url, &[]);
    assert!(
        stderr.contains(&format!(
            "error: {url}/: redirects to another site, {other}/"
        )),
        "{stderr}"
    );
    assert!(
        !asked.load(std::sync::atomic::Ordering::SeqCst),
        "the other origin was asked"
    );
}

#[test]
fn an_endless_body_is_cut_off() {
    let (built, url) = deployment(|_| Some(Reply::Endless));
    let stderr = fails(&built, &url, &[]);
    assert!(
        stderr.contains(&format!("error: {url}/: the answer went on past")),
        "{stderr}"
    );
    assert!(
        stderr.contains("the server sends an endless or wrong body"),
        "{stderr}"
    );
}

#[test]
fn without_a_build_verify_says_to_build_first() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_curbside"))
        .args(["verify", "http://127.0.0.1:9", "--out"])
        .arg(dir.path().join("dist"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("there is no build to verify against"),
        "{stderr}"
    );
}

#[test]
fn the_sample_form_id_fails_unless_samples_are_allowed() {
    let sample = "https://formspree.io/f/xsample1";
    let (url_now, start) = reserve();
    let built = build_as(&url_now, Hosting::Netlify, sample, &["formspree_form_id"]);
    let url = start(Arc::new(netlify_like(&built.out, true)));
    let stderr = fails(&built, &url, &[]);
    assert!(
        stderr.contains(&format!(
            "error: {url}/: the sign-up form still posts to the sample Formspree form ({sample}): no sign-up reaches you\n  also at: /about"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("help: set formspree_form_id in content/business.yaml"),
        "{stderr}"
    );
    let output = verify(&built, &url, &["--allow-samples", "--json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("warning: ") && stderr.contains("sample Formspree form"),
        "{stderr}"
    );
    // A pipeline reads the kind and its facts, not the words.
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let problem = report["problems"]
        .as_array()
        .and_then(|problems| problems.iter().find(|p| p["kind"] == "sample-form"))
        .unwrap_or_else(|| panic!("no sample-form problem in {report}"));
    assert_eq!(problem["severity"], "warning", "{problem}");
    assert_eq!(problem["facts"]["action"], sample, "{problem}");
    assert_eq!(
        problem["where"],
        serde_json::json!(["/", "/about"]),
        "{problem}"
    );
}

#[test]
fn github_pages_passes_without_headers_and_says_what_it_cannot_send() {
    let (url_now, start) = reserve();
    let built = build_as(&url_now, Hosting::GithubPages, FORM, &[]);
    let served = netlify_like(&built.out, false);
    // GitHub Pages serves /page.html as it is, rather than redirecting.
    let out = built.out.clone();
    let url = start(Arc::new(move |path: &str| {
        match path.strip_suffix(".html") {
            Some(page) if page != "/index" => Reply::Answer {
                status: 200,
                headers: vec![("Content-Type".into(), "text/html".into())],
                body: std::fs::read(out.join(format!("{}.html", &page[1..]))).unwrap_or_default(),
            },
            _ => served(path),
        }
    }));
    let output = verify(&built, &url, &[]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("note: ")
            && stderr.contains("GitHub Pages sends none of the site's headers"),
        "{stderr}"
    );
}
