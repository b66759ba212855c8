//! Photos keep their colours: whatever space an owner's photo is in (a
//! phone's Display P3, a camera's Adobe RGB, 16 bits a channel, a print
//! shop's CMYK, a scanner's grey), its published copies are within 3/255,
//! on average, of LittleCMS's sRGB for the same pixels and profile.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use crate::support::decoded;
use crate::support::fixture::Fixture;

/// A smooth 320 × 240 CMYK scene, as ink amounts (0 is none).
fn cmyk_scene() -> Vec<u8> {
    let mut ink = Vec::with_capacity(320 * 240 * 4);
    for y in 0..240u32 {
        for x in 0..320u32 {
            ink.extend([
                (x * 200 / 320) as u8,
                (y * 180 / 240) as u8,
                (60 + (x + y) * 100 / 560) as u8,
                ((x * 40 / 320) + (y * 20 / 240)) as u8,
            ]);
        }
    }
    ink
}

/// A smooth 320 × 240 grey scene.
fn grey_scene() -> Vec<u8> {
    (0..240u32)
        .flat_map(|y| (0..320u32).map(move |x| (20 + (x * 150 / 320) + (y * 60 / 240)) as u8))
        .collect()
}

fn jpeg(pixels: &[u8], colour: jpeg_encoder::ColorType, profile: Option<&[u8]>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut out, 98);
    if let Some(profile) = profile {
        encoder.add_icc_profile(profile).expect("add the profile");
    }
    encoder.encode(pixels, 320, 240, colour).expect("encode");
    out
}

/// A print shop's CMYK profile: Ghostscript's, from Debian's libgs-common.
fn cmyk_profile() -> Vec<u8> {
    let path = Path::new("/usr/share/color/icc/ghostscript/default_cmyk.icc");
    std::fs::read(path).unwrap_or_else(|err| {
        panic!(
            "{}: {err}: install Debian's libgs-common (bash tests/run.sh does as root)",
            path.display()
        )
    })
}

/// A grey profile with a linear tone curve: far from sRGB's, so a profile
/// ignored or misread shows.
fn linear_grey_profile() -> Vec<u8> {
    let curve = lcms2::ToneCurve::new(1.0);
    lcms2::Profile::new_gray(
        &lcms2::CIExyY {
            x: 0.3127,
            y: 0.3290,
            Y: 1.0,
        },
        &curve,
    )
    .expect("a grey profile")
    .icc()
    .expect("its bytes")
}

/// LittleCMS's sRGB for `pixels` in `profile`, as 8-bit RGB. `pixels` are
/// bytes in `format`, 16-bit samples in this machine's byte order.
///
/// The build asks qcms for the perceptual intent, and so does this: it picks
/// a CMYK profile's tables. The matrix-and-curves profiles of phones and
/// cameras have one way for every intent: their matrix and curves, clipped
/// to sRGB.
fn littlecms(pixels: &[u8], profile: &[u8], format: lcms2::PixelFormat) -> Vec<u8> {
    let input = lcms2::Profile::new_icc(profile).expect("LittleCMS reads the profile");
    let output = lcms2::Profile::new_srgb();
    let transform: lcms2::Transform<u8, u8> = lcms2::Transform::new(
        &input,
        format,
        &output,
        lcms2::PixelFormat::RGB_8,
        lcms2::Intent::Perceptual,
    )
    .expect("a transform");
    let mut out = vec![0u8; pixels.len() / format.bytes_per_pixel() * 3];
    transform.transform_pixels(pixels, &mut out);
    out
}

/// The mean difference, per channel, between two RGB pictures.
fn mean_difference(a: &[u8], b: &[u8]) -> f64 {
    assert_eq!(a.len(), b.len());
    let total: u64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    total as f64 / a.len() as f64
}

/// The published copy of `stem` is within 3/255, on average, of `reference`.
fn assert_published_near(site: &Fixture, stem: &str, reference: &[u8]) {
    let difference = mean_difference(&published_rgb(site, stem), reference);
    assert!(
        difference <= 3.0,
        "{stem}: {difference:.2} from the reference"
    );
}

