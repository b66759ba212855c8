//! `curbside serve` over real sockets: the URL table of static hosting,
//! requests that try to leave the folder, headers, the form service's
//! stand-in, many and slow clients, and live reload with the real binary
//! watching a copy of the project.

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support::fixture::Fixture;
use crate::support::server::*;
use curbside::serve::{HttpServer, Preview};
use serde_json::{Value, json};

// ---------------------------------------------------------------- static files

#[test]
fn urls_resolve_as_static_hosting_resolves_them() {
    let server = InProcess::start(true);
    let addr = server.addr();
    for (target, status, contains) in [
        ("/", 200, "home page"),
        ("/?utm_source=x", 200, "home page"),
        ("/index.html", 200, "home page"),
        ("/privacypolicy", 200, "privacy policy"),
        ("/privacypolicy.html", 200, "privacy policy"),
        ("/termsofservice", 200, "terms of service"),
        ("/termsofservice?x=1#top", 200, "terms of service"),
        ("/docs/", 200, "docs index"),
        ("/robots.txt", 200, "User-agent"),
        ("/privacypolicy/", 404, "Page not found"),
        ("/nope", 404, "Page not found"),
        ("/assets/", 404, "Page not found"),
        ("/_headers", 404, "Page not found"),
        ("/assets/missing-0123456789.js", 404, "Page not found"),
    ] {
        let reply = get(addr, target);
        assert_eq!(reply.status, status, "{target}");
        assert!(
            reply.text().contains(contains),
            "{target}: {}",
            reply.text()
        );
    }
    for (target, location) in [("/docs", "/docs/"), ("/docs?a=1", "/docs/?a=1")] {
        let folder = get(addr, target);
        assert_eq!(folder.status, 301, "{target}");
        assert_eq!(folder.header("Location"), Some(location), "{target}");
    }
    // A symlink within the folder is followed; those leading out of it are
    // not (serve_hardening.rs).
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("index.html", server.site.root().join("home.html")).unwrap();
        let reply = get(addr, "/home");
        assert_eq!(reply.status, 200);
        assert!(reply.text().contains("home page"), "{}", reply.text());
    }
}

