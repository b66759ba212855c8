//! Writes `recording.gif` in `DIR`: a screen recording of 1920 × 1080 and
//! `FRAMES` frames (300 by default), the animation the GIF budget is sized
//! for, to time a build that publishes it (tests/bench/README.md).
//!
//!     cargo run --release --example make_recording -- DIR [FRAMES]

#[path = "../it/support/recording.rs"]
mod recording;

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: make_recording DIR [FRAMES]");
        return std::process::ExitCode::FAILURE;
    };
    let frames: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(300);
    let path = std::path::Path::new(&dir).join("recording.gif");
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, recording::screen_recording(1920, 1080, frames)));
    if let Err(err) = written {
        eprintln!("could not write {}: {err}", path.display());
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}