/// The published JPEG copy of `stem`, decoded to RGB.
fn published_rgb(site: &Fixture, stem: &str) -> Vec<u8> {
    published_copy(site, stem, "jpg").rgb()
}

/// The one published copy of `stem` whose name ends in `.{ext}`, decoded:
/// a 320 × 240 source gives one copy of each format, at its own size.
fn published_copy(site: &Fixture, stem: &str, ext: &str) -> decoded::Rgba {
    let copies: Vec<PathBuf> = site
        .published(stem)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|e| e == ext))
        .collect();
    assert_eq!(copies.len(), 1, "{stem}: {copies:?}");
    let copy = decoded::open(&copies[0]).expect("decode the published copy");
    assert_eq!((copy.width, copy.height), (320, 240));
    copy
}

#[test]
fn cmyk_and_grey_photos_keep_their_colours() {
    let cmyk = cmyk_profile();
    let grey = linear_grey_profile();
    let ink = cmyk_scene();
    let shades = grey_scene();
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/photos/print-cmyk.jpg",
        jpeg(&ink, jpeg_encoder::ColorType::Cmyk, Some(&cmyk)),
    );
    site.write(
        "content/photos/print-ycck.jpg",
        jpeg(&ink, jpeg_encoder::ColorType::CmykAsYcck, Some(&cmyk)),
    );
    site.write(
        "content/photos/plain-cmyk.jpg",
        jpeg(&ink, jpeg_encoder::ColorType::Cmyk, None),
    );
    site.write(
        "content/photos/scan-grey.jpg",
        jpeg(&shades, jpeg_encoder::ColorType::Luma, Some(&grey)),
    );
    let png = decoded::encode_png(&shades, 320, 240, png::ColorType::Grayscale, Some(&grey));
    site.write("content/photos/scan-png-grey.png", png);
    site.append_to_policy(
        "![CMYK](../photos/print-cmyk.jpg)\n\n![YCCK](../photos/print-ycck.jpg)\n\n\
         ![CMYK without a profile](../photos/plain-cmyk.jpg)\n\n\
         ![Grey](../photos/scan-grey.jpg)\n\n![Grey PNG](../photos/scan-png-grey.png)",
    );
    site.build_ok();

    let reference = littlecms(&ink, &cmyk, lcms2::PixelFormat::CMYK_8);
    for stem in ["print-cmyk", "print-ycck"] {
        assert_published_near(&site, stem, &reference);
    }
    // Without a profile, the plain formula browsers use: R = (255 - C)(255 - K)/255.
    let plain: Vec<u8> = ink
        .chunks_exact(4)
        .flat_map(|p| {
            let k = 255 - u32::from(p[3]);
            [0, 1, 2].map(|i| ((255 - u32::from(p[i])) * k / 255) as u8)
        })
        .collect();
    assert_published_near(&site, "plain-cmyk", &plain);

    let reference = littlecms(&shades, &grey, lcms2::PixelFormat::GRAY_8);
    for stem in ["scan-grey", "scan-png-grey"] {
        assert_published_near(&site, stem, &reference);
    }
}

/// An RGB profile with a D65 white, as phones and cameras write them.
fn rgb_profile(primaries: [(f64, f64); 3], curve: &lcms2::ToneCurve) -> Vec<u8> {
    let xy = |(x, y): (f64, f64)| lcms2::CIExyY { x, y, Y: 1.0 };
    let primaries = lcms2::CIExyYTRIPLE {
        Red: xy(primaries[0]),
        Green: xy(primaries[1]),
        Blue: xy(primaries[2]),
    };
    lcms2::Profile::new_rgb(&xy((0.3127, 0.3290)), &primaries, &[curve, curve, curve])
        .expect("an RGB profile")
        .icc()
        .expect("its bytes")
}

/// A phone's Display P3: P3's primaries with sRGB's tone curve.
fn display_p3_profile() -> Vec<u8> {
    let srgb_curve = lcms2::ToneCurve::new_parametric(
        4,
        &[2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045],
    )
    .expect("sRGB's curve");
    rgb_profile(
        [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)],
        &srgb_curve,
    )
}

/// A camera's Adobe RGB (1998): its primaries, gamma 563/256.
fn adobe_rgb_profile() -> Vec<u8> {
    let gamma = lcms2::ToneCurve::new(563.0 / 256.0);
    rgb_profile([(0.640, 0.330), (0.210, 0.710), (0.150, 0.060)], &gamma)
}

