//! A GIF like a screen recording: full frames of a desktop whose window
//! moves a little each frame. One frame is compressed, and its compressed
//! data is written for every frame, so making 300 of them costs one.

/// `frames` frames of `width` × `height`, looping.
pub fn screen_recording(width: u16, height: u16, frames: usize) -> Vec<u8> {
    let (w, h) = (usize::from(width), usize::from(height));
    // A desktop: bands of colour, with a window of text-like stripes.
    let pixels: Vec<u8> = (0..w * h)
        .map(|at| {
            let (x, y) = (at % w, at / w);
            if (w / 4..w * 3 / 4).contains(&x) && (h / 4..h * 3 / 4).contains(&y) {
                if (y / 3) % 4 == 0 && (x / 7) % 5 != 0 {
                    0
                } else {
                    255
                }
            } else {
                (y * 64 / h) as u8 + 32
            }
        })
        .collect();
    repeated(width, height, pixels, frames)
}

/// `frames` frames of one colour: the most pixels for the fewest bytes
/// (100 frames of 5000 × 5000 are 2 MB).
pub fn flat_animation(width: u16, height: u16, frames: usize) -> Vec<u8> {
    let pixels = vec![0; usize::from(width) * usize::from(height)];
    repeated(width, height, pixels, frames)
}

fn repeated(width: u16, height: u16, pixels: Vec<u8>, frames: usize) -> Vec<u8> {
    let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
    let mut frame = gif::Frame::from_indexed_pixels(width, height, pixels, None);
    frame.delay = 4;
    frame.make_lzw_pre_encoded();
    let mut out = Vec::new();
    {
        let mut encoder =
            gif::Encoder::new(&mut out, width, height, &palette).expect("a GIF encoder");
        encoder.set_repeat(gif::Repeat::Infinite).expect("the loop");
        for _ in 0..frames {
            encoder
                .write_lzw_pre_encoded_frame(&frame)
                .expect("a frame");
        }
    }
    out
}
