//! Starting the preview: build, serve, and with `--watch` rebuild on every save.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::dev_assets::LIVE_SCRIPT_TAG;
use super::preview::Preview;
use super::server::HttpServer;
use super::{rebuild, watch};
use crate::diagnostics::{Diagnostic, Result, warn};
use crate::islands::props::FormEndpoint;
use crate::output::headers::InlineSources;
use crate::output::hosting::Hosting;
use crate::pipeline::{BuildOptions, Project};

/// Under the project folder (git ignores it).
pub const DEFAULT_OUT: &str = ".curbside/preview";
/// Where the form stand-in appends what it accepts, in the git-ignored local folder.
pub const SUBMISSIONS_FILE: &str = "submissions.jsonl";

#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub root: PathBuf,
    /// Relative to the project folder unless absolute.
    pub out: PathBuf,
    pub host: IpAddr,
    /// The first port tried; 0 lets the system choose.
    pub port: u16,
    pub watch: bool,
    pub open: bool,
}

/// Builds and serves; returns only on an error that leaves nothing to serve.
pub fn run(options: ServeOptions) -> Result<()> {
    let root = options.root.canonicalize().map_err(|err| {
        Diagnostic::io("open the project folder", &options.root, err)
            .help("run curbside from the folder holding content/, or pass it with --root")
    })?;
    let project = Project::new(&root);
    let out = crate::output::resolved(&root.join(&options.out))?;
    raise_open_files_limit();
    check_output_folder(&project, &out)?;

    let preview = Arc::new(Preview::new(
        &out,
        project.cache().join(SUBMISSIONS_FILE),
        options.watch,
    ));
    // An earlier session's build is served until a build succeeds, with the
    // hashes its inline style and script need.
    if let Ok(text) = std::fs::read_to_string(out.join("_headers")) {
        preview.set_security_headers(&InlineSources::from_headers_file(&text));
    }
    // A taken address is reported before any build work.
    let server = HttpServer::start(preview.clone(), options.host, options.port)?;
    let build_options = BuildOptions {
        out,
        endpoint: FormEndpoint::Local,
        dev_script: LIVE_SCRIPT_TAG.to_string(),
        // Headers come back from `_headers`, as Netlify reads them.
        hosting: Hosting::Netlify,
    };
    let mut rebuilder = rebuild::Rebuilder::new(project.clone(), build_options, preview);
    // Before the first build, so a save during it is not lost.
    let (changes, saves) = std::sync::mpsc::channel();
    let watcher = if options.watch {
        let watcher = watch::start(&project, changes)?;
        rebuilder.build_or_report(None);
        Some(watcher)
    } else {
        rebuilder.build(None)?;
        None
    };

    if server.addr().port() != options.port && options.port != 0 {
        eprintln!(
            "Port {} is taken; using {}.",
            options.port,
            server.addr().port()
        );
    }
    if !options.host.is_loopback() {
        warn(&format!(
            "the preview is reachable from other machines on {}: its form stand-in saves what anyone sends",
            options.host
        ));
    }
    let url = server.url();
    eprintln!("Serving {url}");
    if options.open {
        // On its own thread: a launcher may wait for the browser. A failure only warns.
        let url = url.clone();
        std::thread::spawn(move || {
            if let Err(err) = open::that(&url) {
                warn(&format!(
                    "could not open a browser ({err}); open {url} yourself"
                ));
            }
        });
    }
    match watcher {
        Some(_watcher) => {
            eprintln!(
                "Watching content/, layouts/ and frontend/ for changes. Press Ctrl+C to stop."
            );
            rebuilder.run(&root, &saves);
        }
        None => {
            // Nothing will be rebuilt: Node may go.
            drop(rebuilder);
            eprintln!("Press Ctrl+C to stop.");
            server.wait();
        }
    }
    Ok(())
}

/// The server allows more connections than the usual soft limit of open files
/// (often 1024, 256 on macOS), so ask for the most allowed, as Go programs do.
fn raise_open_files_limit() {
    #[cfg(unix)]
    if let Err(err) = rlimit::increase_nofile_limit(u64::MAX) {
        warn(&format!("could not raise the limit of open files: {err}"));
    }
}

/// Replaced whole on every build, so not the project, a folder holding it or
/// watched, nor `dist/`.
fn check_output_folder(project: &Project, out: &Path) -> Result<()> {
    crate::output::check_output_folder(&project.root, out)?;
    if out.starts_with(project.root.join("dist")) {
        return Err(Diagnostic::new(format!(
            "cannot preview into {}: dist/ only ever holds production builds (`curbside build`)",
            out.display()
        ))
        .help(format!(
            "leave out --out to use {DEFAULT_OUT}, or pass a folder of its own"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_preview_folder_stays_out_of_the_way() {
        let project = Project::new("/site");
        // The project and its sources: crate::output's check, tested there.
        for bad in ["/site", "/site/dist", "/site/dist/x"] {
            assert!(
                check_output_folder(&project, Path::new(bad)).is_err(),
                "{bad}"
            );
        }
        for good in ["/site/.curbside/preview", "/tmp/preview", "/site/distant"] {
            assert!(
                check_output_folder(&project, Path::new(good)).is_ok(),
                "{good}"
            );
        }
    }
}
