//! AVIF copies by sharp (libaom), in one Node process for the whole build
//! (frontend/scripts/encode-avif.mjs). rav1e, the Rust encoder, needs 1.25 to
//! 2 times libaom's bytes to come as close to the photo (tests/bench/README.md);
//! building libaom into this crate would need a C toolchain, CMake and NASM.
//!
//! The process starts at the first copy asked for, so a build whose copies
//! are all cached starts none. Copies are asked for from several threads at
//! once: each request carries an id, and a reader thread hands each answer
//! to the thread waiting for it.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde::Deserialize;
use serde_json::json;

use super::dependencies::{start_node, stop_node};
use crate::diagnostics::{Diagnostic, Result};
use crate::media::avif::AvifEncoder;

/// The script, in the frontend folder whose packages hold sharp.
const SCRIPT: &str = "scripts/encode-avif.mjs";

/// How much of the script's own messages an error quotes.
const MOST_STDERR: usize = 4096;

/// sharp's AVIF encoder, started on first use and stopped when dropped.
pub struct SharpAvif {
    frontend: PathBuf,
    running: Mutex<Option<Arc<Running>>>,
}

/// An encoded file, or the script's reason for not making it.
type Answer = std::result::Result<Vec<u8>, String>;

struct Running {
    child: Mutex<Child>,
    /// `None` once the build is done with it: Node then finishes and exits.
    stdin: Mutex<Option<ChildStdin>>,
    next_id: AtomicU64,
    waiting: Arc<Mutex<Waiting>>,
    stderr: Arc<Mutex<String>>,
}

/// The threads waiting for an answer, until the script's output ends.
#[derive(Default)]
struct Waiting {
    by_id: HashMap<u64, Sender<Answer>>,
    ended: bool,
}

#[derive(Deserialize)]
struct ReplyHeader {
    id: u64,
    ok: bool,
    #[serde(default)]
    bytes: usize,
    error: Option<String>,
}

impl SharpAvif {
    pub fn new(frontend: &Path) -> SharpAvif {
        SharpAvif {
            frontend: frontend.to_path_buf(),
            running: Mutex::new(None),
        }
    }

    /// The running process, started now if this is the first copy.
    fn running(&self) -> Result<Arc<Running>> {
        let mut running = lock(&self.running);
        if let Some(running) = running.as_ref() {
            return Ok(Arc::clone(running));
        }
        let started = Arc::new(Running::start(&self.frontend)?);
        *running = Some(Arc::clone(&started));
        Ok(started)
    }

    fn failed(&self, what: String, running: &Running) -> Diagnostic {
        let said = lock(&running.stderr).trim().to_string();
        let diagnostic = Diagnostic::new(what).help(format!(
            "delete {} and build again, so the frontend's packages are installed anew",
            self.frontend.join("node_modules").display()
        ));
        if said.is_empty() {
            diagnostic
        } else {
            diagnostic.caused_by(said)
        }
    }
}

