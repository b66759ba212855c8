//! AVIF settings measured outside the build: ravif (rav1e) encodes a resize
//! that `picture_quality reference` wrote, and prints bytes and encoding ms,
//! so speeds, threads and rav1e's assembly (which the build leaves out: it
//! needs nasm) can be compared. Not compiled with the crate; to run it, make
//! a scratch crate of this file:
//!
//!     cargo new --bin /tmp/avif-probe && cp tests/bench/avif_probe.rs /tmp/avif-probe/src/main.rs
//!     cd /tmp/avif-probe && cargo add png@0.18 && cargo add ravif@0.13 --no-default-features -F threading
//!     # with rav1e's assembly (needs `nasm`, apt-get install nasm): -F threading,asm
//!     cargo build --release
//!     picture_quality reference PHOTO 1200 ref.png
//!     /usr/bin/time -f %U target/release/avif-probe ref.png copy.avif 80 9 1 8
//!
//! Arguments: REFERENCE.png OUT.avif QUALITY SPEED [THREADS, 0 = all] [8 =
//! 8-bit, else ravif's choice, 10-bit]. tests/bench/README.md ("Pictures")
//! decodes the copy with sharp's libheif (which reads 8-bit AV1, not
//! ravif's 10-bit 4:4:4) to PNG and compares it with `dssim`.

use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let file = std::fs::File::open(&a[1]).expect("the reference PNG");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!(info.color_type, png::ColorType::Rgb, "an RGB PNG");
    let (w, h) = (info.width as usize, info.height as usize);
    let px: Vec<ravif::RGB8> = buf[..w * h * 3]
        .chunks(3)
        .map(|c| ravif::RGB8::new(c[0], c[1], c[2]))
        .collect();
    let quality: f32 = a[3].parse().expect("a quality");
    let speed: u8 = a[4].parse().expect("a speed");
    let threads = a.get(5).and_then(|t| t.parse().ok()).filter(|t| *t > 0);
    let depth = if a.get(6).map(String::as_str) == Some("8") {
        ravif::BitDepth::Eight
    } else {
        ravif::BitDepth::Auto
    };
    let started = Instant::now();
    let out = ravif::Encoder::new()
        .with_quality(quality)
        .with_speed(speed)
        .with_num_threads(threads)
        .with_bit_depth(depth)
        .encode_rgb(ravif::Img::new(&px[..], w, h))
        .expect("encoded");
    let ms = started.elapsed().as_secs_f64() * 1e3;
    std::fs::write(&a[2], &out.avif_file).expect("written");
    println!("{} {ms:.0}", out.avif_file.len());
}