#[test]
fn unknown_urls_get_the_sites_404_page_with_status_404() {
    let server = InProcess::start(true);
    let reply = get(server.addr(), "/no/such/page");
    assert_eq!(reply.status, 404);
    assert_eq!(
        reply.header("Content-Type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(
        reply.text(),
        std::fs::read_to_string(server.site.root().join("404.html")).unwrap()
    );
}

#[test]
fn content_types_are_right_and_text_is_utf8() {
    let server = InProcess::start(true);
    for (target, content_type) in [
        ("/", "text/html; charset=utf-8"),
        ("/privacypolicy", "text/html; charset=utf-8"),
        ("/assets/site-0123456789.css", "text/css; charset=utf-8"),
        (
            "/assets/islands-0123456789.js",
            "text/javascript; charset=utf-8",
        ),
        (
            "/assets/favicon-0123456789.svg",
            "image/svg+xml; charset=utf-8",
        ),
        ("/robots.txt", "text/plain; charset=utf-8"),
        ("/sitemap.xml", "text/xml; charset=utf-8"),
        ("/__curbside/live.js", "text/javascript; charset=utf-8"),
        ("/__curbside/overlay.css", "text/css; charset=utf-8"),
        ("/__curbside/thanks", "text/html; charset=utf-8"),
    ] {
        let reply = get(server.addr(), target);
        assert_eq!(reply.status, 200, "{target}");
        assert_eq!(reply.header("Content-Type"), Some(content_type), "{target}");
    }
}

#[test]
fn every_answer_carries_the_security_headers() {
    let server = InProcess::start(true);
    let addr = server.addr();
    let replies = [
        get(addr, "/"),
        get(addr, "/nope"),
        get(addr, "/docs"),
        get(addr, "/__curbside/live.js"),
        request(addr, "DELETE", "/", &[], b""),
        request(
            addr,
            "POST",
            "/f/testform",
            &[("Accept", "application/json")],
            b"",
        ),
        request(addr, "OPTIONS", "/f/testform", &[], b""),
    ];
    for reply in &replies {
        for (name, value) in curbside::output::headers::security(&Default::default()) {
            assert_eq!(
                reply.header(name),
                Some(value.as_str()),
                "{name} on {}",
                reply.status
            );
        }
    }
    let csp = replies[0].header("Content-Security-Policy").unwrap();
    assert!(csp.contains("connect-src 'self'") && csp.contains("form-action 'self'"));
    let events = EventStream::open(addr, None);
    assert_eq!(events.status, 200);
    for (name, _) in curbside::output::headers::security(&Default::default()) {
        assert!(
            events.headers.contains_key(&name.to_ascii_lowercase()),
            "{name} on events"
        );
    }
}

#[test]
fn caching_fits_development() {
    let watching = InProcess::start(true);
    assert_eq!(
        get(watching.addr(), "/").header("Cache-Control"),
        Some("no-cache")
    );
    assert_eq!(
        get(watching.addr(), "/assets/site-0123456789.css").header("Cache-Control"),
        Some("no-cache")
    );
    let once = InProcess::start(false);
    assert_eq!(
        get(once.addr(), "/privacypolicy").header("Cache-Control"),
        Some("no-cache")
    );
    assert_eq!(
        get(once.addr(), "/assets/site-0123456789.css").header("Cache-Control"),
        Some(curbside::output::headers::IMMUTABLE)
    );
    // A page not changed since the browser's copy is not sent again.
    let first = get(once.addr(), "/");
    let tag = first.header("ETag").expect("an ETag").to_string();
    let again = request(once.addr(), "GET", "/", &[("If-None-Match", &tag)], b"");
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
}

#[test]
fn head_sends_the_headers_without_the_body() {
    let server = InProcess::start(true);
    let get_reply = get(server.addr(), "/privacypolicy");
    let head = request(server.addr(), "HEAD", "/privacypolicy", &[], b"");
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(
        head.header("Content-Type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(
        head.header("Content-Length"),
        Some(get_reply.body.len().to_string().as_str())
    );
    let missing = request(server.addr(), "HEAD", "/nope", &[], b"");
    assert_eq!(missing.status, 404);
    assert!(missing.body.is_empty());
}

#[test]
fn only_get_and_head_read_the_site() {
    let server = InProcess::start(true);
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let reply = request(server.addr(), method, "/", &[], b"x");
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.header("Allow"), Some("GET, HEAD"), "{method}");
    }
    let reply = get(server.addr(), "/f/testform");
    assert_eq!(reply.status, 405);
    assert_eq!(reply.header("Allow"), Some("POST, OPTIONS"));
}

#[test]
fn the_port_after_a_taken_one_is_used() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let site = StaticSite::new();
    let preview = Arc::new(Preview::new(site.root(), site.submissions(), false));
    let server = match HttpServer::start(preview, "127.0.0.1".parse().unwrap(), port) {
        Ok(server) => server,
        // The next ports may belong to someone else on a busy machine.
        Err(diagnostic) => panic!("{diagnostic}"),
    };
    assert_ne!(server.addr().port(), port);
    assert!(server.addr().port() > port && server.addr().port() < port + 10);
    assert_eq!(get(server.addr(), "/").status, 200);
}

#[test]
fn a_folder_not_built_yet_shows_a_waiting_page() {
    let dir = tempfile::tempdir().unwrap();
    let preview = Arc::new(Preview::new(
        dir.path().join("nothing"),
        dir.path().join("s.jsonl"),
        true,
    ));
    let server = HttpServer::start(preview, "127.0.0.1".parse().unwrap(), 0).unwrap();
    let reply = get(server.addr(), "/");
    assert_eq!(reply.status, 503);
    assert!(
        reply.text().contains("/__curbside/live.js"),
        "it reloads once built"
    );
}

// ---------------------------------------------------------------- many and slow clients

#[test]
fn fifty_clients_at_once_are_all_served() {
    let server = InProcess::start(true);
    let addr = server.addr();
    let started = Instant::now();
    let clients: Vec<_> = (0..50)
        .map(|n| {
            std::thread::spawn(move || {
                let target = [
                    "/",
                    "/privacypolicy",
                    "/assets/site-0123456789.css",
                    "/nope",
                ][n % 4];
                get(addr, target).status
            })
        })
        .collect();
    let statuses: Vec<u16> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    assert_eq!(statuses.iter().filter(|&&s| s == 200).count(), 38);
    assert_eq!(statuses.iter().filter(|&&s| s == 404).count(), 12);
    assert!(started.elapsed() < TIMEOUT);
}

