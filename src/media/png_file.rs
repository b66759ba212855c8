//! PNG through the `png` crate: read with palettes and transparency expanded
//! to plain channels, 16-bit samples rounded to 8, grey kept grey for a grey
//! profile; written as 8-bit RGB or RGBA.

use super::refused::Refused;
use std::io::Cursor;

use super::colour::{Channels, Decoded};
use super::header::{self, Header};
use super::limits::MAX_PIXELS;
use super::orientation::Orientation;

/// What the decoder may allocate for itself (its chunks and row buffers):
/// what the largest photo the build takes (40 megapixels, alpha, 16 bits)
/// could need, and 64 MiB to spare.
const MEMORY: usize = MAX_PIXELS as usize * 8 + (64 << 20);

fn reader(bytes: &[u8]) -> Result<png::Reader<Cursor<&[u8]>>, Refused> {
    let limits = png::Limits { bytes: MEMORY };
    let mut decoder = png::Decoder::new_with_limits(Cursor::new(bytes), limits);
    decoder.set_transformations(png::Transformations::EXPAND);
    decoder.read_info().map_err(Refused::damaged)
}

fn orientation(info: &png::Info) -> Orientation {
    Orientation::from_exif(info.exif_metadata.as_ref().map(|exif| exif.to_vec()))
}

pub fn header(bytes: &[u8]) -> Result<Header, Refused> {
    let reader = reader(bytes)?;
    let info = reader.info();
    Ok(Header {
        width: info.width,
        height: info.height,
        alpha: matches!(
            reader.output_color_type().0,
            png::ColorType::GrayscaleAlpha | png::ColorType::Rgba
        ),
        animated: info.animation_control.is_some(),
        frames: info
            .animation_control
            .map_or(1, |control| u64::from(control.num_frames.max(1))),
        orientation: orientation(info),
    })
}

pub fn decode(bytes: &[u8]) -> Result<Decoded, Refused> {
    let mut reader = reader(bytes)?;
    header::within_limit(reader.info().width, reader.info().height)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| Refused::damaged("the PNG is too large to decode"))?;
    let mut data = vec![0; size];
    let frame = reader.next_frame(&mut data).map_err(Refused::damaged)?;
    data.truncate(frame.buffer_size());
    if frame.bit_depth == png::BitDepth::Sixteen {
        // Big-endian samples, rounded to the nearest of 256 levels.
        data = data
            .chunks_exact(2)
            .map(|sample| {
                ((u32::from(u16::from_be_bytes([sample[0], sample[1]])) * 255 + 32_767) / 65_535)
                    as u8
            })
            .collect();
    }
    let channels = match frame.color_type {
        png::ColorType::Grayscale => Channels::Grey,
        png::ColorType::GrayscaleAlpha => Channels::GreyAlpha,
        png::ColorType::Rgb => Channels::Rgb,
        png::ColorType::Rgba => Channels::Rgba,
        png::ColorType::Indexed => {
            return Err(Refused::damaged("the PNG's palette was not expanded"));
        }
    };
    let info = reader.info();
    Ok(Decoded {
        data,
        channels,
        width: frame.width,
        height: frame.height,
        profile: info.icc_profile.as_ref().map(|profile| profile.to_vec()),
        orientation: orientation(info),
    })
}

/// `data`, 8-bit RGBA when `alpha`, RGB otherwise, as a PNG.
pub fn encode(data: &[u8], width: u32, height: u32, alpha: bool) -> Result<Vec<u8>, Refused> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(if alpha {
        png::ColorType::Rgba
    } else {
        png::ColorType::Rgb
    });
    let mut writer = encoder.write_header().map_err(Refused::fault)?;
    writer.write_image_data(data).map_err(Refused::fault)?;
    writer.finish().map_err(Refused::fault)?;
    Ok(out)
}
