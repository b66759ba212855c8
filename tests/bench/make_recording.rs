//! Writes `NAME.gif` in `DIR`: a screen recording of `WIDTH` × `HEIGHT`
//! (1920 × 1080 by default) and `FRAMES` frames (300), the animation the GIF
//! budget is sized for, to time a build that publishes it, or one over the
//! budget, to time its refusal (tests/bench/README.md).
//!
//!     cargo run --release --example make_recording -- DIR [FRAMES [WIDTH HEIGHT [NAME [flat]]]]
//!
//! `flat`: every pixel one colour, the most pixels for the fewest bytes.

#[path = "../it/support/recording.rs"]
mod recording;

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: make_recording DIR [FRAMES]");
        return std::process::ExitCode::FAILURE;
    };
    let frames: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(300);
    let width: u16 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1920);
    let height: u16 = args.next().and_then(|n| n.parse().ok()).unwrap_or(1080);
    let name = args.next().unwrap_or_else(|| "recording".to_string());
    let make = if args.next().as_deref() == Some("flat") {
        recording::flat_animation
    } else {
        recording::screen_recording
    };
    let path = std::path::Path::new(&dir).join(format!("{name}.gif"));
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, make(width, height, frames)));
    if let Err(err) = written {
        eprintln!("could not write {}: {err}", path.display());
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}
