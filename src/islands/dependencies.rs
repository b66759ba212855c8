//! Installs the frontend's npm dependencies when they are missing or no
//! longer match package-lock.json, so a fresh clone builds with one command.

use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::diagnostics::{Diagnostic, Result};
use crate::output::hex;

/// Records which package-lock.json the installed node_modules came from.
const STAMP: &str = "node_modules/.curbside-installed";

pub fn ensure_installed(frontend: &Path) -> Result<()> {
    let lock = frontend.join("package-lock.json");
    let lock_bytes = std::fs::read(&lock).map_err(|err| {
        Diagnostic::io("read", &lock, err)
            .help("restore frontend/package-lock.json from the repository")
    })?;
    let wanted = hex(&Sha256::digest(&lock_bytes));
    let stamp = frontend.join(STAMP);
    if std::fs::read_to_string(&stamp).is_ok_and(|have| have.trim() == wanted) {
        return Ok(());
    }
    eprintln!("Installing frontend dependencies (npm ci)…");
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(frontend)
        .status()
        .map_err(|err| {
            Diagnostic::new("could not run npm to install the frontend's dependencies")
                .caused_by(err)
                .help("install Node.js 20 or later, which comes with npm")
        })?;
    if !status.success() {
        return Err(Diagnostic::new(format!(
            "`npm ci` in {} failed ({status})",
            frontend.display()
        ))
        .help(
            "read npm's messages above; check your network connection and run the command again",
        ));
    }
    std::fs::write(&stamp, wanted).map_err(|err| Diagnostic::io("write", &stamp, err))
}