/// Full saturation at `hue` (six sides of 256 from red) and `value`.
fn saturated(hue: u32, value: u32) -> [u8; 3] {
    let (rise, fall) = (hue % 256, 255 - hue % 256);
    let rgb = match hue / 256 {
        0 => [255, rise, 0],
        1 => [fall, 255, 0],
        2 => [0, 255, rise],
        3 => [0, fall, 255],
        4 => [rise, 0, 255],
        _ => [255, 0, fall],
    };
    rgb.map(|c| (c * value / 255) as u8)
}

/// A smooth 320 × 240 RGB scene: ordinary colours above; below, every hue
/// at full saturation, darker downwards, most of them outside sRGB once
/// read in a wide space.
fn wide_scene() -> Vec<u8> {
    let mut rgb = Vec::with_capacity(320 * 240 * 3);
    for y in 0..240u32 {
        for x in 0..320u32 {
            if y < 120 {
                rgb.extend([
                    (70 + x * 130 / 320) as u8,
                    (60 + y * 110 / 120) as u8,
                    (170 - x * 60 / 320 - y * 40 / 120) as u8,
                ]);
            } else {
                rgb.extend(saturated(x * 1536 / 320, 255 - (y - 120) * 110 / 120));
            }
        }
    }
    rgb
}

/// A smooth 320 × 240 scene at 16 bits a channel, whose low bytes change
/// from pixel to pixel.
fn deep_scene() -> Vec<u16> {
    let mut rgb = Vec::with_capacity(320 * 240 * 3);
    for y in 0..240u32 {
        for x in 0..320u32 {
            rgb.extend(
                [x * 200 + y * 7, y * 270 + x * 3, 65_535 - x * 150 - y * 70].map(|v| v as u16),
            );
        }
    }
    rgb
}

/// How many pixels of `rgb` in `profile` fall outside sRGB, by LittleCMS
/// unclipped.
fn outside_srgb(rgb: &[u8], profile: &[u8]) -> usize {
    let input = lcms2::Profile::new_icc(profile).expect("LittleCMS reads the profile");
    let transform: lcms2::Transform<u8, [f64; 3]> = lcms2::Transform::new(
        &input,
        lcms2::PixelFormat::RGB_8,
        &lcms2::Profile::new_srgb(),
        lcms2::PixelFormat::RGB_DBL,
        lcms2::Intent::Perceptual,
    )
    .expect("a transform");
    let mut out = vec![[0.0; 3]; rgb.len() / 3];
    transform.transform_pixels(rgb, &mut out);
    out.iter()
        .filter(|p| p.iter().any(|c| !(-0.01..=1.01).contains(c)))
        .count()
}

/// A 320 × 240 PNG of `data`, samples as PNG stores them (16-bit ones
/// big-endian), with `palette` and `profile` when given.
fn png(
    data: &[u8],
    colour: png::ColorType,
    depth: png::BitDepth,
    palette: Option<&[u8]>,
    profile: Option<&[u8]>,
) -> Vec<u8> {
    let mut info = png::Info::with_size(320, 240);
    info.color_type = colour;
    info.bit_depth = depth;
    info.palette = palette.map(Cow::Borrowed);
    info.icc_profile = profile.map(Cow::Borrowed);
    decoded::encode_png_as(info, data)
}

/// The copy to fall back on for `stem`, a picture with an alpha channel, is a
/// PNG: within 3/255 of `reference` on average, its alpha that of `rgba`.
fn assert_published_with_alpha(site: &Fixture, stem: &str, rgba: &[u8], reference: &[u8]) {
    let copy = published_copy(site, stem, "png").data;
    let colours: Vec<u8> = copy
        .chunks_exact(4)
        .flat_map(|p| &p[..3])
        .copied()
        .collect();
    let difference = mean_difference(&colours, reference);
    assert!(
        difference <= 3.0,
        "{stem}: {difference:.2} from the reference"
    );
    let alpha = |pixels: &[u8]| pixels.chunks_exact(4).map(|p| p[3]).collect::<Vec<_>>();
    assert!(alpha(&copy) == alpha(rgba), "{stem}: its alpha changed");
}

