//! Running the checks: the record read, the origin asked, findings reported.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

use super::built::Built;
use super::client::{Client, Origin};
use super::pool::{Job, Progress};
use super::report::{Findings, Found, Report, Severity};
use super::{addresses, built, files, pool, report};
use crate::diagnostics::{Diagnostic, Result};
use crate::output::hosting::Hosting;

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
    let mut findings = Findings::default();
    check(
        &built,
        &client,
        &progress,
        (options.allow_samples, options.url.is_some()),
        &mut findings,
    );
    progress.finish();
    let problems = findings.into_sorted();
    let errors = problems
        .iter()
        .filter(|problem| problem.severity == Severity::Error)
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
        eprintln!("{}", report::render(problem, origin.as_str()));
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

fn check(
    built: &Built,
    client: &Client,
    progress: &Progress,
    (allow_samples, given): (bool, bool),
    findings: &mut Findings,
) {
    let origin = client.origin();
    let assets: HashSet<String> = built
        .files
        .iter()
        .filter_map(|file| file.file.strip_prefix("assets/"))
        .map(str::to_string)
        .collect();
    let judge_file = |file: &built::Published, answer| {
        files::judge(file, answer, built, origin, &assets)
            .into_iter()
            .map(|found| samples_allowed(found, allow_samples))
            .collect::<Vec<Found>>()
    };
    // The home page first: a site that does not answer is not asked for each file.
    let Some(home) = built.files.iter().find(|file| file.address == "/") else {
        findings.push(Found::error("no home", "/", "the build has no index.html"));
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
        findings.push(Found::warning(
            "too many",
            "/",
            format!(
                "the site has {} files: only the first {MAX_FILES} were asked for",
                built.files.len()
            ),
        ));
    }
    let jobs: Vec<Job> = rest
        .iter()
        .map(|file| Job {
            path: file.address.clone(),
            limit: files::limit_for(file.size),
        })
        .collect();
    let judged = pool::each(client, &jobs, progress, |at, answer| {
        judge_file(rest[at], answer)
    });
    findings.extend(judged.into_iter().flatten());
    let probes = addresses::probes(built);
    let jobs: Vec<Job> = probes.iter().map(|probe| probe.job(built)).collect();
    let judged = pool::each(client, &jobs, progress, |at, answer| {
        addresses::judge(&probes[at], answer, built, origin)
    });
    findings.extend(judged.into_iter().flatten());
    findings.extend(addresses::site_address(built, origin, allow_samples, given));
    let facts = built.hosting.facts();
    if !facts.sends_headers {
        let others = Hosting::sending_headers();
        let (last, rest) = others.split_last().map_or(("", &[][..]), |(l, r)| (*l, r));
        let note = Found::note(
            "no headers",
            "/",
            format!("{} sends none of the site's headers: no HSTS, no protection against being framed (only a header can forbid it), no nosniff, Referrer-Policy or Permissions-Policy. Each page's <meta> Content-Security-Policy still limits its scripts, styles, images, connections and form posts to the site and Formspree", facts.name),
        )
        .fix(format!("for those headers, build for and host on {} or {last}", rest.join(", ")));
        findings.push(note);
    }
}

fn samples_allowed(found: Found, allow_samples: bool) -> Found {
    if allow_samples && found.sample {
        Found {
            severity: Severity::Warning,
            ..found
        }
    } else {
        found
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
