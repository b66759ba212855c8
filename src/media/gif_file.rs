//! A GIF written anew: frames, timing and loop; comments, XMP (where editors
//! put GPS and names), profiles and other blocks stay behind. Frames are copied
//! index for index.

/// More than any animation a page shows.
const MAX_FRAMES: usize = 2_000;

/// An error for a cut or damaged file. Each frame is written once decoded, so
/// one is held at a time.
pub fn clean(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    options.check_lzw_end_code(false);
    let mut decoder = options.read_info(bytes).map_err(|err| err.to_string())?;
    let (width, height) = (decoder.width(), decoder.height());
    let global = decoder.global_palette().map(<[u8]>::to_vec);
    let mut out = Vec::with_capacity(bytes.len());
    let mut encoder = gif::Encoder::new(&mut out, width, height, global.as_deref().unwrap_or(&[]))
        .map_err(|err| err.to_string())?;
    // The second frame shows whether this is an animation, whose loop goes
    // before the frames.
    let mut first: Option<gif::Frame<'static>> = None;
    let mut frames = 0;
    loop {
        let second = match decoder.read_next_frame().map_err(|err| err.to_string())? {
            None => break,
            Some(_) if frames == MAX_FRAMES => {
                return Err(format!("it has more than {MAX_FRAMES} frames"));
            }
            Some(frame) if frames == 0 => {
                first = Some(frame.clone());
                frames += 1;
                continue;
            }
            Some(frame) if frames > 1 => {
                encoder.write_frame(frame).map_err(|err| err.to_string())?;
                frames += 1;
                continue;
            }
            Some(frame) => frame.clone(),
        };
        encoder
            .set_repeat(decoder.repeat())
            .map_err(|err| err.to_string())?;
        for frame in first.take().iter().chain([&second]) {
            encoder.write_frame(frame).map_err(|err| err.to_string())?;
        }
        frames += 1;
    }
    if let Some(only) = first {
        encoder.write_frame(&only).map_err(|err| err.to_string())?;
    }
    drop(encoder);
    if frames == 0 {
        return Err("it has no picture in it".to_string());
    }
    Ok(out)
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
        assert!(clean(&original[..original.len() - 12]).is_err());
    }
}
