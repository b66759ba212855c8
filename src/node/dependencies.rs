//! Installs the frontend's npm packages when missing or stale, so a fresh clone
//! builds with one command.

use std::path::Path;
use std::process::{Child, Command, Stdio};

use sha2::{Digest, Sha256};

use crate::diagnostics::{Diagnostic, Result};
use crate::text::hex;

/// The package-lock.json node_modules came from.
const STAMP: &str = "node_modules/.curbside-installed";

/// Held while installing, so builds started together install once. Not in
/// node_modules/, which npm removes meanwhile.
const INSTALL_LOCK: &str = ".install.lock";

/// Node running `script` in `frontend`, its packages installed first, with
/// stdin and stdout piped to the CLI and `stderr` as given; `does` says what
/// it is for, in the message when Node cannot start.
pub(super) fn start_node(
    frontend: &Path,
    script: &Path,
    stderr: Stdio,
    does: &str,
) -> Result<Child> {
    ensure_installed(frontend)?;
    Command::new("node")
        .arg(script)
        .current_dir(frontend)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .map_err(|err| {
            Diagnostic::new(format!("could not start Node.js to {does}"))
                .caused_by(err)
                .help("install Node.js 20.19 or later and make sure `node` is on your PATH")
        })
}

/// Waits for a Node whose stdin was closed to exit, and kills it only if it
/// lingers past a grace period: a build never hangs on its end.
pub(super) fn stop_node(child: &mut Child) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(2);
    while std::time::Instant::now() < deadline {
        if !matches!(child.try_wait(), Ok(None)) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
}

pub fn ensure_installed(frontend: &Path) -> Result<()> {
    if is_current(frontend)? {
        return Ok(());
    }
    let lock_path = frontend.join(INSTALL_LOCK);
    let lock = std::fs::File::create(&lock_path)
        .map_err(|err| Diagnostic::io("create", &lock_path, err))?;
    lock.lock()
        .map_err(|err| Diagnostic::io("lock", &lock_path, err))?;
    // Another build may have installed while this one waited.
    if is_current(frontend)? {
        return Ok(());
    }
    install(frontend)
}

fn is_current(frontend: &Path) -> Result<bool> {
    let (wanted, stamp) = wanted_stamp(frontend)?;
    Ok(std::fs::read_to_string(stamp).is_ok_and(|have| have.trim() == wanted))
}

fn wanted_stamp(frontend: &Path) -> Result<(String, std::path::PathBuf)> {
    let lock = frontend.join("package-lock.json");
    let lock_bytes = std::fs::read(&lock).map_err(|err| {
        Diagnostic::io("read", &lock, err)
            .help("restore frontend/package-lock.json from the repository")
    })?;
    Ok((hex(&Sha256::digest(&lock_bytes)), frontend.join(STAMP)))
}

fn install(frontend: &Path) -> Result<()> {
    let (wanted, stamp) = wanted_stamp(frontend)?;
    eprintln!("Installing frontend dependencies (npm ci)…");
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(frontend)
        .status()
        .map_err(|err| {
            Diagnostic::new("could not run npm to install the frontend's dependencies")
                .caused_by(err)
                .help("install Node.js 20.19 or later, which comes with npm")
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
