//! What a request can reach: nothing outside the served folder, whatever
//! its target says; the server only on loopback; and only under the names
//! of this machine.

use super::server_process::{Answer, exchange};
use crate::support::fixture::Fixture;
use crate::support::server::*;

// ---------------------------------------------------------------- targets over the wire

#[cfg(unix)]
#[test]
fn no_target_over_the_wire_reaches_outside_the_folder() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestCaseError, TestRunner};
    let server = InProcess::start(true);
    let addr = server.addr();
    let segment = prop::sample::select(vec![
        "..",
        ".",
        "%2e",
        "%2E%2e",
        "%2e%2e",
        ".%2e",
        "%2f",
        "%5c",
        "\\",
        "",
        "%00",
        "%252e",
        "leak.txt",
        "leak",
        "leakdir",
        "inner.txt",
        "secret.txt",
        "secret",
        "index.html",
        "docs",
        "assets",
        "privacypolicy",
        "caf%C3%A9",
        "%ff",
        "_headers",
        "C:",
        "~",
        "?x",
        "#y",
    ]);
    let target = (prop::collection::vec(segment, 0..6), any::<bool>()).prop_map(|(s, slash)| {
        let mut target = format!("/{}", s.join("/"));
        if slash {
            target.push('/');
        }
        target
    });
    // Known ways out first, as raw request lines, then targets built at random.
    let known: &[&[u8]] = &[
        b"GET /../secret.txt HTTP/1.1\r\n",
        b"GET /../../../../etc/passwd HTTP/1.1\r\n",
        b"GET /assets/../../secret.txt HTTP/1.1\r\n",
        b"GET /%2e%2e/secret.txt HTTP/1.1\r\n",
        b"GET /%2E%2E%2Fsecret.txt HTTP/1.1\r\n",
        b"GET /assets/%2e%2e%2f%2e%2e%2fsecret.txt HTTP/1.1\r\n",
        b"GET /..%2fsecret.txt HTTP/1.1\r\n",
        b"GET /..%5csecret.txt HTTP/1.1\r\n",
        b"GET /..\\secret.txt HTTP/1.1\r\n",
        b"GET /assets\\..\\..\\secret.txt HTTP/1.1\r\n",
        b"GET //etc/passwd HTTP/1.1\r\n",
        b"GET /%2fetc%2fpasswd HTTP/1.1\r\n",
        b"GET /etc/passwd%00.html HTTP/1.1\r\n",
        b"GET /index.html%00 HTTP/1.1\r\n",
        b"GET /.%2e/secret.txt HTTP/1.1\r\n",
        b"GET /%252e%252e/secret.txt HTTP/1.1\r\n",
        b"GET /leak.txt HTTP/1.1\r\n",
        b"GET /leak HTTP/1.1\r\n",
        b"GET /leakdir/inner.txt HTTP/1.1\r\n",
        b"GET /C:%5cWindows%5cwin.ini HTTP/1.1\r\n",
        b"GET secret.txt HTTP/1.1\r\n",
        b"GET http://127.0.0.1/../secret.txt HTTP/1.1\r\n",
    ];
    for attempt in known {
        let mut request = attempt.to_vec();
        request.extend_from_slice(b"Host: localhost\r\nConnection: close\r\n\r\n");
        let shown = String::from_utf8_lossy(attempt);
        let reply = match exchange(addr, &request, TIMEOUT) {
            Answer::Reply(reply) => reply,
            Answer::Closed => continue, // Nothing said, nothing leaked.
            silent => panic!("{shown}: {silent:?}"),
        };
        assert!(!reply.text().contains(SECRET), "{shown} leaked the secret");
        assert!(
            !reply.text().contains("root:"),
            "{shown} leaked /etc/passwd"
        );
        assert!(
            matches!(reply.status, 400 | 404),
            "{shown} answered {}",
            reply.status
        );
    }
    let mut runner = TestRunner::new(Config {
        cases: 300,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&target, |target| {
            let request =
                format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            let answer = exchange(addr, request.as_bytes(), TIMEOUT);
            let Answer::Reply(reply) = answer else {
                return Err(TestCaseError::fail(format!("{target}: {answer:?}")));
            };
            prop_assert!(!reply.text().contains(SECRET), "{target} leaked");
            prop_assert!(
                matches!(reply.status, 200 | 301 | 404),
                "{target}: {}",
                reply.status
            );
            Ok(())
        })
        .unwrap_or_else(|err| panic!("{err}"));
}

// ---------------------------------------------------------------- where it listens

#[test]
fn serve_listens_on_loopback_unless_told_otherwise() {
    let project = Fixture::copy_with_own_frontend();
    let served = Served::start(project.root(), &[]);
    assert_eq!(served.addr.ip(), std::net::Ipv4Addr::LOCALHOST);
    // The socket itself, as the system lists it: bound to 127.0.0.1.
    #[cfg(target_os = "linux")]
    {
        let port = format!("{:04X}", served.addr.port());
        let listening: Vec<String> = std::fs::read_to_string("/proc/net/tcp")
            .unwrap()
            .lines()
            .filter(|line| line.split_whitespace().nth(3) == Some("0A"))
            .filter_map(|line| line.split_whitespace().nth(1).map(str::to_owned))
            .filter(|local| local.ends_with(&format!(":{port}")))
            .collect();
        assert_eq!(listening, [format!("0100007F:{port}")]);
    }
    assert_eq!(get(served.addr, "/").status, 200);
}

#[test]
fn a_name_pointed_at_the_preview_is_refused() {
    // DNS rebinding: a page on another site points its own name at 127.0.0.1,
    // then reads the preview or posts to the stand-in as if same-origin.
    let server = InProcess::start(true);
    let addr = server.addr();
    let ask = |host: &str, head: &str| {
        let answer = exchange(
            addr,
            format!("{head}\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
            TIMEOUT,
        );
        match answer {
            Answer::Reply(reply) => reply,
            other => panic!("{host}: {other:?}"),
        }
    };
    let port = addr.port();
    for host in [
        format!("rebound.example:{port}"),
        "rebound.example".into(),
        format!("localhost.rebound.example:{port}"),
    ] {
        let page = ask(&host, "GET / HTTP/1.1");
        assert_eq!(page.status, 403, "{host}");
        assert!(page.text().contains("IP address or localhost"), "{host}");
        let post = ask(
            &host,
            &format!("POST /f/{FORM_ID} HTTP/1.1\r\nContent-Length: 0"),
        );
        assert_eq!(post.status, 403, "{host}");
    }
    assert!(
        !server.site.submissions().exists(),
        "nothing was saved from a refused post"
    );
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(ask(&host, "GET / HTTP/1.1").status, 200, "{host}");
    }
}
