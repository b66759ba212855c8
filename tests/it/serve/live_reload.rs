//! Live reload: the event stream following the builds in process, and the
//! real binary watching a copy of the project, rebuilding once per burst of
//! saves and showing the error of a bad one.

use super::form::{complete, post_json};
use crate::support::fixture::Fixture;
use crate::support::server::*;

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
