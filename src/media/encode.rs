//! A photo's copies: decoded once ([`jpeg`], [`png_file`], [`webp_file`]),
//! converted to sRGB ([`colour`]), turned upright (its EXIF orientation),
//! then resized and encoded at every width on every core. Only pixels are
//! encoded: no metadata (EXIF and its GPS, XMP, IPTC, comments, profile)
//! reaches a copy.

use super::refused::Refused;
use rayon::prelude::*;

use super::avif::AvifEncoder;
use super::colour;
use super::picture::{self, Picture};
use super::variants::{ENCODING, Encoding, Format, Variant};
use super::{jpeg, png_file, webp_file};

/// Upright, sRGB, 8 bits a channel.
pub struct Pixels {
    pub data: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub alpha: bool,
}

/// Decodes a photo into upright sRGB pixels; a cut or damaged file is an error,
/// never a half-grey picture, even when a decoder panics.
pub fn decode(picture: &Picture, bytes: &[u8]) -> Result<Pixels, Refused> {
    std::panic::catch_unwind(|| decode_unguarded(picture, bytes)).unwrap_or_else(|_| {
        Err(Refused::damaged(
            "the decoder stopped at a damaged part of the file",
        ))
    })
}

fn decode_unguarded(picture: &Picture, bytes: &[u8]) -> Result<Pixels, Refused> {
    let decoded = match picture.kind {
        picture::Kind::Jpeg => jpeg::decode(bytes)?,
        picture::Kind::Png => png_file::decode(bytes)?,
        picture::Kind::Webp => webp_file::decode(bytes)?,
        picture::Kind::Gif | picture::Kind::Svg => {
            return Err(Refused::fault(
                "a GIF or an SVG is published cleaned, never decoded",
            ));
        }
    };
    let orientation = decoded.orientation;
    let (width, height) = (decoded.width, decoded.height);
    let alpha_in = decoded.channels.has_alpha();
    let mut data = colour::to_srgb(decoded)?;
    let pixels = u64::from(width) * u64::from(height);
    let channels = if alpha_in { 4 } else { 3 };
    if data.len() as u64 != pixels * channels {
        return Err(Refused::damaged(
            "the decoder gave fewer pixels than the picture's size",
        ));
    }
    // The copies were planned by the header's answer, so it decides.
    if alpha_in && !picture.alpha {
        data = colour::without_alpha(&data);
    } else if !alpha_in && picture.alpha {
        data = data
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect();
    }
    let channels = if picture.alpha { 4 } else { 3 };
    let (data, width, height) = orientation.apply(data, width, height, channels);
    Ok(Pixels {
        data,
        width,
        height,
        alpha: picture.alpha,
    })
}

/// Every copy in `variants`, in order, on every core; AVIF copies need `avif`.
pub fn encode(
    pixels: &Pixels,
    variants: &[Variant],
    avif: Option<&dyn AvifEncoder>,
) -> Result<Vec<Vec<u8>>, Refused> {
    encode_with(pixels, variants, &ENCODING, avif)
}

/// For measuring other settings.
pub fn encode_with(
    pixels: &Pixels,
    variants: &[Variant],
    encoding: &Encoding,
    avif: Option<&dyn AvifEncoder>,
) -> Result<Vec<Vec<u8>>, Refused> {
    variants
        .par_iter()
        .map(|variant| {
            let resized = resize(pixels, variant)?;
            let data = resized.as_deref().unwrap_or(&pixels.data);
            encode_one(data, variant, pixels.alpha, encoding, avif)
        })
        .collect()
}

/// The pixels of the part `variant` shows at its size; `None` when that is
/// all of them at their size already.
fn resize(pixels: &Pixels, variant: &Variant) -> Result<Option<Vec<u8>>, Refused> {
    use fast_image_resize::images::{Image, ImageRef};
    use fast_image_resize::pixels::{U8x3, U8x4};
    use fast_image_resize::{PixelType, ResizeAlg, ResizeOptions};
    let (width, height) = (variant.width, variant.height);
    let crop = variant
        .crop
        .filter(|crop| !crop.is_whole(pixels.width, pixels.height));
    if crop.is_none() && (width, height) == (pixels.width, pixels.height) {
        return Ok(None);
    }
    let kind = if pixels.alpha {
        PixelType::U8x4
    } else {
        PixelType::U8x3
    };
    let source =
        ImageRef::new(pixels.width, pixels.height, &pixels.data, kind).map_err(Refused::fault)?;
    let mut target = Image::new(width, height, kind);
    let mut options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(
        fast_image_resize::FilterType::Lanczos3,
    ));
    if let Some(crop) = crop {
        options = options.crop(
            f64::from(crop.x),
            f64::from(crop.y),
            f64::from(crop.width),
            f64::from(crop.height),
        );
    }
    // Typed: `Resizer::resize` would compile its kernels for all thirteen
    // pixel types into this crate, where the generic code lands.
    if pixels.alpha {
        resize_as::<U8x4>(&source, &mut target, &options)?;
    } else {
        resize_as::<U8x3>(&source, &mut target, &options)?;
    }
    Ok(Some(target.into_vec()))
}

