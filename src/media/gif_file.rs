//! A GIF written anew: frames, timing and loop; comments, XMP (where editors
//! put GPS and names), profiles and other blocks stay behind. Each frame's
//! compressed data is copied as it is, never expanded to pixels and encoded
//! again; the frames are counted against the animation budget from their
//! headers first, then decoded once to prove they are whole.

use super::header::FrameTally;
use super::refused::Refused;

pub fn clean(bytes: &[u8]) -> Result<Vec<u8>, Refused> {
    // The frames as stored, counted before any is decoded.
    let mut options = gif::DecodeOptions::new();
    options.skip_frame_decoding(true);
    let mut decoder = options.read_info(bytes).map_err(Refused::damaged)?;
    let (width, height) = (decoder.width(), decoder.height());
    let global = decoder.global_palette().map(<[u8]>::to_vec);
    let repeat = decoder.repeat();
    let mut tally = FrameTally::default();
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().map_err(Refused::damaged)? {
        tally
            .add(u32::from(frame.width), u32::from(frame.height))
            .map_err(Refused::OverBudget)?;
        frames.push(frame.clone());
    }
    if frames.is_empty() {
        return Err(Refused::Damaged("it has no picture in it".to_string()));
    }
    check_whole(bytes)?;
    let mut out = Vec::with_capacity(bytes.len());
    let mut encoder = gif::Encoder::new(&mut out, width, height, global.as_deref().unwrap_or(&[]))
        .map_err(Refused::damaged)?;
    // An animation's loop goes before its frames; a still picture has none.
    if frames.len() > 1 {
        encoder.set_repeat(repeat).map_err(Refused::damaged)?;
    }
    for frame in &frames {
        encoder
            .write_lzw_pre_encoded_frame(frame)
            .map_err(Refused::damaged)?;
    }
    drop(encoder);
    Ok(out)
}

/// Every frame decodes, one at a time, to its palette's indexes: what is
/// published is a picture a browser can show.
fn check_whole(bytes: &[u8]) -> Result<(), Refused> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    options.check_lzw_end_code(false);
    let mut decoder = options.read_info(bytes).map_err(Refused::damaged)?;
    while decoder
        .read_next_frame()
        .map_err(Refused::damaged)?
        .is_some()
    {}
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn animation() -> Vec<u8> {
        let mut out = Vec::new();
        {
            let palette = [0, 0, 0, 255, 0, 0, 0, 255, 0];
            let mut encoder = gif::Encoder::new(&mut out, 4, 4, &palette).unwrap();
            encoder.set_repeat(gif::Repeat::Infinite).unwrap();
            encoder
                .write_raw_extension(gif::Extension::Comment.into(), &[b"secret place"])
                .unwrap();
            encoder
                .write_raw_extension(
                    gif::Extension::Application.into(),
                    &[b"XMP DataXMP", b"<x:xmpmeta>GPSLatitude 44.31</x:xmpmeta>"],
                )
                .unwrap();
            for index in [1u8, 2] {
                let mut frame = gif::Frame::from_indexed_pixels(4, 4, vec![index; 16], None);
                frame.delay = 50;
                encoder.write_frame(&frame).unwrap();
            }
        }
        out
    }

    fn frames(bytes: &[u8]) -> Vec<(u16, Vec<u8>)> {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(bytes).unwrap();
        let mut out = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            out.push((frame.delay, frame.buffer.to_vec()));
        }
        out
    }

    #[test]
    fn frames_and_loop_are_kept_and_nothing_else() {
        let original = animation();
        assert!(original.windows(6).any(|w| w == b"secret"));
        let cleaned = clean(&original).unwrap();
        for gone in [&b"secret"[..], b"XMP", b"GPS"] {
            assert!(!cleaned.windows(gone.len()).any(|w| w == gone));
        }
        assert!(cleaned.windows(11).any(|w| w == b"NETSCAPE2.0"), "the loop");
        assert_eq!(frames(&cleaned), frames(&original));
    }

    #[test]
    fn a_file_cut_short_is_an_error() {
        let original = animation();
        assert!(matches!(
            clean(&original[..original.len() - 12]),
            Err(Refused::Damaged(_))
        ));
    }
}