#[test]
fn wide_gamut_and_16_bit_photos_keep_their_colours() {
    let (p3, adobe) = (display_p3_profile(), adobe_rgb_profile());
    let scene = wide_scene();
    for profile in [&p3, &adobe] {
        // Enough that clipping them wrongly shows.
        let outside = outside_srgb(&scene, profile);
        assert!(outside > 320 * 240 / 4, "{outside} pixels outside sRGB");
    }
    let deep = deep_scene();
    let deep_png = |profile| {
        let big_endian: Vec<u8> = deep.iter().flat_map(|v| v.to_be_bytes()).collect();
        png(
            &big_endian,
            png::ColorType::Rgb,
            png::BitDepth::Sixteen,
            None,
            profile,
        )
    };
    // 16 cells across by 16 down, each its own colour of a 256-colour palette.
    let indexes: Vec<u8> = (0..240u32)
        .flat_map(|y| (0..320u32).map(move |x| (x * 16 / 320 * 16 + y * 16 / 240) as u8))
        .collect();
    let palette: Vec<u8> = (0..256u32)
        .flat_map(|i| saturated(i / 16 * 96, 255 - i % 16 * 8))
        .collect();
    // The scene, more opaque to the right.
    let clear: Vec<u8> = scene
        .chunks_exact(3)
        .zip((0..320u32).cycle())
        .flat_map(|(p, x)| [p[0], p[1], p[2], (90 + x * 165 / 320) as u8])
        .collect();
    let (eight, rgb) = (png::BitDepth::Eight, jpeg_encoder::ColorType::Rgb);

    let site = Fixture::copy_with_frontend();
    for (name, bytes) in [
        ("phone-p3.jpg", jpeg(&scene, rgb, Some(&p3))),
        ("camera-adobe.jpg", jpeg(&scene, rgb, Some(&adobe))),
        ("deep-adobe.png", deep_png(Some(&adobe))),
        ("deep-plain.png", deep_png(None)),
        (
            "palette-p3.png",
            png(
                &indexes,
                png::ColorType::Indexed,
                eight,
                Some(&palette),
                Some(&p3),
            ),
        ),
        (
            "clear-p3.png",
            png(&clear, png::ColorType::Rgba, eight, None, Some(&p3)),
        ),
    ] {
        site.write(&format!("content/photos/{name}"), bytes);
    }
    site.append_to_policy(
        "![P3](../photos/phone-p3.jpg)\n\n![Adobe RGB](../photos/camera-adobe.jpg)\n\n\
         ![16-bit Adobe RGB](../photos/deep-adobe.png)\n\n![16-bit](../photos/deep-plain.png)\n\n\
         ![Palette](../photos/palette-p3.png)\n\n![With alpha](../photos/clear-p3.png)",
    );
    site.build_ok();

    let rgb8 = lcms2::PixelFormat::RGB_8;
    assert_published_near(&site, "phone-p3", &littlecms(&scene, &p3, rgb8));
    assert_published_near(&site, "camera-adobe", &littlecms(&scene, &adobe, rgb8));
    // The reference reads all 16 bits; the build, which hands qcms 8, rounds.
    let native: Vec<u8> = deep.iter().flat_map(|v| v.to_ne_bytes()).collect();
    let reference = littlecms(&native, &adobe, lcms2::PixelFormat::RGB_16);
    assert_published_near(&site, "deep-adobe", &reference);
    // Without a profile, sRGB: each sample to the nearest of 255.
    let plain: Vec<u8> = deep
        .iter()
        .map(|&v| ((u32::from(v) * 255 + 32_767) / 65_535) as u8)
        .collect();
    assert_published_near(&site, "deep-plain", &plain);
    let colours: Vec<u8> = indexes
        .iter()
        .flat_map(|&i| palette[usize::from(i) * 3..][..3].to_vec())
        .collect();
    assert_published_near(&site, "palette-p3", &littlecms(&colours, &p3, rgb8));
    let reference = littlecms(&clear, &p3, lcms2::PixelFormat::RGBA_8);
    assert_published_with_alpha(&site, "clear-p3", &clear, &reference);
}
