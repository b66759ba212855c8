//! Photos keep their colours: a print shop's CMYK and a scanner's grey,
//! with their profiles, are published within 3/255, on average, of
//! LittleCMS's sRGB for the same pixels and profile.

use std::path::{Path, PathBuf};

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

/// LittleCMS's sRGB for `pixels` (`channels` a pixel, in `format`) in
/// `profile`, as 8-bit RGB.
fn littlecms(
    pixels: &[u8],
    channels: usize,
    profile: &[u8],
    format: lcms2::PixelFormat,
) -> Vec<u8> {
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
    let mut out = vec![0u8; pixels.len() / channels * 3];
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
    let jpegs: Vec<PathBuf> = site
        .published(stem)
        .into_iter()
        .filter(|path| path.extension().is_some_and(|ext| ext == "jpg"))
        .collect();
    assert_eq!(jpegs.len(), 1, "{stem}: {jpegs:?}");
    let copy = image::open(&jpegs[0]).expect("decode the published copy");
    assert_eq!((copy.width(), copy.height()), (320, 240));
    copy.into_rgb8().into_raw()
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
    let mut png = Vec::new();
    {
        use image::ImageEncoder;
        let mut encoder = image::codecs::png::PngEncoder::new(&mut png);
        encoder
            .set_icc_profile(grey.clone())
            .expect("a PNG takes a profile");
        encoder
            .write_image(&shades, 320, 240, image::ExtendedColorType::L8)
            .expect("encode");
    }
    site.write("content/photos/scan-png-grey.png", png);
    site.append_to_policy(
        "![CMYK](../photos/print-cmyk.jpg)\n\n![YCCK](../photos/print-ycck.jpg)\n\n\
         ![CMYK without a profile](../photos/plain-cmyk.jpg)\n\n\
         ![Grey](../photos/scan-grey.jpg)\n\n![Grey PNG](../photos/scan-png-grey.png)",
    );
    site.build_ok();

    let reference = littlecms(&ink, 4, &cmyk, lcms2::PixelFormat::CMYK_8);
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

    let reference = littlecms(&shades, 1, &grey, lcms2::PixelFormat::GRAY_8);
    for stem in ["scan-grey", "scan-png-grey"] {
        assert_published_near(&site, stem, &reference);
    }
}
