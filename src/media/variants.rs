//! What a photo becomes: copies at several widths in WebP with a JPEG (or,
//! with transparency, PNG) fallback, and for the page's largest paint in AVIF
//! before them, each named after the photo's bytes and
//! the settings, so the names are known before anything is encoded (the
//! page's markup and `curbside check` need no encoder) and a copy made once
//! is never made again. And the markup that offers them to the browser.

use super::crop::Crop;
use super::picture::{Kind, Picture};

/// Widths of the copies, in pixels, never wider than the photo itself. 1200
/// covers a phone 390 px wide at three device pixels per CSS pixel; 2000
/// covers a desktop's half-width hero on a high-density screen.
pub const WIDTHS: [u32; 5] = [400, 800, 1200, 1600, 2000];

/// How the copies are encoded.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Encoding {
    /// libwebp's quality, 0–100.
    pub webp_quality: f32,
    /// libwebp's effort, 0–6: smaller files for more time.
    pub webp_method: i32,
    /// libwebp's finer settings, beyond quality and effort.
    pub webp: WebpTuning,
    /// The fallback's JPEG quality, 1–100.
    pub jpeg_quality: u8,
    /// sharp's AVIF quality, 1–100, for the copies of the largest paint.
    pub avif_quality: u8,
    /// libaom's effort through sharp, 0 (fastest) to 9 (smallest).
    pub avif_effort: u8,
}

/// libwebp's settings beyond quality and effort (`WebPConfig`), each
/// defaulting to libwebp's own default ([`WebpTuning::LIBWEBP`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebpTuning {
    /// The slower RGB→YUV conversion that keeps colour edges sharp
    /// (`use_sharp_yuv`).
    pub sharp_yuv: bool,
    /// Spatial noise shaping, 0–100: how far bits move from busy areas,
    /// where loss is hidden, to smooth ones (`sns_strength`).
    pub sns_strength: i32,
    /// The deblocking filter's strength, 0–100 (`filter_strength`).
    pub filter_strength: i32,
    /// The deblocking filter's sharpness, 0–7 (`filter_sharpness`).
    pub filter_sharpness: i32,
    /// Let libwebp choose the filter's strength (`autofilter`).
    pub autofilter: bool,
    /// Segments, 1–4 (`segments`).
    pub segments: i32,
    /// 0 none, 1 segment smoothing, 2 pseudo-random dithering
    /// (`preprocessing`).
    pub preprocessing: i32,
}

impl WebpTuning {
    /// libwebp's defaults (`WebPConfigInit`).
    pub const LIBWEBP: WebpTuning = WebpTuning {
        sharp_yuv: false,
        sns_strength: 50,
        filter_strength: 60,
        filter_sharpness: 0,
        autofilter: false,
        segments: 4,
        preprocessing: 0,
    };
}

/// What the site publishes, chosen by measurement (tests/bench/README.md,
/// "Photo encoder settings"): WebP at quality 80 with libwebp's greatest effort is about as
/// close to the resized photo (DSSIM) as sharp's default WebP, in slightly
/// fewer bytes; the deblocking filter at its sharpest (7) costs no byte and
/// brings a real photograph's copies 800 px wide and more 8–13 % closer. The
/// fallback JPEG at 80 is as close as sharp's default JPEG on a real
/// photograph. AVIF by sharp's libaom at quality 51 and effort 6: on the
/// generated photos fewer bytes than sharp's default (50, effort 4) and
/// closer, on a real photograph 4–9 % more bytes and 10 % closer; about 40 %
/// fewer bytes than WebP at the same closeness, where rav1e, the Rust
/// encoder, needs 1.25 to 2 times libaom's. A copy takes 5 to 20 times
/// WebP's time, so only the page's largest paint, the picture a slow phone
/// waits for, gets it.
pub const ENCODING: Encoding = Encoding {
    webp_quality: 80.0,
    webp_method: 6,
    webp: WebpTuning {
        filter_sharpness: 7,
        ..WebpTuning::LIBWEBP
    },
    jpeg_quality: 80,
    avif_quality: 51,
    avif_effort: 6,
};

/// Bumped whenever the processing changes what it makes from the same
/// photo, so every cached and published copy is made again under a new name.
const SETTINGS_VERSION: u32 = 3;

/// WebP's limit on each side, the smallest of the formats published: a
/// very tall picture (a phone's full-page screenshot) gets narrower copies
/// rather than none.
pub const MAX_SIDE: u32 = 16_383;

