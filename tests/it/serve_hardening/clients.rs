//! Many, slow and silent clients, each holding up only itself: hundreds at
//! once, a hundred idle live-reload tabs, a burst of kept-alive connections,
//! clients that dribble, stall or never read, and connections that say
//! nothing.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use super::server_process::{
    Answer, BIG_FILE, PROBE, ServerProcess, post_sign_up, read_answer, status_or_close,
};
use crate::support::server::*;

/// A connection that sends nothing, or half a head, is closed after a
/// timeout; a live-reload stream, which sends nothing either, stays open.
#[test]
fn silent_connections_are_closed_but_live_reload_streams_stay() {
    let mut server = ServerProcess::start();
    let mut events = EventStream::open(server.addr, None);
    let silent: Vec<TcpStream> = (0..50)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    let mut half = TcpStream::connect(server.addr).unwrap();
    half.write_all(b"GET / HTTP/1.1\r\nHost: loc").unwrap();
    let within = Duration::from_secs(30);
    for (n, stream) in silent.into_iter().enumerate() {
        match read_answer(stream, within) {
            Answer::Closed => {}
            other => panic!("silent connection {n}: {other:?}"),
        }
    }
    match read_answer(half, within) {
        Answer::Reply(reply) => assert_eq!(reply.status, 408),
        other => panic!("half a head: {other:?}"),
    }
    // The stream outlived them all, and still hears of builds.
    server.tell("built");
    let event = events.next(TIMEOUT).expect("the stream is still open");
    assert_eq!(event.kind, "reload");
    server.probe("silent connections");
    server.finish();
}

// ---------------------------------------------------------------- many clients

#[test]
fn five_hundred_connections_at_once() {
    let server = ServerProcess::start();
    let addr = server.addr;
    const CLIENTS: usize = 500;
    let start = Arc::new(Barrier::new(CLIENTS));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|n| {
            let start = start.clone();
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || {
                    let target = [
                        "/",
                        "/privacypolicy",
                        "/assets/site-0123456789.css",
                        "/nope",
                    ][n % 4];
                    start.wait();
                    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_secs(30))
                    else {
                        return (target, Answer::Closed);
                    };
                    let request = format!(
                        "GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    );
                    let _ = stream.write_all(request.as_bytes());
                    (target, read_answer(stream, Duration::from_secs(60)))
                })
                .unwrap()
        })
        .collect();
    let (mut answered, mut closed) = (0, 0);
    for client in clients {
        let (target, answer) = client.join().unwrap();
        match status_or_close(&answer, target) {
            Some(status) => {
                let expected = if target == "/nope" { 404 } else { 200 };
                assert_eq!(status, expected, "{target}");
                answered += 1;
            }
            None => closed += 1,
        }
    }
    assert!(
        answered >= CLIENTS * 9 / 10,
        "{answered} answered, {closed} closed"
    );
    server.probe("500 connections");
    server.finish();
}

#[test]
fn a_hundred_idle_live_reload_tabs_leave_pages_fast() {
    let mut server = ServerProcess::start();
    let addr = server.addr;
    // More than the 64 streams once allowed.
    const TABS: usize = 150;
    let mut tabs: Vec<EventStream> = (0..TABS).map(|_| EventStream::open(addr, None)).collect();
    assert!(tabs.iter().all(|tab| tab.status == 200));
    let started = Instant::now();
    for n in 0..40 {
        let reply = get(
            addr,
            ["/", "/privacypolicy", "/__curbside/live.js", "/nope"][n % 4],
        );
        assert!(matches!(reply.status, 200 | 404));
    }
    let took = started.elapsed();
    assert!(took < Duration::from_secs(5), "40 requests took {took:?}");
    server.probe("150 open tabs");

    // Every tab hears of every build.
    server.tell("failed error: content/plans.yaml:3:10: bad price");
    for (n, tab) in tabs.iter_mut().enumerate() {
        let event = tab
            .next(TIMEOUT)
            .unwrap_or_else(|| panic!("tab {n} heard nothing"));
        assert_eq!(event.kind, "error", "tab {n}");
        assert!(event.data.contains("content/plans.yaml:3:10"));
    }
    server.tell("built");
    for (n, tab) in tabs.iter_mut().enumerate() {
        assert_eq!(
            tab.next(TIMEOUT).map(|e| e.kind),
            Some("reload".into()),
            "tab {n}"
        );
    }
    // Closed tabs give their place back.
    drop(tabs);
    let again: Vec<EventStream> = (0..TABS).map(|_| EventStream::open(addr, None)).collect();
    assert!(again.iter().all(|tab| tab.status == 200));
    drop(again);
    server.probe("tabs closed");
    server.finish();
}

