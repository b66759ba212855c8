//! WebP through `image-webp`, lossy and lossless alike.

use super::refused::Refused;
use std::io::Cursor;

use image_webp::WebPDecoder;

use super::colour::{Channels, Decoded};
use super::header::{self, Header};
use super::orientation::Orientation;

fn decoder(bytes: &[u8]) -> Result<WebPDecoder<Cursor<&[u8]>>, Refused> {
    let mut decoder = WebPDecoder::new(Cursor::new(bytes)).map_err(Refused::damaged)?;
    // A metadata chunk (profile, EXIF) is allocated at the size it claims,
    // which a file of a few bytes can set to gigabytes.
    decoder.set_memory_limit(16 << 20);
    Ok(decoder)
}

fn orientation(decoder: &mut WebPDecoder<Cursor<&[u8]>>) -> Result<Orientation, Refused> {
    let exif = decoder.exif_metadata().map_err(Refused::damaged)?;
    Ok(Orientation::from_exif(exif))
}

pub fn header(bytes: &[u8]) -> Result<Header, Refused> {
    let mut decoder = decoder(bytes)?;
    let (width, height) = decoder.dimensions();
    Ok(Header {
        width,
        height,
        alpha: decoder.has_alpha(),
        animated: decoder.is_animated(),
        frames: u64::from(decoder.num_frames().max(1)),
        orientation: orientation(&mut decoder)?,
    })
}

pub fn decode(bytes: &[u8]) -> Result<Decoded, Refused> {
    let mut decoder = decoder(bytes)?;
    let (width, height) = decoder.dimensions();
    header::within_limit(width, height)?;
    let size = decoder
        .output_buffer_size()
        .ok_or_else(|| Refused::damaged("the WebP is too large to decode"))?;
    let mut data = vec![0; size];
    decoder.read_image(&mut data).map_err(Refused::damaged)?;
    Ok(Decoded {
        data,
        channels: if decoder.has_alpha() {
            Channels::Rgba
        } else {
            Channels::Rgb
        },
        width,
        height,
        profile: decoder.icc_profile().map_err(Refused::damaged)?,
        orientation: orientation(&mut decoder)?,
    })
}
