//! `--open`: the system's way of opening a URL in the default browser.

use std::process::{Command, Stdio};

use crate::diagnostics::warn;

/// Opens `url`; a failure is only a warning, the server runs on.
pub fn open(url: &str) {
    let mut command = if cfg!(target_os = "macos") {
        Command::new("open")
    } else if cfg!(windows) {
        let mut command = Command::new("cmd");
        // `start` takes its first quoted argument as a window title.
        command.args(["/C", "start", ""]);
        command
    } else {
        Command::new("xdg-open")
    };
    let spawned = command
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match spawned {
        // Reaped on a thread of its own, so it never lingers as a zombie.
        Ok(mut child) => {
            let url = url.to_string();
            std::thread::spawn(move || {
                if child.wait().is_ok_and(|status| !status.success()) {
                    warn(&format!("could not open a browser; open {url} yourself"));
                }
            });
        }
        Err(err) => warn(&format!(
            "could not open a browser ({err}); open {url} yourself"
        )),
    }
}
