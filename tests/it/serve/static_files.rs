//! The preview serving a built folder as static hosting does: its URL
//! table, 404 page, content types, security headers, caching and methods;
//! the port it picks; and many and slow clients served alongside.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support::server::*;
use curbside::serve::{HttpServer, Preview};

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
    // not (serve_hardening::reach).
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
