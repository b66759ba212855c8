//! AVIF copies, made by sharp (libaom) in Node, which the build runs anyway for
//! the islands. rav1e, the Rust encoder, needs 1.25 to 2 times libaom's bytes
//! to come as close to the photo (tests/bench/README.md); building libaom into
//! this crate would need a C toolchain, CMake and NASM.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::diagnostics::{Diagnostic, Result};

/// The script, in the frontend folder whose packages hold sharp.
const SCRIPT: &str = "scripts/encode-avif.mjs";

#[derive(Debug, Clone)]
pub struct AvifEncoder {
    frontend: PathBuf,
}

impl AvifEncoder {
    pub fn new(frontend: &Path) -> AvifEncoder {
        AvifEncoder {
            frontend: frontend.to_path_buf(),
        }
    }

    /// One copy's sRGB pixels (RGB, or RGBA with `alpha`) as an AVIF file.
    pub fn encode(
        &self,
        pixels: &[u8],
        (width, height): (u32, u32),
        alpha: bool,
        (quality, effort): (u8, u8),
    ) -> Result<Vec<u8>> {
        crate::node::ensure_installed(&self.frontend)?;
        let channels = if alpha { 4 } else { 3 };
        let args = [width, height, channels, quality.into(), effort.into()].map(|n| n.to_string());
        let mut child = Command::new("node")
            .arg(SCRIPT)
            .args(args)
            .current_dir(&self.frontend)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| {
                Diagnostic::new("could not run Node to encode the AVIF copies")
                    .caused_by(err)
                    .help("install Node.js 20.19 or later")
            })?;
        // Written from a thread while the answer is read: with a full pipe each
        // way, neither side could go on.
        let stdin = child.stdin.take();
        let output = std::thread::scope(|scope| {
            if let Some(mut stdin) = stdin {
                // A refused write only means Node stopped early; its status says why.
                scope.spawn(move || stdin.write_all(pixels));
            }
            child.wait_with_output()
        })
        .map_err(|err| Diagnostic::new("Node's AVIF encoder vanished").caused_by(err))?;
        let (status, file) = (output.status, output.stdout);
        let message = String::from_utf8_lossy(&output.stderr);
        if !status.success() || file.is_empty() {
            return Err(
                Diagnostic::new(format!("sharp could not encode an AVIF copy ({status})"))
                    .caused_by(message.trim().to_string())
                    .help(format!(
                        "delete {} and build again, so the frontend's packages are installed anew",
                        self.frontend.join("node_modules").display()
                    )),
            );
        }
        Ok(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frontends_sharp_makes_an_avif_file() {
        let frontend = Path::new(env!("CARGO_MANIFEST_DIR")).join("frontend");
        let pixels: Vec<u8> = (0..24 * 16).flat_map(|i| [i as u8, 90, 200]).collect();
        let file = AvifEncoder::new(&frontend)
            .encode(&pixels, (24, 16), false, (50, 4))
            .unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(&file[4..12], b"ftypavif");
    }

    #[test]
    fn a_failing_encoder_is_an_error_with_its_message() {
        let frontend = tempfile::tempdir().unwrap();
        let dir = frontend.path();
        // Packages that count as installed, and a script that refuses.
        let lock = b"{}";
        std::fs::write(dir.join("package-lock.json"), lock).unwrap();
        std::fs::create_dir_all(dir.join("node_modules")).unwrap();
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        use sha2::Digest;
        let stamp = crate::text::hex(&sha2::Sha256::digest(lock));
        std::fs::write(dir.join("node_modules/.curbside-installed"), stamp).unwrap();
        std::fs::write(
            dir.join(SCRIPT),
            "process.stderr.write('no libaom here'); process.exit(3);",
        )
        .unwrap();
        let err = AvifEncoder::new(dir)
            .encode(&[0; 12], (2, 2), false, (50, 4))
            .unwrap_err()
            .to_string();
        assert!(err.contains("sharp could not encode an AVIF copy"), "{err}");
        assert!(err.contains("no libaom here"), "{err}");
        assert!(err.contains("node_modules"), "{err}");
    }
}