/// The encodings the site publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Avif,
    Webp,
    Jpeg,
    /// The fallback of a photo with transparency, which JPEG cannot hold.
    Png,
    /// A GIF, published cleaned at its own size.
    Gif,
    /// An SVG, published cleaned: sharp at every size.
    Svg,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Avif => "avif",
            Format::Webp => "webp",
            Format::Jpeg => "jpg",
            Format::Png => "png",
            Format::Gif => "gif",
            Format::Svg => "svg",
        }
    }

    /// The media type a `<source>` or preload names it by (the preview
    /// serves the copies by the same table).
    pub fn mime(self) -> &'static str {
        mime_guess::from_ext(self.extension())
            .first_raw()
            .unwrap_or("application/octet-stream")
    }
}

/// One published copy of a picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    pub format: Format,
    pub width: u32,
    pub height: u32,
    /// Relative to the site's root: `assets/img/NAME-WIDTH-HASH.EXT`.
    pub path: String,
    /// The part of the photo it shows; `None` for the whole.
    pub crop: Option<Crop>,
}

/// Which part of a photo a set of copies shows, and their widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Frame {
    /// `None` for the whole photo.
    pub crop: Option<Crop>,
    /// Smallest first; none wider than the part shown.
    pub widths: &'static [u32],
}

impl Frame {
    /// The whole photo, at every width up to the photo's own.
    pub const WHOLE: Frame = Frame {
        crop: None,
        widths: &WIDTHS,
    };
}

/// The folder of the site that holds every published picture.
pub const FOLDER: &str = "assets/img";

/// The copies of a photo, or of the part `frame` shows, smallest first in
/// each format, in AVIF too when it is a page's largest paint (`priority`);
/// for a GIF or SVG, the file itself under its hashed name.
pub fn plan(picture: &Picture, priority: bool, frame: &Frame) -> Vec<Variant> {
    let stem = picture.stem();
    let cleaned = match picture.kind {
        Kind::Gif => Some(Format::Gif),
        Kind::Svg => Some(Format::Svg),
        Kind::Jpeg | Kind::Png | Kind::Webp => None,
    };
    if let Some(format) = cleaned {
        let ext = format.extension();
        // Named after the bytes and how they are cleaned, as the copies are.
        let key = format!("{}|{SETTINGS_VERSION}|{ext}", picture.digest);
        let hash = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(key.as_bytes()));
        return vec![Variant {
            format,
            width: picture.width,
            height: picture.height,
            path: format!("{FOLDER}/{stem}-{}.{ext}", &hash[..10]),
            crop: None,
        }];
    }
    let (shown_width, shown_height) = frame
        .crop
        .map_or((picture.width, picture.height), |c| (c.width, c.height));
    let fits = (u64::from(MAX_SIDE) * u64::from(shown_width) / u64::from(shown_height.max(1)))
        .clamp(1, u64::from(u32::MAX)) as u32;
    let widest = frame.widths.last().copied().unwrap_or(shown_width);
    let largest = shown_width.min(widest).min(fits);
    let mut widths: Vec<u32> = frame
        .widths
        .iter()
        .copied()
        .filter(|w| *w < largest)
        .collect();
    widths.push(largest);
    let fallback = if picture.alpha {
        Format::Png
    } else {
        Format::Jpeg
    };
    let formats: &[Format] = if priority {
        &[Format::Avif, Format::Webp, fallback]
    } else {
        &[Format::Webp, fallback]
    };
    let mut variants = Vec::with_capacity(widths.len() * formats.len());
    for &format in formats {
        for &width in &widths {
            let height = height_at(shown_width, shown_height, width);
            let mut key = match format {
                Format::Avif => format!(
                    "{}|{SETTINGS_VERSION}|{width}|avif|{}|{}",
                    picture.digest, ENCODING.avif_quality, ENCODING.avif_effort
                ),
                _ => format!(
                    "{}|{SETTINGS_VERSION}|{width}|{}|{}|{}|{}{}",
                    picture.digest,
                    format.extension(),
                    ENCODING.webp_quality,
                    ENCODING.webp_method,
                    ENCODING.jpeg_quality,
                    tuning_key(&ENCODING.webp)
                ),
            };
            if let Some(c) = frame.crop {
                key.push_str(&format!("|crop {},{},{},{}", c.x, c.y, c.width, c.height));
            }
            let hash = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(key.as_bytes()));
            variants.push(Variant {
                format,
                width,
                height,
                path: format!(
                    "{FOLDER}/{stem}-{width}-{}.{}",
                    &hash[..10],
                    format.extension()
                ),
                crop: frame.crop,
            });
        }
    }
    variants
}