fn resize_as<P: fast_image_resize::PixelTrait>(
    source: &fast_image_resize::images::ImageRef,
    target: &mut fast_image_resize::images::Image,
    options: &fast_image_resize::ResizeOptions,
) -> Result<(), Refused> {
    use fast_image_resize::{IntoImageView, IntoImageViewMut};
    let (Some(source), Some(mut target)) = (source.image_view::<P>(), target.image_view_mut::<P>())
    else {
        return Err(Refused::fault("the resizer was given another pixel type"));
    };
    fast_image_resize::Resizer::new()
        .resize_typed(&source, &mut target, options)
        .map_err(Refused::fault)
}

fn encode_one(
    data: &[u8],
    variant: &Variant,
    alpha: bool,
    encoding: &Encoding,
    avif: Option<&dyn AvifEncoder>,
) -> Result<Vec<u8>, Refused> {
    let (width, height) = (variant.width, variant.height);
    match variant.format {
        Format::Avif => {
            let avif = avif.ok_or_else(|| {
                Refused::fault("AVIF copies were asked for with no AVIF encoder at hand")
            })?;
            let settings = (encoding.avif_quality, encoding.avif_effort);
            avif.encode(data, (width, height), alpha, settings)
                .map_err(Refused::Fault)
        }
        Format::Webp => {
            let layout = if alpha {
                webp::PixelLayout::Rgba
            } else {
                webp::PixelLayout::Rgb
            };
            let mut config = webp::WebPConfig::new()
                .map_err(|()| Refused::fault("libwebp refused its settings"))?;
            config.quality = encoding.webp_quality;
            config.method = encoding.webp_method;
            let tuning = &encoding.webp;
            config.use_sharp_yuv = i32::from(tuning.sharp_yuv);
            config.sns_strength = tuning.sns_strength;
            config.filter_strength = tuning.filter_strength;
            config.filter_sharpness = tuning.filter_sharpness;
            config.autofilter = i32::from(tuning.autofilter);
            config.segments = tuning.segments;
            config.preprocessing = tuning.preprocessing;
            let encoded = webp::Encoder::new(data, layout, width, height)
                .encode_advanced(&config)
                .map_err(|err| Refused::fault(format!("WebP encoding failed: {err:?}")))?;
            Ok(encoded.to_vec())
        }
        Format::Jpeg => {
            let mut out = Vec::new();
            let mut encoder = jpeg_encoder::Encoder::new(&mut out, encoding.jpeg_quality);
            encoder.set_progressive(true);
            encoder.set_optimized_huffman_tables(true);
            let side = |n: u32| u16::try_from(n).map_err(|_| Refused::fault("too wide for JPEG"));
            encoder
                .encode(
                    data,
                    side(width)?,
                    side(height)?,
                    jpeg_encoder::ColorType::Rgb,
                )
                .map_err(Refused::fault)?;
            Ok(out)
        }
        Format::Png => Ok(png_file::encode(data, width, height, alpha)?),
        Format::Gif | Format::Svg => Err(Refused::fault(
            "a GIF or an SVG is published cleaned, never encoded",
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::media::variants::WebpTuning;

    #[test]
    fn libwebp_tuning_is_libwebps_own_default() {
        let config = webp::WebPConfig::new().unwrap();
        let libwebp = WebpTuning {
            sharp_yuv: config.use_sharp_yuv != 0,
            sns_strength: config.sns_strength,
            filter_strength: config.filter_strength,
            filter_sharpness: config.filter_sharpness,
            autofilter: config.autofilter != 0,
            segments: config.segments,
            preprocessing: config.preprocessing,
        };
        assert_eq!(libwebp, WebpTuning::LIBWEBP);
    }
}
