//! curbside: builds the Curbside Brookings website from content/ and layouts/.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use curbside::build::{BuildOptions, Builder, Change, Project};
use curbside::render::props::FormEndpoint;

#[derive(Parser)]
#[command(
    name = "curbside",
    version,
    about = "Builds the curbside website: content/ and layouts/ in, a static site in dist/ out.",
    long_about = "Builds the curbside website.\n\nReads the text, prices and pages in content/, the page layouts in layouts/ and the interactive parts in frontend/, and writes a complete static site to dist/, ready to upload to any static host."
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
    Build {
        /// Where to write the site
        #[arg(long, default_value = "dist", value_name = "DIR")]
        out: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let project = Project::new(&cli.root);
    let result = match cli.command {
        Command::Build { out } => {
            let out = if out.is_absolute() {
                out
            } else {
                cli.root.join(out)
            };
            let options = BuildOptions {
                out: out.clone(),
                endpoint: FormEndpoint::Hosted,
                dev_script: String::new(),
            };
            Builder::new(project, options)
                .build(Change::Frontend)
                .map(|report| {
                    eprintln!(
                        "Built {} files into {} in {} ms",
                        report.files,
                        out.display(),
                        report.elapsed.as_millis()
                    );
                })
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(diagnostic) => {
            eprintln!("{diagnostic}");
            ExitCode::FAILURE
        }
    }
}