/// The finer WebP settings in a copy's name: nothing at libwebp's
/// defaults, so the names made before they could be set stay the same.
fn tuning_key(tuning: &WebpTuning) -> String {
    if *tuning == WebpTuning::LIBWEBP {
        return String::new();
    }
    format!("|{tuning:?}")
}

/// The height of a copy of the whole photo `width` wide, in proportion.
pub fn scaled_height(picture: &Picture, width: u32) -> u32 {
    height_at(picture.width, picture.height, width)
}

/// The height of a copy `width` wide of a `from_width` × `from_height`
/// picture, in proportion, at least one pixel.
fn height_at(from_width: u32, from_height: u32, width: u32) -> u32 {
    let height = (u64::from(from_height) * u64::from(width) + u64::from(from_width) / 2)
        / u64::from(from_width.max(1));
    (height as u32).max(1)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::media::picture::Kind;

    /// A 4:3 JPEG's record, for the plans and markup made from it.
    pub(in crate::media) fn photo(width: u32, height: u32) -> Picture {
        Picture {
            name: "photos/Bins.jpg".into(),
            kind: Kind::Jpeg,
            width,
            height,
            alpha: false,
            digest: "0123456789abcdef0123456789abcdef".into(),
            animated: false,
        }
    }

    #[test]
    fn a_very_tall_picture_gets_copies_within_webps_limit() {
        let plan = plan(&photo(1080, 18_000), false, &Frame::WHOLE);
        let widest = plan.iter().map(|v| v.width).max().unwrap();
        assert_eq!(widest, 982);
        assert!(plan.iter().all(|v| v.height <= MAX_SIDE), "{plan:?}");
        assert!(plan.iter().any(|v| v.width == 400));
    }

    #[test]
    fn every_format_is_named_by_its_image_media_type() {
        for (format, mime) in [
            (Format::Avif, "image/avif"),
            (Format::Webp, "image/webp"),
            (Format::Jpeg, "image/jpeg"),
            (Format::Png, "image/png"),
        ] {
            assert_eq!(format.mime(), mime);
        }
    }

    #[test]
    fn copies_are_never_wider_than_the_photo() {
        let widths = |p: &Picture| -> Vec<u32> {
            plan(p, false, &Frame::WHOLE)
                .iter()
                .filter(|v| v.format == Format::Webp)
                .map(|v| v.width)
                .collect()
        };
        assert_eq!(widths(&photo(4000, 3000)), [400, 800, 1200, 1600, 2000]);
        assert_eq!(widths(&photo(1000, 750)), [400, 800, 1000]);
        assert_eq!(widths(&photo(300, 200)), [300]);
        let copies = plan(&photo(1000, 750), false, &Frame::WHOLE);
        assert!(copies.iter().all(|v| v.height == v.width * 3 / 4));
        assert!(copies.iter().any(|v| v.path.ends_with(".jpg")));
        let mut clear = photo(1000, 750);
        clear.alpha = true;
        assert!(
            plan(&clear, false, &Frame::WHOLE)
                .iter()
                .any(|v| v.path.ends_with(".png"))
        );
    }

    #[test]
    fn names_follow_the_bytes() {
        let a = plan(&photo(1000, 750), false, &Frame::WHOLE);
        let mut other = photo(1000, 750);
        other.digest = "f".repeat(32);
        let b = plan(&other, false, &Frame::WHOLE);
        assert!(
            a[0].path.starts_with("assets/img/bins-400-"),
            "{}",
            a[0].path
        );
        assert_ne!(a[0].path, b[0].path);
    }

    #[test]
    fn a_cut_has_copies_of_its_own_proportion_and_names() {
        let picture = photo(3000, 4000);
        let crop = Crop {
            x: 0,
            y: 1156,
            width: 3000,
            height: 1688,
        };
        let band = plan(
            &picture,
            true,
            &Frame {
                crop: Some(crop),
                widths: &[400, 800, 1200],
            },
        );
        let whole = plan(&picture, true, &Frame::WHOLE);
        let widths: Vec<u32> = band
            .iter()
            .filter(|v| v.format == Format::Avif)
            .map(|v| v.width)
            .collect();
        assert_eq!(widths, [400, 800, 1200]);
        assert!(band.iter().all(|v| v.crop == Some(crop)));
        assert!(
            band.iter()
                .all(|v| v.height == height_at(3000, 1688, v.width)),
            "{band:?}"
        );
        assert!(band.iter().all(|v| !whole.iter().any(|w| w.path == v.path)));
    }
}
