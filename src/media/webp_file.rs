//! WebP through `image-webp`, lossy and lossless alike.

use std::io::Cursor;

use image_webp::WebPDecoder;

use super::colour::{Channels, Decoded};
use super::header::Header;
use super::orientation::Orientation;

fn decoder(bytes: &[u8]) -> Result<WebPDecoder<Cursor<&[u8]>>, String> {
    WebPDecoder::new(Cursor::new(bytes)).map_err(|err| err.to_string())
}

fn orientation(decoder: &mut WebPDecoder<Cursor<&[u8]>>) -> Result<Orientation, String> {
    let exif = decoder.exif_metadata().map_err(|err| err.to_string())?;
    Ok(Orientation::from_exif(exif))
}

pub fn header(bytes: &[u8]) -> Result<Header, String> {
    let mut decoder = decoder(bytes)?;
    let (width, height) = decoder.dimensions();
    Ok(Header {
        width,
        height,
        alpha: decoder.has_alpha(),
        animated: decoder.is_animated(),
        orientation: orientation(&mut decoder)?,
    })
}

pub fn decode(bytes: &[u8]) -> Result<Decoded, String> {
    let mut decoder = decoder(bytes)?;
    let (width, height) = decoder.dimensions();
    let size = decoder
        .output_buffer_size()
        .ok_or("the WebP is too large to decode")?;
    let mut data = vec![0; size];
    decoder
        .read_image(&mut data)
        .map_err(|err| err.to_string())?;
    Ok(Decoded {
        data,
        channels: if decoder.has_alpha() {
            Channels::Rgba
        } else {
            Channels::Rgb
        },
        width,
        height,
        profile: decoder.icc_profile().map_err(|err| err.to_string())?,
        orientation: orientation(&mut decoder)?,
    })
}
