//! Running the checks: the record read, the origin asked, findings reported.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

use super::built::Built;
use super::client::{Client, Origin};
use super::finding::{Found, Kind};
use super::pool::{Job, Progress};
use super::report::{Findings, Report};
use super::{addresses, built, files, pool};
use crate::diagnostics::{Diagnostic, Level, Result};

/// Keeps a run bounded.
pub const MAX_FILES: usize = 10_000;

pub struct VerifyOptions {
    /// Whose content/business.yaml names the site's address.
    pub root: PathBuf,
    /// The site folder the build wrote.
    pub out: PathBuf,
    /// Default: `url` of content/business.yaml.
    pub url: Option<String>,
    /// JSON on stdout too, and no progress.
    pub json: bool,
    /// business.yaml's sample values warn (a trial deployment).
    pub allow_samples: bool,
    pub timeout: Duration,
}

/// `Err` when anything is wrong (after printing what), for the exit code.
pub fn run(options: &VerifyOptions) -> Result<()> {
    let built = Built::read(&options.out)?;
    let url = match &options.url {
        Some(url) => url.clone(),
        None => business_url(&options.root).unwrap_or_else(|| built.record.url.clone()),
    };
    let origin = Origin::parse(&url).map_err(|why| {
        Diagnostic::new(format!("cannot verify: {why}"))
            .help("give the site's address, such as https://example.com")
    })?;
    let client = Client::new(origin.clone(), options.timeout);
    let progress = Progress::new(options.json);
    let mut findings = Findings::new(built.hosting, options.allow_samples);
    check(
        &built,
        &client,
        &progress,
        options.url.is_some(),
        &mut findings,
    );
    progress.finish();
    let problems = findings.into_sorted();
    let errors = problems
        .iter()
        .filter(|problem| problem.level == Level::Error)
        .count();
    let hosting = crate::output::record::hosting_name(built.hosting);
    if options.json {
        let report = Report {
            url: origin.as_str(),
            hosting: &hosting,
            ok: errors == 0,
            addresses: progress.requests(),
            problems: &problems,
        };
        let json = serde_json::to_string_pretty(&report)
            .map_err(|err| Diagnostic::new("could not write the report").caused_by(err))?;
        println!("{json}");
    }
    for problem in &problems {
        eprintln!("{}", problem.diagnostic(origin.as_str()));
    }
    if errors == 0 {
        let warnings = problems.len();
        eprintln!(
            "Verified {} addresses of {} against the build for {hosting} in {}: no problems found{}",
            progress.requests(),
            origin.as_str(),
            options.out.display(),
            match warnings {
                0 => String::new(),
                1 => " (1 warning or note above)".to_string(),
                n => format!(" ({n} warnings or notes above)"),
            }
        );
        return Ok(());
    }
    Err(Diagnostic::new(format!(
        "found {errors} problem{} on {}, above",
        if errors == 1 { "" } else { "s" },
        origin.as_str()
    )))
}

/// `given`: the address was given on the command line, not business.yaml's.
fn check(
    built: &Built,
    client: &Client,
    progress: &Progress,
    given: bool,
    findings: &mut Findings,
) {
    let origin = client.origin();
    let assets: HashSet<String> = built
        .files
        .iter()
        .filter_map(|file| file.file.strip_prefix("assets/"))
        .map(str::to_string)
        .collect();
    let judge_file =
        |file: &built::Published, answer| files::judge(file, answer, built, origin, &assets);
    // The home page first: a site that does not answer is not asked for each file.
    let Some(home) = built.files.iter().find(|file| file.address == "/") else {
        findings.push(Found::new(Kind::NoHome, "/"));
        return;
    };
    progress.expect(1);
    let first = client.get("/", files::limit_for(home.size));
    progress.tick();
    let stop = match &first {
        Err(_) => true,
        Ok(answer) => {
            answer.status >= 500
                || (answer.status / 100 == 3
                    && origin
                        .resolve(answer.header("location").unwrap_or_default())
                        .is_err())
        }
    };
    findings.extend(judge_file(home, first));
    if stop {
        return;
    }
    let rest: Vec<&built::Published> = built
        .files
        .iter()
        .filter(|file| file.address != "/")
        .take(MAX_FILES)
        .collect();
    if built.files.len() > MAX_FILES + 1 {
        let kind = Kind::TooMany {
            files: built.files.len(),
            asked: MAX_FILES,
        };
        findings.push(Found::new(kind, "/"));
    }
    let threads = pool::threads();
    let jobs: Vec<Job> = rest
        .iter()
        .map(|file| Job {
            path: file.address.clone(),
            limit: files::limit_for(file.size),
        })
        .collect();
    let judged = pool::each(threads.as_ref(), client, &jobs, progress, |at, answer| {
        judge_file(rest[at], answer)
    });
    findings.extend(judged.into_iter().flatten());
    let probes = addresses::probes(built);
    let jobs: Vec<Job> = probes.iter().map(|probe| probe.job(built)).collect();
    let judged = pool::each(threads.as_ref(), client, &jobs, progress, |at, answer| {
        addresses::judge(&probes[at], answer, built, origin)
    });
    findings.extend(judged.into_iter().flatten());
    findings.extend(addresses::site_address(built, origin, given));
    if !built.hosting.facts().sends_headers {
        findings.push(Found::new(Kind::HeadersNotSent, "/"));
    }
}

fn business_url(root: &std::path::Path) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Business {
        url: String,
    }
    let text = std::fs::read_to_string(root.join("content/business.yaml")).ok()?;
    serde_yaml::from_str::<Business>(&text).ok().map(|b| b.url)
}