#[test]
fn slow_and_idle_clients_do_not_block_the_others() {
    let server = InProcess::start(true);
    let addr = server.addr();
    // More stalled clients than the server has workers: half a request line,
    // a head without its end, a form post whose body never comes, and
    // open live-reload streams.
    let mut stalled = Vec::new();
    for n in 0..12 {
        let mut stream = TcpStream::connect(addr).unwrap();
        let partial: &[u8] = match n % 3 {
            0 => b"GET /privacypo",
            1 => b"GET / HTTP/1.1\r\nHost: localhost\r\n",
            _ => b"POST /f/testform HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\nemail=",
        };
        stream.write_all(partial).unwrap();
        stalled.push(stream);
    }
    let streams: Vec<EventStream> = (0..12).map(|_| EventStream::open(addr, None)).collect();
    let started = Instant::now();
    for target in ["/", "/privacypolicy", "/nope", "/__curbside/live.js"] {
        let reply = get(addr, target);
        assert!(matches!(reply.status, 200 | 404), "{target}");
    }
    let reply = request(
        addr,
        "POST",
        "/f/testform",
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        b"email=a%40b.co",
    );
    assert_eq!(reply.status, 422, "{}", reply.text());
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "took {:?}",
        started.elapsed()
    );
    drop((stalled, streams));
}

// ---------------------------------------------------------------- the form service's stand-in

const COMPLETE: &[(&str, &str)] = &[
    ("firstName", "Ada"),
    ("lastName", "Lovelace"),
    ("address", "1 Main St"),
    ("city", "Brookings"),
    ("state", "SD"),
    ("zip", "57006"),
    ("email", "ada@example.com"),
    ("phone", "(605) 555-0142"),
    ("promotion", "Monthly plan"),
    ("plan_type", "monthly"),
    ("plan_amount", "25"),
    ("billing_frequency", "monthly"),
    ("_gotcha", ""),
];

fn with(name: &str, value: &str) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = COMPLETE
        .iter()
        .filter(|(n, _)| *n != name)
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    fields.push((name.into(), value.into()));
    fields
}

fn complete() -> Vec<(String, String)> {
    with("_gotcha", "")
}

/// A body as a browser's FormData sends it.
fn multipart(fields: &[(String, String)]) -> (String, Vec<u8>) {
    let boundary = "----curbsideTestBoundary7MA4YWxkTrZu0gW";
    let mut body = String::new();
    for (name, value) in fields {
        body.push_str(&format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        ));
    }
    body.push_str(&format!("--{boundary}--\r\n"));
    (
        format!("multipart/form-data; boundary={boundary}"),
        body.into_bytes(),
    )
}

fn urlencoded(fields: &[(String, String)]) -> Vec<u8> {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (name, value) in fields {
        out.append_pair(name, value);
    }
    out.finish().into_bytes()
}

/// Posts as the official client does: FormData, JSON wanted, its headers.
fn post_json(addr: SocketAddr, form: &str, fields: &[(String, String)]) -> (u16, Value) {
    let (content_type, body) = multipart(fields);
    let reply = request(
        addr,
        "POST",
        &format!("/f/{form}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", &content_type),
            ("Formspree-Client", "curbside @formspree/core@4.0.0"),
            (
                "Formspree-Session-Data",
                "eyJsb2FkZWRBdCI6MSwid2ViZHJpdmVyIjpmYWxzZX0=",
            ),
            ("Origin", &format!("http://{addr}")),
        ],
        &body,
    );
    assert_eq!(
        reply.header("Content-Type"),
        Some("application/json; charset=utf-8")
    );
    assert_eq!(reply.header("Access-Control-Allow-Origin"), Some("*"));
    let json =
        serde_json::from_slice(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.text()));
    (reply.status, json)
}

