//! What a photo becomes: copies at several widths in WebP with a JPEG (or,
//! with transparency, PNG) fallback, each named after the photo's bytes and
//! the settings, so the names are known before anything is encoded (the
//! page's markup and `curbside check` need no encoder) and a copy made once
//! is never made again. And the markup that offers them to the browser.

use super::picture::Picture;

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
/// photograph.
pub const ENCODING: Encoding = Encoding {
    webp_quality: 80.0,
    webp_method: 6,
    webp: WebpTuning {
        filter_sharpness: 7,
        ..WebpTuning::LIBWEBP
    },
    jpeg_quality: 80,
};

/// Bumped whenever the processing changes what it makes from the same
/// photo, so every cached and published copy is made again under a new name.
const SETTINGS_VERSION: u32 = 1;

/// The encodings the site publishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Webp,
    Jpeg,
    /// The fallback of a photo with transparency, which JPEG cannot hold.
    Png,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Webp => "webp",
            Format::Jpeg => "jpg",
            Format::Png => "png",
        }
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
}

/// The folder of the site that holds every published picture.
pub const FOLDER: &str = "assets/img";

/// The copies of a photo, smallest first in each format; for a GIF or SVG,
/// the file itself under its hashed name.
pub fn plan(picture: &Picture) -> Vec<Variant> {
    let stem = picture.stem();
    if !picture.kind.processed() {
        let ext = picture.kind.extension();
        return vec![Variant {
            format: Format::Png,
            width: picture.width,
            height: picture.height,
            path: format!("{FOLDER}/{stem}-{}.{ext}", &picture.digest[..10]),
        }];
    }
    let largest = picture.width.min(WIDTHS[WIDTHS.len() - 1]);
    let mut widths: Vec<u32> = WIDTHS.iter().copied().filter(|w| *w < largest).collect();
    widths.push(largest);
    let fallback = if picture.alpha {
        Format::Png
    } else {
        Format::Jpeg
    };
    let mut variants = Vec::with_capacity(widths.len() * 2);
    for format in [Format::Webp, fallback] {
        for &width in &widths {
            let height = scaled_height(picture, width);
            let key = format!(
                "{}|{SETTINGS_VERSION}|{width}|{}|{}|{}|{}{}",
                picture.digest,
                format.extension(),
                ENCODING.webp_quality,
                ENCODING.webp_method,
                ENCODING.jpeg_quality,
                tuning_key(&ENCODING.webp)
            );
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

/// The height of a copy `width` wide, in proportion, at least one pixel.
pub fn scaled_height(picture: &Picture, width: u32) -> u32 {
    let height = (u64::from(picture.height) * u64::from(width) + u64::from(picture.width) / 2)
        / u64::from(picture.width.max(1));
    (height as u32).max(1)
}

/// How a picture stands on its page.
#[derive(Debug, Clone, Default)]
pub struct Placement<'a> {
    /// What it shows, for people who cannot see it; empty only for a
    /// picture that is decoration.
    pub alt: &'a str,
    /// The `sizes` attribute: how wide it is drawn, in CSS terms.
    pub sizes: &'a str,
    /// The page's largest paint (a hero): fetched first, never lazily.
    pub priority: bool,
    /// Within the first screen, though not the largest paint: fetched
    /// normally, neither lazily nor first.
    pub eager: bool,
    /// A class for the `<img>`, for the layout's stylesheet.
    pub class: Option<&'a str>,
}

fn srcset(variants: &[Variant], format: Format) -> String {
    variants
        .iter()
        .filter(|v| v.format == format)
        .map(|v| format!("/{} {}w", v.path, v.width))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `<picture>` markup offering `variants` of `picture` (as [`plan`] made
/// them): the WebP copies first, the fallback in the `<img>`, which carries
/// the size (no layout shift), the alt text and how it loads.
pub fn markup(picture: &Picture, variants: &[Variant], placement: &Placement) -> String {
    let alt = attr(placement.alt);
    let class = placement
        .class
        .map(|class| format!(" class=\"{}\"", attr(class)))
        .unwrap_or_default();
    let loading = if placement.priority {
        " fetchpriority=\"high\""
    } else if placement.eager {
        ""
    } else {
        " loading=\"lazy\""
    };
    let size = format!("width=\"{}\" height=\"{}\"", picture.width, picture.height);
    if !picture.kind.processed() {
        let src = variants
            .first()
            .map(|v| v.path.as_str())
            .unwrap_or_default();
        return format!(
            "<img src=\"/{src}\" alt=\"{alt}\" {size}{class}{loading} decoding=\"async\" />"
        );
    }
    let fallback = variants
        .iter()
        .find(|v| v.format != Format::Webp)
        .map_or(Format::Jpeg, |v| v.format);
    // The fallback's `src`, for browsers without srcset: a middling copy.
    let src = variants
        .iter()
        .rfind(|v| v.format == fallback && v.width <= 1200)
        .or_else(|| variants.iter().find(|v| v.format == fallback))
        .map(|v| v.path.as_str())
        .unwrap_or_default();
    let sizes = attr(placement.sizes);
    format!(
        "<picture><source type=\"image/webp\" srcset=\"{webp}\" sizes=\"{sizes}\" />\
         <img src=\"/{src}\" srcset=\"{fallback_set}\" sizes=\"{sizes}\" alt=\"{alt}\" {size}{class}{loading} decoding=\"async\" /></picture>",
        webp = srcset(variants, Format::Webp),
        fallback_set = srcset(variants, fallback),
    )
}

/// A `<link rel="preload">` for the page's largest paint: the browser starts
/// fetching the right WebP copy before it has read the stylesheet or body.
pub fn preload(picture: &Picture, variants: &[Variant], sizes: &str) -> String {
    if !picture.kind.processed() {
        let href = variants
            .first()
            .map(|v| v.path.as_str())
            .unwrap_or_default();
        return format!(
            "<link rel=\"preload\" as=\"image\" href=\"/{href}\" fetchpriority=\"high\" />"
        );
    }
    format!(
        "<link rel=\"preload\" as=\"image\" type=\"image/webp\" imagesrcset=\"{}\" imagesizes=\"{}\" fetchpriority=\"high\" />",
        srcset(variants, Format::Webp),
        attr(sizes)
    )
}

/// Escapes text for a quoted HTML attribute.
fn attr(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::picture::Kind;

    fn photo(width: u32, height: u32) -> Picture {
        Picture {
            name: "photos/Bins.jpg".into(),
            kind: Kind::Jpeg,
            width,
            height,
            alpha: false,
            digest: "0123456789abcdef0123456789abcdef".into(),
        }
    }

    #[test]
    fn copies_are_never_wider_than_the_photo() {
        let widths = |p: &Picture| -> Vec<u32> {
            plan(p)
                .iter()
                .filter(|v| v.format == Format::Webp)
                .map(|v| v.width)
                .collect()
        };
        assert_eq!(widths(&photo(4000, 3000)), [400, 800, 1200, 1600, 2000]);
        assert_eq!(widths(&photo(1000, 750)), [400, 800, 1000]);
        assert_eq!(widths(&photo(300, 200)), [300]);
        let copies = plan(&photo(1000, 750));
        assert!(copies.iter().all(|v| v.height == v.width * 3 / 4));
        assert!(copies.iter().any(|v| v.path.ends_with(".jpg")));
        let mut clear = photo(1000, 750);
        clear.alpha = true;
        assert!(plan(&clear).iter().any(|v| v.path.ends_with(".png")));
    }

    #[test]
    fn names_follow_the_bytes() {
        let a = plan(&photo(1000, 750));
        let mut other = photo(1000, 750);
        other.digest = "f".repeat(32);
        let b = plan(&other);
        assert!(
            a[0].path.starts_with("assets/img/bins-400-"),
            "{}",
            a[0].path
        );
        assert_ne!(a[0].path, b[0].path);
    }

    #[test]
    fn markup_offers_webp_with_a_fallback_and_reserves_the_space() {
        let picture = photo(1000, 750);
        let variants = plan(&picture);
        let lazy = markup(
            &picture,
            &variants,
            &Placement {
                alt: "Two \"green\" bins",
                sizes: "100vw",
                ..Placement::default()
            },
        );
        assert!(
            lazy.starts_with("<picture><source type=\"image/webp\" srcset=\"/assets/img/bins-400-")
        );
        assert!(lazy.contains("width=\"1000\" height=\"750\""));
        assert!(lazy.contains("alt=\"Two &quot;green&quot; bins\""));
        assert!(lazy.contains("loading=\"lazy\" decoding=\"async\""));
        let hero = markup(
            &picture,
            &variants,
            &Placement {
                alt: "",
                sizes: "100vw",
                priority: true,
                ..Placement::default()
            },
        );
        assert!(hero.contains("fetchpriority=\"high\"") && !hero.contains("loading="));
        assert!(hero.contains("alt=\"\""));
    }
}