impl AvifEncoder for SharpAvif {
    fn encode(
        &self,
        pixels: &[u8],
        (width, height): (u32, u32),
        alpha: bool,
        (quality, effort): (u8, u8),
    ) -> Result<Vec<u8>> {
        let running = self.running()?;
        let id = running.next_id.fetch_add(1, Ordering::Relaxed);
        let (answer, answered) = channel();
        {
            let mut waiting = lock(&running.waiting);
            if waiting.ended {
                return Err(self.failed("Node's AVIF encoder has stopped".into(), &running));
            }
            waiting.by_id.insert(id, answer);
        }
        let header = json!({
            "id": id, "width": width, "height": height, "channels": if alpha { 4 } else { 3 },
            "quality": quality, "effort": effort, "bytes": pixels.len(),
        });
        let sent = match lock(&running.stdin).as_mut() {
            Some(stdin) => writeln!(stdin, "{header}")
                .and_then(|()| stdin.write_all(pixels))
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if let Err(err) = sent {
            lock(&running.waiting).by_id.remove(&id);
            let status = lock(&running.child).try_wait().ok().flatten();
            return Err(self.failed(
                format!("Node's AVIF encoder stopped ({err}; exit status {status:?})"),
                &running,
            ));
        }
        match answered.recv() {
            Ok(Ok(file)) if !file.is_empty() => Ok(file),
            Ok(Ok(_)) => Err(self.failed("sharp made an empty AVIF copy".into(), &running)),
            Ok(Err(why)) => Err(self
                .failed("sharp could not encode an AVIF copy".into(), &running)
                .caused_by(why)),
            Err(_) => {
                let status = lock(&running.child).try_wait().ok().flatten();
                Err(self.failed(
                    format!(
                        "Node's AVIF encoder stopped without answering (exit status {status:?})"
                    ),
                    &running,
                ))
            }
        }
    }
}

impl Running {
    fn start(frontend: &Path) -> Result<Running> {
        let mut child = start_node(
            frontend,
            Path::new(SCRIPT),
            Stdio::piped(),
            "encode the AVIF copies",
        )?;
        let (Some(stdin), Some(stdout), Some(mut stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(Diagnostic::new(
                "Node's AVIF encoder has no stdin, stdout or stderr",
            ));
        };
        let waiting = Arc::new(Mutex::new(Waiting::default()));
        let reader_waiting = Arc::clone(&waiting);
        std::thread::spawn(move || hand_out(BufReader::new(stdout), &reader_waiting));
        let said = Arc::new(Mutex::new(String::new()));
        let kept = Arc::clone(&said);
        std::thread::spawn(move || {
            let mut buffer = [0; 1024];
            while let Ok(read @ 1..) = stderr.read(&mut buffer) {
                let mut kept = lock(&kept);
                if kept.len() < MOST_STDERR {
                    kept.push_str(&String::from_utf8_lossy(&buffer[..read]));
                }
            }
        });
        Ok(Running {
            child: Mutex::new(child),
            stdin: Mutex::new(Some(stdin)),
            next_id: AtomicU64::new(1),
            waiting,
            stderr: said,
        })
    }
}

/// Reads the script's answers and hands each to the thread that asked; when
/// its output ends, the threads still waiting hear that it stopped.
fn hand_out(mut stdout: impl BufRead, waiting: &Mutex<Waiting>) {
    let mut line = String::new();
    loop {
        line.clear();
        let Ok(1..) = stdout.read_line(&mut line) else {
            break;
        };
        let Ok(header) = serde_json::from_str::<ReplyHeader>(&line) else {
            break;
        };
        let answer = if header.ok {
            let mut file = vec![0; header.bytes];
            if stdout.read_exact(&mut file).is_err() {
                break;
            }
            Ok(file)
        } else {
            Err(header.error.unwrap_or_else(|| "no reason given".into()))
        };
        if let Some(asked) = lock(waiting).by_id.remove(&header.id) {
            // The asking thread may have given up; its answer is then unwanted.
            let _ = asked.send(answer);
        }
    }
    // Dropping the senders wakes every thread still waiting.
    let mut waiting = lock(waiting);
    waiting.ended = true;
    waiting.by_id.clear();
}

impl Drop for SharpAvif {
    fn drop(&mut self) {
        let Some(running) = lock(&self.running).take() else {
            return;
        };
        // Closing stdin lets Node finish what it was asked and exit.
        drop(lock(&running.stdin).take());
        stop_node(&mut lock(&running.child));
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_process_encodes_copies_asked_for_from_several_threads() {
        let frontend = Path::new(env!("CARGO_MANIFEST_DIR")).join("frontend");
        let encoder = SharpAvif::new(&frontend);
        let files: Vec<Vec<u8>> = std::thread::scope(|scope| {
            let asks: Vec<_> = (0..4u8)
                .map(|n| {
                    let encoder = &encoder;
                    scope.spawn(move || {
                        let alpha = n % 2 == 1;
                        let channels = if alpha { 4 } else { 3 };
                        let pixels = vec![n * 40; 24 * 16 * channels];
                        encoder.encode(&pixels, (24, 16), alpha, (50, 4))
                    })
                })
                .collect();
            asks.into_iter()
                .map(|ask| {
                    ask.join()
                        .expect("a thread")
                        .unwrap_or_else(|e| panic!("{e}"))
                })
                .collect()
        });
        for file in &files {
            assert_eq!(&file[4..12], b"ftypavif");
        }
        let pid = || lock(&encoder.running).as_ref().map(|r| lock(&r.child).id());
        let first = pid();
        // Grey levels that differ make files that differ: each answer reached its own asker.
        assert_ne!(files[0], files[2]);
        assert_eq!(
            files[0],
            encoder
                .encode(&[0; 24 * 16 * 3], (24, 16), false, (50, 4))
                .unwrap()
        );
        assert!(
            first.is_some() && pid() == first,
            "one process served them all"
        );
    }

    /// A frontend folder whose packages count as installed, and whose
    /// encoder script is `script`.
    fn frontend_with(script: &str) -> tempfile::TempDir {
        use sha2::Digest;
        let frontend = tempfile::tempdir().unwrap();
        let dir = frontend.path();
        let lock_file = b"{}";
        std::fs::write(dir.join("package-lock.json"), lock_file).unwrap();
        std::fs::create_dir_all(dir.join("node_modules")).unwrap();
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        let stamp = crate::text::hex(&sha2::Sha256::digest(lock_file));
        std::fs::write(dir.join("node_modules/.curbside-installed"), stamp).unwrap();
        std::fs::write(dir.join(SCRIPT), script).unwrap();
        frontend
    }

    #[test]
    fn a_copy_the_script_refuses_is_an_error_with_its_reason() {
        let frontend = frontend_with(
            "process.stdin.once('data', (d) => { const { id } = JSON.parse(d.toString().split('\\n')[0]);\n\
             process.stdout.write(JSON.stringify({ id, ok: false, error: 'no libaom here' }) + '\\n'); });",
        );
        let err = SharpAvif::new(frontend.path())
            .encode(&[0; 12], (2, 2), false, (50, 4))
            .unwrap_err()
            .to_string();
        assert!(err.contains("sharp could not encode an AVIF copy"), "{err}");
        assert!(err.contains("no libaom here"), "{err}");
        assert!(err.contains("node_modules"), "{err}");
    }

    #[test]
    fn an_encoder_that_dies_is_an_error_with_what_it_said() {
        let frontend = frontend_with("process.stderr.write('libaom crashed'); process.exit(3);");
        let err = SharpAvif::new(frontend.path())
            .encode(&[0; 12], (2, 2), false, (50, 4))
            .unwrap_err()
            .to_string();
        assert!(err.contains("Node's AVIF encoder stopped"), "{err}");
        assert!(err.contains("node_modules"), "{err}");
    }
}