fn recorded(server: &InProcess) -> Vec<Value> {
    std::fs::read_to_string(server.site.submissions())
        .unwrap_or_default()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn the_stand_in_accepts_a_complete_sign_up_and_records_it() {
    let server = InProcess::start(true);
    let (status, reply) = post_json(server.addr(), FORM_ID, &complete());
    assert_eq!(status, 200);
    assert_eq!(reply, json!({ "next": "/__curbside/thanks", "ok": true }));
    let lines = recorded(&server);
    assert_eq!(lines.len(), 1);
    let entry = &lines[0];
    assert_eq!(entry["form"], FORM_ID);
    assert_eq!(entry["fields"]["email"], "ada@example.com");
    assert_eq!(entry["fields"]["promotion"], "Monthly plan");
    assert_eq!(entry["fields"]["plan_amount"], "25");
    assert!(entry["fields"].get("_gotcha").is_none());
    let at = entry["received_at"].as_str().unwrap();
    assert!(
        time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).is_ok(),
        "{at}"
    );
}

#[test]
fn the_stand_in_refuses_as_the_hosted_service_does() {
    let server = InProcess::start(true);
    let addr = server.addr();

    let (status, reply) = post_json(addr, FORM_ID, &with("email", "not-an-email"));
    assert_eq!(status, 422);
    assert_eq!(
        reply,
        json!({"error":"Validation errors","errors":[{"code":"TYPE_EMAIL","field":"email","message":"should be an email"}]})
    );

    let (status, reply) = post_json(addr, "someoneelse", &complete());
    assert_eq!(status, 404);
    assert_eq!(
        reply,
        json!({"error":"Form not found","errors":[{"code":"FORM_NOT_FOUND","message":"Form not found"}]})
    );

    let (status, reply) = post_json(addr, FORM_ID, &[("_gotcha".into(), String::new())]);
    assert_eq!(status, 422);
    assert_eq!(reply["errors"][0]["code"], "EMPTY");
    assert!(
        reply["errors"][0].get("field").is_none(),
        "a form-level error"
    );

    let mut missing = with("phone", "  ");
    missing.retain(|(n, _)| n != "zip");
    let (status, reply) = post_json(addr, FORM_ID, &missing);
    assert_eq!(status, 422);
    let codes: Vec<(String, String)> = reply["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap().into(),
                e["field"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        [
            ("REQUIRED_FIELD_MISSING".to_string(), "zip".to_string()),
            ("REQUIRED_FIELD_EMPTY".into(), "phone".into())
        ]
    );
    assert!(recorded(&server).is_empty(), "nothing refused is recorded");
}

#[test]
fn a_filled_honeypot_is_answered_as_success_and_dropped() {
    let server = InProcess::start(true);
    let (status, reply) = post_json(
        server.addr(),
        FORM_ID,
        &with("_gotcha", "https://spam.example"),
    );
    assert_eq!(status, 200);
    assert_eq!(reply["ok"], true);
    assert!(reply["next"].is_string());
    assert!(recorded(&server).is_empty());
}

#[test]
fn a_form_posted_without_javascript_lands_on_a_thank_you_page() {
    let server = InProcess::start(true);
    let addr = server.addr();
    let reply = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "text/html,application/xhtml+xml"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        &urlencoded(&complete()),
    );
    assert_eq!(reply.status, 303);
    assert_eq!(reply.header("Location"), Some("/__curbside/thanks"));
    let thanks = get(addr, "/__curbside/thanks");
    assert_eq!(thanks.status, 200);
    assert!(thanks.text().contains("<a href=\"/\">"), "a link back home");
    assert_eq!(recorded(&server).len(), 1);

    let refused = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        &urlencoded(&with("email", "nope")),
    );
    assert_eq!(refused.status, 422);
    assert!(
        refused.text().contains("email should be an email"),
        "{}",
        refused.text()
    );
}

#[test]
fn urlencoded_and_json_bodies_are_read_too() {
    let server = InProcess::start(true);
    let addr = server.addr();
    let reply = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        &urlencoded(&complete()),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let object: serde_json::Map<String, Value> = complete()
        .into_iter()
        .map(|(n, v)| (n, Value::String(v)))
        .collect();
    let reply = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/json"),
        ],
        Value::Object(object).to_string().as_bytes(),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(recorded(&server).len(), 2);
    let reply = request(
        addr,
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "text/plain"),
        ],
        b"hello",
    );
    assert_eq!(reply.status, 400);
    assert!(reply.text().contains("unsupported Content-Type"));
}

