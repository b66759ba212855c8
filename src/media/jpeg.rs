//! JPEG through zune-jpeg directly: a cut or damaged file is an error, not grey
//! blocks (strict mode), and CMYK stays CMYK for its profile.

use super::refused::Refused;
use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;
use zune_jpeg::JpegDecoder;

use super::colour::{Channels, Decoded};
use super::header::{self, Header};
use super::orientation::Orientation;

/// The most JPEG itself can say of a side (two bytes): the decoder's own
/// check. What the build accepts is held by `limits::MAX_PIXELS`, and what
/// it publishes by `variants::MAX_SIDE`.
const JPEG_FORMAT_SIDE: usize = 65_535;

fn options() -> DecoderOptions {
    DecoderOptions::default()
        .set_strict_mode(true)
        .set_max_width(JPEG_FORMAT_SIDE)
        .set_max_height(JPEG_FORMAT_SIDE)
}

pub fn header(bytes: &[u8]) -> Result<Header, Refused> {
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(bytes), options());
    decoder.decode_headers().map_err(Refused::damaged)?;
    let (width, height) = decoder
        .dimensions()
        .ok_or_else(|| Refused::damaged("the JPEG's headers give no size"))?;
    Ok(Header {
        width: u32::try_from(width).map_err(Refused::damaged)?,
        height: u32::try_from(height).map_err(Refused::damaged)?,
        alpha: false,
        animated: false,
        frames: 1,
        orientation: Orientation::from_exif(decoder.exif().cloned()),
    })
}

pub fn decode(bytes: &[u8]) -> Result<Decoded, Refused> {
    let options = options();
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    decoder.decode_headers().map_err(Refused::damaged)?;
    if let Some((width, height)) = decoder.dimensions() {
        header::within_limit(width as u32, height as u32)?;
    }
    let input = decoder
        .input_colorspace()
        .ok_or_else(|| Refused::damaged("the JPEG's headers name no colour space"))?;
    let (out, channels) = match input {
        ColorSpace::Luma => (ColorSpace::Luma, Channels::Grey),
        // YCCK is turned into CMYK below.
        ColorSpace::CMYK | ColorSpace::YCCK => (input, Channels::Cmyk),
        _ => (ColorSpace::RGB, Channels::Rgb),
    };
    decoder.set_options(options.jpeg_set_out_colorspace(out));
    let mut data = decoder.decode().map_err(Refused::damaged)?;
    let (width, height) = decoder
        .dimensions()
        .ok_or_else(|| Refused::damaged("the JPEG's headers give no size"))?;
    if input == ColorSpace::YCCK {
        ycck_to_stored_cmyk(&mut data);
    }
    if channels == Channels::Cmyk && adobe_inverted(bytes) {
        // Photoshop, and most programs after it, store CMYK inverted.
        data.iter_mut().for_each(|v| *v = 255 - *v);
    }
    let orientation = Orientation::from_exif(decoder.exif().cloned());
    Ok(Decoded {
        data,
        channels,
        width: u32::try_from(width).map_err(Refused::damaged)?,
        height: u32::try_from(height).map_err(Refused::damaged)?,
        profile: decoder.icc_profile(),
        orientation,
    })
}

/// YCCK codes 255 minus stored C, M, Y as YCbCr codes RGB (as libjpeg writes
/// it), K as stored: gives CMYK as stored.
fn ycck_to_stored_cmyk(data: &mut [u8]) {
    for pixel in data.chunks_exact_mut(4) {
        let y = f32::from(pixel[0]);
        let cb = f32::from(pixel[1]) - 128.0;
        let cr = f32::from(pixel[2]) - 128.0;
        let stored = |v: f32| 255 - v.round().clamp(0.0, 255.0) as u8;
        pixel[0] = stored(y + 1.402 * cr);
        pixel[1] = stored(y - 0.344_136 * cb - 0.714_136 * cr);
        pixel[2] = stored(y + 1.772 * cb);
    }
}

/// Adobe's APP14 segment: its writers store 255 for no ink. Only segments
/// before the image data are read.
fn adobe_inverted(bytes: &[u8]) -> bool {
    let mut at = 2;
    while at + 4 <= bytes.len() && bytes[at] == 0xFF {
        let marker = bytes[at + 1];
        if marker == 0xDA {
            break;
        }
        let length = usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]));
        if marker == 0xEE && bytes.get(at + 4..at + 9) == Some(b"Adobe") {
            return true;
        }
        at += 2 + length;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jpeg(pixels: &[u8], color: jpeg_encoder::ColorType, w: u16, h: u16) -> Vec<u8> {
        let mut out = Vec::new();
        jpeg_encoder::Encoder::new(&mut out, 100)
            .encode(pixels, w, h, color)
            .unwrap();
        out
    }

    #[test]
    fn cmyk_and_ycck_come_out_as_the_ink_that_was_stored() {
        let ink = [200u8, 30, 90, 10].repeat(64);
        for color in [
            jpeg_encoder::ColorType::Cmyk,
            jpeg_encoder::ColorType::CmykAsYcck,
        ] {
            let decoded = decode(&jpeg(&ink, color, 8, 8)).unwrap();
            assert_eq!(decoded.channels, Channels::Cmyk);
            for (got, want) in decoded.data.iter().zip(&ink) {
                assert!(got.abs_diff(*want) <= 3, "{color:?}: {got} against {want}");
            }
        }
    }

    #[test]
    fn a_file_cut_short_is_an_error() {
        let photo = jpeg(&[120u8; 64 * 64 * 3], jpeg_encoder::ColorType::Rgb, 64, 64);
        assert!(decode(&photo).is_ok());
        assert!(decode(&photo[..photo.len() / 2]).is_err());
    }
}
