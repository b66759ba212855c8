//! Starting the real binary: a site broken at the start is served from the
//! last session, or refused without `--watch`; dist/ is never its folder.

use crate::support::fixture::Fixture;
use crate::support::server::*;

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
