//! curbside: builds the Curbside Brookings website from content/ and layouts/.

use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use curbside::islands::props::FormEndpoint;
use curbside::output::hosting::Hosting;
use curbside::pipeline::{BuildOptions, Builder, Change, Project};
use curbside::serve::ServeOptions;

#[derive(Parser)]
#[command(
    name = "curbside",
    version,
    about = "Builds the curbside website: content/ and layouts/ in, a static site in dist/ out.",
    long_about = "Builds the curbside website.\n\nReads the text, prices and pages in content/, the page layouts in layouts/ and the interactive parts in frontend/, and writes a complete static site to dist/, ready to upload to any static hosting."
)]
struct Cli {
    /// The project folder (the one holding content/, layouts/ and frontend/)
    #[arg(long, global = true, default_value = ".", value_name = "DIR")]
    root: PathBuf,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the site into a folder, ready to deploy. A failed build leaves
    /// the folder as it was.
    #[command(
        after_help = "Beside the site, in DIR-server/ (dist-server/ by default), the build writes nginx.conf and \
Caddyfile: configuration to include unchanged when serving the site with nginx or Caddy. That folder is \
never published; upload or point your hosting at DIR only."
    )]
    Build {
        /// Where to write the site: the folder to publish
        #[arg(long, default_value = "dist", value_name = "DIR")]
        out: PathBuf,
        /// Where the site will be hosted: only files it uses are written (.br
        /// and .gz copies for nginx and Caddy, _headers where it is read)
        #[arg(
            long,
            value_enum,
            default_value_t = Hosting::Netlify,
            value_name = "HOSTING"
        )]
        hosting: Hosting,
    },
    /// Check the site without building it: content, layouts, every page
    /// rendered, every link inside the site and #anchor, and that each page
    /// can be reached from the home page. Writes nothing; exits with 1 if
    /// anything is wrong (for CI).
    Check,
    /// Check the live site against the last build: every file served with
    /// the bytes built, the headers its hosting promises, its addresses,
    /// nothing internal published, the form's service. Asks the site's own
    /// address only; exits with 1 if anything is wrong (for a deploy pipeline).
    Verify {
        /// The site's address (default: url in content/business.yaml)
        url: Option<String>,
        /// The folder the build wrote, as passed to build --out
        #[arg(long, default_value = "dist", value_name = "DIR")]
        out: PathBuf,
        /// Print the report as JSON on stdout (the messages still go to stderr)
        #[arg(long)]
        json: bool,
        /// Report business.yaml's sample values as warnings, not errors (a trial deployment)
        #[arg(long)]
        allow_samples: bool,
        /// Seconds each request may take, its body included
        #[arg(long, default_value_t = 10, value_name = "SECONDS")]
        timeout: u64,
    },
    /// Write the JSON Schemas of the content files into content/schemas/,
    /// which editors use to complete keys and flag mistakes while typing
    /// (only needed after changing the content types in the code)
    Schemas,
    /// Preview the site on a local web server, with a stand-in for the form
    /// service. With --watch, every save rebuilds the site and reloads the open pages.
    Serve {
        /// Rebuild on every change to content/, layouts/ or frontend/
        #[arg(long)]
        watch: bool,
        /// The port to listen on; if it is taken, the next free one is used
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on; anything but loopback makes the preview
        /// reachable from other machines, at this machine's IP address (pages
        /// asked for by any other name than an IP address or localhost are
        /// refused, so no web page can point a name of its own at the preview)
        #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
        host: IpAddr,
        /// Open the site in the default browser
        #[arg(long)]
        open: bool,
        /// Where to build the preview (never dist/, which holds production builds)
        #[arg(long, default_value = curbside::serve::DEFAULT_OUT, value_name = "DIR")]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let project = Project::new(&cli.root);
    let result = match cli.command {
        Command::Build { out, hosting } => {
            let out = if out.is_absolute() {
                out
            } else {
                cli.root.join(out)
            };
            let options = BuildOptions {
                out: out.clone(),
                endpoint: FormEndpoint::Hosted,
                dev_script: String::new(),
                hosting,
            };
            Builder::new(project, options)
                .build(Change::Frontend)
                .map(|report| {
                    for warning in &report.warnings {
                        curbside::diagnostics::warn(warning);
                    }
                    eprintln!(
                        "Built {} files into {} in {} ms",
                        report.files,
                        out.display(),
                        report.elapsed.as_millis()
                    );
                    // For tests/bench/scale.mjs.
                    if std::env::var_os("CURBSIDE_TIMINGS").is_some() {
                        eprintln!(
                            "{}{}",
                            report.timings_line(),
                            curbside::pipeline::peak_rss_kib()
                                .map(|kib| format!(" peak_rss_kib={kib}"))
                                .unwrap_or_default()
                        );
                    }
                })
        }
        Command::Schemas => curbside::content::schema::write(&project.content()).map(|written| {
            eprintln!(
                "Wrote {} schemas into {}",
                written.len(),
                project
                    .content()
                    .join(curbside::content::schema::FOLDER)
                    .display()
            );
        }),
        Command::Check => curbside::check::check(&project).and_then(|report| {
            for warning in &report.warnings {
                curbside::diagnostics::warn(warning);
            }
            for problem in &report.problems {
                eprintln!("{problem}");
            }
            match report.problems.len() {
                0 => {
                    eprintln!(
                        "Checked {} pages and {} links inside the site: no problems found",
                        report.pages, report.links
                    );
                    Ok(())
                }
                count => Err(curbside::diagnostics::Diagnostic::new(format!(
                    "found {count} problem{} in {} pages",
                    if count == 1 { "" } else { "s" },
                    report.pages
                ))),
            }
        }),
        Command::Verify {
            url,
            out,
            json,
            allow_samples,
            timeout,
        } => curbside::verify::run(&curbside::verify::VerifyOptions {
            out: if out.is_absolute() {
                out
            } else {
                cli.root.join(out)
            },
            root: cli.root,
            url,
            json,
            allow_samples,
            timeout: std::time::Duration::from_secs(timeout.max(1)),
        }),
        Command::Serve {
            watch,
            port,
            host,
            open,
            out,
        } => curbside::serve::run(ServeOptions {
            root: cli.root,
            out,
            host,
            port,
            watch,
            open,
        }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(diagnostic) => {
            eprintln!("{diagnostic}");
            ExitCode::FAILURE
        }
    }
}