/// Kept-alive connections opened in a burst are each answered at once (a
/// pool that queued a connection behind a kept-alive one left some of these
/// 40 unanswered until another closed).
#[test]
fn a_burst_of_kept_alive_connections_is_answered() {
    for round in 0..8 {
        let server = InProcess::start(true);
        let addr = server.addr();
        const CLIENTS: usize = 40;
        let start = Arc::new(Barrier::new(CLIENTS));
        let clients: Vec<_> = (0..CLIENTS)
            .map(|_| {
                let start = start.clone();
                std::thread::spawn(move || {
                    start.wait();
                    let mut stream = TcpStream::connect(addr).unwrap();
                    // Kept alive: the connection holds its pool thread.
                    stream
                        .write_all(b"GET /robots.txt HTTP/1.1\r\nHost: localhost\r\n\r\n")
                        .unwrap();
                    stream
                        .set_read_timeout(Some(Duration::from_secs(5)))
                        .unwrap();
                    let mut head = [0u8; 12];
                    let answered = stream.read_exact(&mut head).is_ok();
                    (answered, stream)
                })
            })
            .collect();
        let results: Vec<(bool, TcpStream)> =
            clients.into_iter().map(|c| c.join().unwrap()).collect();
        let stranded = results.iter().filter(|(answered, _)| !answered).count();
        assert_eq!(
            stranded, 0,
            "round {round}: {stranded} of {CLIENTS} never answered"
        );
    }
}

// ---------------------------------------------------------------- slow clients

#[test]
fn slow_clients_hold_up_only_themselves() {
    let server = ServerProcess::start();
    let addr = server.addr;

    // A request sent a byte at a time is answered whole.
    let dribbler = std::thread::spawn(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.set_nodelay(true).unwrap();
        for byte in b"GET /privacypolicy HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n" {
            stream.write_all(&[*byte]).unwrap();
            std::thread::sleep(Duration::from_millis(15));
        }
        read_answer(stream, TIMEOUT)
    });
    // Heads that never end.
    let mut stalled = Vec::new();
    for n in 0..50 {
        let mut stream = TcpStream::connect(addr).unwrap();
        let partial: &[u8] = if n % 2 == 0 {
            b"GET /privacypo"
        } else {
            b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
        };
        stream.write_all(partial).unwrap();
        stalled.push(stream);
    }
    server.probe("50 unfinished heads");

    // Clients that never read: ten downloads of a file larger than socket
    // buffers hold, and one connection pipelining thousands of requests
    // (whose answers are written in order: a fixed pool of workers used to
    // be taken whole by it).
    let mut readers_never = Vec::new();
    for _ in 0..10 {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .write_all(format!("GET /{BIG_FILE} HTTP/1.1\r\nHost: localhost\r\n\r\n").as_bytes())
            .unwrap();
        readers_never.push(stream);
    }
    let mut pipeliner = TcpStream::connect(addr).unwrap();
    pipeliner
        .set_write_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let one = b"GET /privacypolicy HTTP/1.1\r\nHost: localhost\r\n\r\n";
    let many: Vec<u8> = one
        .iter()
        .copied()
        .cycle()
        .take(one.len() * 20_000)
        .collect();
    // The server may stop reading once its answers back up: fine.
    let _ = pipeliner.write_all(&many);
    // The server is answering the pipeline (its first answer has arrived,
    // unread) before the others are probed.
    pipeliner.set_read_timeout(Some(PROBE)).unwrap();
    assert!(
        pipeliner.peek(&mut [0u8; 1]).unwrap() > 0,
        "no answer to the pipeline"
    );
    server.probe("clients that never read");
    let started = Instant::now();
    let (status, _) = post_sign_up(addr);
    assert_eq!(status, 422);
    let events = EventStream::open(addr, None);
    assert_eq!(events.status, 200);
    assert!(started.elapsed() < PROBE, "took {:?}", started.elapsed());

    match dribbler.join().unwrap() {
        Answer::Reply(reply) => {
            assert_eq!(reply.status, 200);
            assert!(reply.text().contains("privacy policy"));
        }
        other => panic!("the byte-at-a-time request: {other:?}"),
    }
    drop((stalled, readers_never, pipeliner, events));
    server.probe("slow clients gone");
    server.finish();
}
