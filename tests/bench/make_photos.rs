//! Writes phone-like test photos for the picture benchmark: `COUNT` JPEGs
//! of 4000 × 3000 (12 megapixels) with EXIF orientation, GPS, XMP, IPTC and
//! a comment, as `photo-01.jpg`… in `DIR`. Nothing is downloaded.
//!
//!     cargo run --release --example make_photos -- DIR [COUNT]
//!
//! `MAKE_PHOTOS_SIZE=WIDTHxHEIGHT` makes them that size instead: the test
//! command's smoke run of the picture benchmarks (tests/bench/smoke.sh) sets
//! it to a small one, so their builds encode few, small copies.

#[path = "../it/support/camera.rs"]
mod camera;

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: make_photos DIR [COUNT]");
        return std::process::ExitCode::FAILURE;
    };
    let count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(10);
    let (width, height) = match std::env::var("MAKE_PHOTOS_SIZE") {
        Err(_) => (4000, 3000),
        Ok(size) => match size
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
        {
            Some((w, h)) if w > 0 && h > 0 => (w, h),
            _ => {
                eprintln!("MAKE_PHOTOS_SIZE is {size}, not WIDTHxHEIGHT");
                return std::process::ExitCode::FAILURE;
            }
        },
    };
    if let Err(err) = std::fs::create_dir_all(&dir) {
        eprintln!("could not create {dir}: {err}");
        return std::process::ExitCode::FAILURE;
    }
    for n in 1..=count {
        let path = std::path::Path::new(&dir).join(format!("photo-{n:02}.jpg"));
        // Every photo different, as a set of real ones would be.
        let jpeg = camera::phone_jpeg_seeded(width, height, 1, n as u32);
        if let Err(err) = std::fs::write(&path, jpeg) {
            eprintln!("could not write {}: {err}", path.display());
            return std::process::ExitCode::FAILURE;
        }
    }
    std::process::ExitCode::SUCCESS
}