#[test]
fn cors_preflight_is_answered() {
    let server = InProcess::start(true);
    let reply = request(
        server.addr(),
        "OPTIONS",
        &format!("/f/{FORM_ID}"),
        &[
            ("Origin", "http://localhost:3000"),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "formspree-client, formspree-session-data",
            ),
        ],
        b"",
    );
    assert_eq!(reply.status, 204);
    assert_eq!(reply.header("Access-Control-Allow-Origin"), Some("*"));
    assert!(
        reply
            .header("Access-Control-Allow-Methods")
            .unwrap()
            .contains("POST")
    );
    let allowed = reply
        .header("Access-Control-Allow-Headers")
        .unwrap()
        .to_ascii_lowercase();
    for name in [
        "accept",
        "content-type",
        "formspree-client",
        "formspree-session-data",
    ] {
        assert!(allowed.contains(name), "{name}");
    }
}

#[test]
fn bodies_over_the_limit_are_refused_with_413() {
    let server = InProcess::start(true);
    let big = vec![b'a'; curbside::serve::BODY_LIMIT + 1];
    let mut body = b"email=".to_vec();
    body.extend_from_slice(&big);
    let reply = request(
        server.addr(),
        "POST",
        &format!("/f/{FORM_ID}"),
        &[
            ("Accept", "application/json"),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        &body,
    );
    assert_eq!(reply.status, 413);
    // Refused before the body is read, so before any route is chosen.
    assert!(reply.text().contains("64 KiB"), "{}", reply.text());
    assert!(recorded(&server).is_empty());
}

// ---------------------------------------------------------------- live reload, in process

#[test]
fn the_event_stream_follows_the_builds() {
    let server = InProcess::start(true);
    let addr = server.addr();
    let live = server.preview.live();
    let mut events = EventStream::open(addr, None);
    assert_eq!(events.status, 200);
    assert_eq!(
        events.headers.get("content-type").map(String::as_str),
        Some("text/event-stream; charset=utf-8")
    );

    // Nothing is said while all is well: the first event is the failure's.
    live.failed("error: content/plans.yaml:4:10: the monthly price must be more than $0\n  help: set `price`");
    let error = events.next(TIMEOUT).expect("an error event");
    assert_eq!(error.kind, "error");
    assert!(
        error.data.contains("content/plans.yaml:4:10")
            && error.data.contains("\n  help: set `price`")
    );

    // A page opened while the build is broken shows the error at once.
    let mut late = EventStream::open(addr, None);
    assert_eq!(late.next(TIMEOUT).map(|e| e.kind), Some("error".into()));

    live.built();
    let mut seen_id = String::new();
    for stream in [&mut events, &mut late] {
        let reload = stream.next(TIMEOUT).expect("a reload event");
        assert_eq!(reload.kind, "reload");
        seen_id = reload.id.expect("a reload event carries an id");
    }

    // A page that reconnects after missing a good build reloads at once; one
    // that saw it does not: the first thing it hears is the next build's news.
    let mut missed = EventStream::open(addr, Some("an-older-server-1"));
    assert_eq!(missed.next(TIMEOUT).map(|e| e.kind), Some("reload".into()));
    let mut saw = EventStream::open(addr, Some(&seen_id));
    live.failed("error: a later build failed");
    assert_eq!(saw.next(TIMEOUT).map(|e| e.kind), Some("error".into()));
}

/// The build generation an event id (`SESSION-GENERATION`) names.
fn generation(event: &Event) -> u64 {
    event
        .id
        .as_deref()
        .and_then(|id| id.rsplit('-').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no generation in {event:?}"))
}

// ---------------------------------------------------------------- the real binary

/// Whether the page's form posts to `action`, however the page is minified.
fn posts_to(html: &str, action: &str) -> bool {
    html.contains(&format!("action=\"{action}\"")) || html.contains(&format!("action={action} "))
}

fn is_rebuild(kind: &'static str) -> impl Fn(&str) -> bool {
    move |line: &str| line.starts_with(&format!("rebuilt ({kind}) in "))
}

#[test]
fn watch_reloads_after_good_builds_and_shows_the_error_of_bad_ones() {
    let project = Fixture::copy_with_own_frontend();
    let root = project.root();
    let mut served = Served::start(root, &["--watch"]);
    let addr = served.addr;

    let home = get(addr, "/");
    assert_eq!(home.status, 200);
    let html = home.text();
    assert!(
        html.contains("src=/__curbside/live.js") || html.contains("src=\"/__curbside/live.js\""),
        "pages load the live-reload script"
    );
    assert!(
        posts_to(&html, "/f/xsample1"),
        "the form posts to the stand-in"
    );
    assert!(root.join(".curbside/preview/index.html").is_file());
    assert!(
        !root.join("dist").exists(),
        "dist/ holds production builds only"
    );
    // The build's warnings are the preview's too: printed before it serves.
    assert!(
        served.log.iter().any(|line| line
            .starts_with("warning: content/business.yaml still has sample values for url, phone")),
        "the sample values warning: {:?}",
        served.log
    );
    let (status, _) = post_json(addr, "xsample1", &complete());
    assert_eq!(
        status, 200,
        "the stand-in answers for the content's form id"
    );
    // Each sign-up is one line saying what was chosen and where.
    let signed_up = served.wait_for(|line| line.starts_with("sign-up for form "), TIMEOUT);
    assert!(
        signed_up.starts_with(
            "sign-up for form xsample1: monthly plan ($25 monthly), ZIP 57006, ada@example.com ("
        ),
        "{signed_up}"
    );
    let submissions = std::fs::read_to_string(root.join(".curbside/submissions.jsonl")).unwrap();
    assert_eq!(submissions.lines().count(), 1);

    // Nothing is said until a build: the stream's events below come in
    // exactly the order of the builds, each a generation after the last.
    let mut events = EventStream::open(addr, None);

    // A good content edit: rebuilt without esbuild, then reloaded.
    project.replace(
        "content/business.yaml",
        "formspree_form_id: xsample1",
        "formspree_form_id: xedited2",
    );
    served.wait_for(is_rebuild("pages"), BUILD_TIMEOUT);
    let reload = events.next(TIMEOUT).expect("a reload after the good build");
    assert_eq!(reload.kind, "reload");
    assert!(posts_to(&get(addr, "/").text(), "/f/xedited2"));
    assert_eq!(post_json(addr, "xedited2", &complete()).0, 200);
    assert_eq!(post_json(addr, "xsample1", &complete()).0, 404);

    // A failing edit: an error event, no reload, the last good site served.
    project.replace("content/plans.yaml", "price: 25\n", "price: -25\n");
    let failure = served.wait_for(|line| line.starts_with("error:"), BUILD_TIMEOUT);
    assert!(failure.contains("content/plans.yaml:"), "{failure}");
    let error = events
        .next(TIMEOUT)
        .expect("an error event after the failed build");
    assert_eq!(error.kind, "error");
    assert!(error.data.contains("content/plans.yaml:"), "{}", error.data);
    assert!(
        error.data.starts_with(&failure),
        "the terminal's text: {}",
        error.data
    );
    assert_eq!(generation(&error), generation(&reload) + 1);
    let still = get(addr, "/");
    assert_eq!(still.status, 200);
    assert!(
        still.text().contains("xedited2"),
        "the last good build is still served"
    );
    let mut opened_while_broken = EventStream::open(addr, None);
    assert_eq!(
        opened_while_broken.next(TIMEOUT).map(|e| e.kind),
        Some("error".into())
    );

    // The fix: one reload for every open page, which clears their overlay.
    // No reload came between the failure and the fix: the next event is the
    // fix's, one generation on.
    project.replace("content/plans.yaml", "price: -25\n", "price: 25\n");
    served.wait_for(is_rebuild("pages"), BUILD_TIMEOUT);
    let fixed = events.next(TIMEOUT).expect("a reload after the fix");
    assert_eq!(fixed.kind, "reload");
    assert_eq!(generation(&fixed), generation(&error) + 1);
    assert_eq!(
        opened_while_broken.next(TIMEOUT).map(|e| e.kind),
        Some("reload".into())
    );
}

#[test]
fn frontend_and_layout_edits_rebuild_once_per_burst() {
    let project = Fixture::copy_with_own_frontend();
    let root = project.root();
    let mut served = Served::start(root, &["--watch"]);
    let mut events = EventStream::open(served.addr, None);

    project.append(
        "frontend/src/islands/pricing.tsx",
        "\n// edited by a test\n",
    );
    served.wait_for(is_rebuild("frontend"), BUILD_TIMEOUT);
    let first = events
        .next(TIMEOUT)
        .expect("a reload after the frontend edit");
    assert_eq!(first.kind, "reload");

    // Editors' scratch files are not changes.
    for scratch in [
        "layouts/.base.html.swp",
        "layouts/base.html~",
        "content/4913",
        "content/plans.yaml.tmp",
    ] {
        std::fs::write(root.join(scratch), "scratch").unwrap();
    }
    // An atomic save (write a temporary file, rename it over) and a burst of
    // saves in several files make one build.
    let base = root.join("layouts/base.html");
    let mut html = std::fs::read_to_string(&base).unwrap();
    html.push_str("\n{# edited by a test #}\n");
    std::fs::write(root.join("layouts/.base.html.tmp-save"), &html).unwrap();
    std::fs::rename(root.join("layouts/.base.html.tmp-save"), &base).unwrap();
    project.append("content/faq.yaml", "\n# edited by a test\n");
    project.append("content/home.yaml", "\n# edited by a test\n");
    served.wait_for(is_rebuild("pages"), BUILD_TIMEOUT);
    let burst = events.next(TIMEOUT).expect("a reload after the burst");
    assert_eq!(
        (burst.kind.as_str(), generation(&burst)),
        ("reload", generation(&first) + 1)
    );

    // A later save that breaks the build is the signal that the burst is
    // over: its error is the next line and the next event after the burst's
    // build, with no second "rebuilt" or reload between them.
    let lines = std::cell::RefCell::new(Vec::new());
    project.replace("content/plans.yaml", "price: 25\n", "price: -25\n");
    served.wait_for(
        |line| {
            lines.borrow_mut().push(line.to_string());
            line.starts_with("error:")
        },
        BUILD_TIMEOUT,
    );
    let lines = lines.into_inner();
    assert!(
        !lines.iter().any(|line| line.starts_with("rebuilt")),
        "one burst, one build: {lines:?}"
    );
    let later = events
        .next(TIMEOUT)
        .expect("an error event after the later save");
    assert_eq!(
        (later.kind.as_str(), generation(&later)),
        ("error", generation(&burst) + 1)
    );
}

#[test]
fn a_site_broken_at_start_is_served_from_the_last_session_with_its_hashes() {
    let project = Fixture::copy_with_own_frontend();
    let root = project.root();
    {
        let served = Served::start(root, &["--watch"]);
        assert_eq!(get(served.addr, "/").status, 200);
    }
    let headers = std::fs::read_to_string(root.join(".curbside/preview/_headers")).unwrap();
    let csp = headers
        .lines()
        .find_map(|line| line.trim().strip_prefix("Content-Security-Policy: "))
        .unwrap()
        .to_string();
    assert!(csp.contains("script-src 'self' 'sha256-"), "{csp}");
    assert!(csp.contains("style-src 'self' 'sha256-"), "{csp}");

    project.replace("content/plans.yaml", "price: 25\n", "price: -25\n");
    let served = Served::start(root, &["--watch"]);
    let failure = served.log.iter().find(|line| line.starts_with("error:"));
    assert!(
        failure.is_some_and(|line| line.contains("content/plans.yaml:")),
        "{:?}",
        served.log
    );
    let page = get(served.addr, "/");
    assert_eq!(page.status, 200, "the last session's build is served");
    // Its inline stylesheet and loader are allowed, or the page would show unstyled and inert.
    assert_eq!(page.header("Content-Security-Policy"), Some(csp.as_str()));
}

#[test]
fn serve_without_watch_refuses_to_start_on_a_broken_site() {
    let project = Fixture::copy_with_own_frontend();
    project.replace("content/plans.yaml", "price: 25\n", "price: -25\n");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_curbside"))
        .arg("--root")
        .arg(project.root())
        .args(["serve", "--port", "0"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("error: content/plans.yaml:"), "{stderr}");
}

#[test]
fn serve_refuses_to_build_into_dist() {
    let project = Fixture::copy_with_own_frontend();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_curbside"))
        .arg("--root")
        .arg(project.root())
        .args(["serve", "--port", "0", "--out", "dist"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("dist/ only ever holds production builds"),
        "{stderr}"
    );
}
