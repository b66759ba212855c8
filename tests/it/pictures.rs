//! Photos and files, through the real binary: a phone's photo in the hero
//! and pictures in Markdown pages are published as small upright copies in
//! WebP with a fallback, carrying nothing but pixels; `content/public/` is
//! published as it is; every mistake is an error at its file, line and
//! column, in `build` (which keeps the last good `dist/`) and in `check`.

use crate::support::photos;

use std::path::Path;

use crate::support::decoded;
use crate::support::fixture::Fixture;
use photos::SECRET;

const HERO_ALT: &str = "Two green bins at the curb at dusk";

/// The project with a phone's photo in the hero (1600 × 1200 as stored,
/// turned a quarter by its EXIF orientation 6), a PNG in the privacy policy,
/// a grey photo with a linear colour profile in the terms, and three files
/// to publish as they are.
fn site_with_photos() -> Fixture {
    let site = Fixture::copy_with_frontend();
    site.replace(
        "content/home.yaml",
        "  button: Start Service\n",
        &format!("  button: Start Service\n  image:\n    src: photos/bins-at-curb.jpg\n    alt: {HERO_ALT}\n"),
    );
    site.write(
        "content/photos/bins-at-curb.jpg",
        photos::phone_jpeg(1600, 1200, 6, None),
    );
    site.rewrite("content/pages/privacypolicy.md", |text| {
        format!("{text}\n![Our truck](truck.png)\n").into_bytes()
    });
    site.write("content/pages/truck.png", photos::png_with_text(1000, 600));
    site.rewrite("content/pages/termsofservice.md", |text| {
        format!("{text}\n![A grey card](../photos/grey.jpg)\n\nOur [price sheet](/prices.pdf).\n")
            .into_bytes()
    });
    site.write("content/photos/grey.jpg", grey_jpeg_with_linear_profile());
    site.write(
        "content/public/apple-touch-icon.png",
        photos::png_with_text(180, 180),
    );
    site.write(
        "content/public/.well-known/security.txt",
        "Contact: mailto:security@example.com\n",
    );
    site.write("content/public/prices.pdf", "%PDF-1.4\n% price sheet\n");
    site
}

/// 600 × 400 of value 128 in a profile with a linear tone curve: about 188
/// once converted to sRGB.
fn grey_jpeg_with_linear_profile() -> Vec<u8> {
    let mut jpeg = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut jpeg, 95);
    encoder
        .add_icc_profile(&photos::linear_rgb_profile())
        .expect("add the profile");
    encoder
        .encode(
            &vec![128u8; 600 * 400 * 3],
            600,
            400,
            jpeg_encoder::ColorType::Rgb,
        )
        .expect("encode");
    jpeg
}

fn read(site: &Fixture, path: &str) -> String {
    std::fs::read_to_string(site.root().join(path))
        .unwrap_or_else(|err| panic!("read {path}: {err}"))
}

/// The `/assets/img/…` addresses a page names.
fn picture_addresses(html: &str) -> Vec<String> {
    html.split(['"', ' ', ','])
        .filter(|part| part.starts_with("/assets/img/"))
        .map(str::to_string)
        .collect()
}

#[test]
fn photos_are_published_small_upright_in_srgb_and_with_nothing_but_pixels() {
    let site = site_with_photos();
    site.build_ok();
    let dist = site.root().join("dist");

    // The hero: the page's largest paint, preloaded and fetched first.
    let home = read(&site, "dist/index.html");
    assert!(
        home.contains("<link rel=\"preload\" as=\"image\" type=\"image/avif\" imagesrcset=\"/assets/img/bins-at-curb-400-"),
        "{home}"
    );
    let hero = home
        .split("<img ")
        .find(|img| img.contains(HERO_ALT))
        .unwrap_or_else(|| panic!("no hero <img> in {home}"));
    // Cut to a phone's 16:9 band, from the photo turned upright (1200 wide).
    assert!(
        hero.contains("width=\"1200\" height=\"675\""),
        "turned upright: {hero}"
    );
    assert!(
        hero.contains("fetchpriority=\"high\"") && !hero.contains("loading="),
        "{hero}"
    );
    // Offered in AVIF first, then WebP, the JPEG last.
    let hero_picture = home
        .split("<picture>")
        .find(|picture| picture.contains(HERO_ALT))
        .unwrap_or_else(|| panic!("no hero <picture> in {home}"));
    // and for a desktop's 4:3 frame first, by its media query.
    // Its copies are the frame's own widths (33rem at 1, 1.5 and 2 device pixels).
    let frame = hero_picture.find("<source media=\"(min-width: 60rem)\" type=\"image/avif\" srcset=\"/assets/img/bins-at-curb-528-");
    let avif =
        hero_picture.find("<source type=\"image/avif\" srcset=\"/assets/img/bins-at-curb-400-");
    let webp =
        hero_picture.find("<source type=\"image/webp\" srcset=\"/assets/img/bins-at-curb-400-");
    assert!(
        frame.is_some() && frame < avif && avif < webp,
        "{hero_picture}"
    );
    assert!(
        hero_picture.contains("sizes=\"33rem\" width=\"1200\" height=\"900\""),
        "{hero_picture}"
    );

    // A picture further down a page: lazy, in proportion, every width.
    let policy = read(&site, "dist/privacypolicy.html");
    let truck = policy
        .split("<picture>")
        .nth(1)
        .unwrap_or_else(|| panic!("no <picture> in the privacy policy"));
    assert!(
        truck.contains("alt=\"Our truck\" width=\"1000\" height=\"600\""),
        "{truck}"
    );
    assert!(
        truck.contains("loading=\"lazy\" decoding=\"async\""),
        "{truck}"
    );
    for width in ["400w", "800w", "1000w"] {
        assert!(truck.contains(width), "{width} missing: {truck}");
    }
    assert!(
        !truck.contains("1200w"),
        "never wider than the original: {truck}"
    );
    assert!(
        !truck.contains("image/avif"),
        "AVIF only for the largest paint: {truck}"
    );

    // Every copy a page names exists, and none carries any metadata.
    let mut named = picture_addresses(&home);
    named.extend(picture_addresses(&policy));
    named.extend(picture_addresses(&read(&site, "dist/termsofservice.html")));
    assert!(named.len() >= 20, "{named:?}");
    for address in &named {
        assert!(
            dist.join(&address[1..]).is_file(),
            "{address} is not published"
        );
    }
    let published: Vec<_> = walkdir::WalkDir::new(dist.join("assets/img"))
        .into_iter()
        .map(|entry| entry.expect("walk"))
        .filter(|entry| entry.file_type().is_file())
        .collect();
    assert!(published.len() >= named.len() / 2, "{published:?}");
    for entry in &published {
        let bytes = std::fs::read(entry.path()).expect("read a copy");
        let name = entry.path().display();
        assert_eq!(
            photos::metadata_blocks(&bytes),
            Vec::<String>::new(),
            "{name}"
        );
        let text = String::from_utf8_lossy(&bytes);
        for leak in [SECRET, "Exif", "GPS", "ICC_PROFILE", "Photoshop"] {
            assert!(!text.contains(leak), "{name} carries {leak}");
        }
    }
    // Nothing anywhere in the site either, pages and public files included.
    for entry in walkdir::WalkDir::new(&dist) {
        let entry = entry.expect("walk");
        if entry.file_type().is_file() && !entry.path().ends_with("apple-touch-icon.png") {
            let bytes = std::fs::read(entry.path()).expect("read");
            assert!(
                !String::from_utf8_lossy(&bytes).contains(SECRET),
                "{}",
                entry.path().display()
            );
        }
    }

    // Upright: the sensor's left half (red) is the top once turned. Every
    // copy of the hero is cut to the phone's 16:9 band or the desktop's 4:3
    // frame, around the middle, so its top is red and its bottom blue.
    let hero_copies = site.published("bins-at-curb");
    assert_eq!(
        hero_copies.len(),
        21,
        "the band at 400, 800 and 1200, the frame at 528, 792, 1056 and 1200, \
         three formats each: {hero_copies:?}"
    );
    let mut avif_sizes = Vec::new();
    for path in &hero_copies {
        let bytes = std::fs::read(path).expect("read a copy");
        let size = if path.extension().is_some_and(|ext| ext == "avif") {
            let size = photos::avif_size(&bytes)
                .unwrap_or_else(|| panic!("no size in {}", path.display()));
            // An opaque photo: no alpha plane beside it, a second image for
            // nothing.
            assert_eq!(photos::avif_images(&bytes), 1, "{}", path.display());
            avif_sizes.push(size);
            size
        } else {
            let photo = decoded::from_memory(&bytes)
                .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
            let (w, h) = (photo.width, photo.height);
            let top = photo.pixel(w / 2, h / 20);
            let bottom = photo.pixel(w / 2, h - 1 - h / 20);
            assert!(
                top[0] > 150 && top[2] < 110,
                "top should be red, is {top:?} ({})",
                path.display()
            );
            assert!(
                bottom[2] > 150 && bottom[0] < 110,
                "bottom should be blue, is {bottom:?} ({})",
                path.display()
            );
            (w, h)
        };
        let (w, h) = (i64::from(size.0), i64::from(size.1));
        assert!(
            (w * 9 - h * 16).abs() < 16 || (w * 3 - h * 4).abs() < 4,
            "16:9 or 4:3: {size:?} ({})",
            path.display()
        );
    }
    assert_eq!(avif_sizes.len(), 7, "{avif_sizes:?}");
    assert!(avif_sizes.contains(&(528, 396)), "{avif_sizes:?}");
    assert!(avif_sizes.contains(&(1200, 675)), "{avif_sizes:?}");
    assert!(avif_sizes.contains(&(1200, 900)), "{avif_sizes:?}");
    // In sRGB: 128 in the linear profile is about 188.
    let grey = site
        .published("grey-600")
        .into_iter()
        .find(|path| path.extension().is_some_and(|ext| ext == "webp"))
        .unwrap_or_else(|| panic!("no grey copy 600 wide"));
    let grey = decoded::open(&grey)
        .unwrap_or_else(|err| panic!("{err}"))
        .pixel(300, 200);
    assert!(
        (180..=196).contains(&grey[1]),
        "converted to sRGB: {grey:?}"
    );

    // Files published as they are, under their own names.
    for file in [
        "apple-touch-icon.png",
        ".well-known/security.txt",
        "prices.pdf",
    ] {
        assert_eq!(
            std::fs::read(dist.join(file)).ok(),
            std::fs::read(site.root().join("content/public").join(file)).ok(),
            "{file}"
        );
    }

    // `check` finds nothing wrong: the link to /prices.pdf is good.
    let output = site.check();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The hero's widest copy for a phone's band (the `<img>`'s own) and for
/// a desktop's frame (the first `<source>`), as published.
fn hero_cuts(site: &Fixture) -> [decoded::Rgba; 2] {
    let home = read(site, "dist/index.html");
    let widest = |after: &str| {
        let set = home
            .split(after)
            .nth(1)
            .and_then(|rest| rest.split("srcset=\"").nth(1))
            .and_then(|rest| rest.split('"').next())
            .unwrap_or_else(|| panic!("no srcset after {after} in {home}"));
        let address = set
            .rsplit(", ")
            .next()
            .and_then(|last| last.split(' ').next());
        let path = site
            .root()
            .join("dist")
            .join(&address.unwrap_or_default()[1..]);
        decoded::open(&path).unwrap_or_else(|err| panic!("{err}"))
    };
    [
        widest("<img src=\"/assets/img/bins-at-curb-"),
        widest("<source media=\"(min-width: 60rem)\" type=\"image/webp\""),
    ]
}

#[test]
fn the_hero_is_cut_around_the_point_home_yaml_names() {
    // Upright, the photo is red above its middle and blue below.
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/photos/bins-at-curb.jpg",
        photos::phone_jpeg(1600, 1200, 6, None),
    );
    let place = |focus: &str| {
        site.rewrite("content/home.yaml", |text| {
            let start = text.find("  image:\n").unwrap_or(text.len());
            let end = text[start..].find("\n\n").map_or(start, |end| start + end + 1);
            let image = format!(
                "  image:\n    src: photos/bins-at-curb.jpg\n    alt: {HERO_ALT}\n    focus: {focus}\n"
            );
            let text = if start < text.len() {
                format!("{}{image}{}", &text[..start], &text[end..])
            } else {
                text.replace("  button: Start Service\n", &format!("  button: Start Service\n{image}"))
            };
            text.into_bytes()
        });
    };
    // How much of a copy, from its top, shows the photo's red upper half:
    // the middle of the photo (the default) would be about half.
    let red_share = |photo: &decoded::Rgba| {
        let red = (0..photo.height)
            .filter(|row| {
                let [r, _, b, _] = photo.pixel(photo.width / 2, *row);
                r > 150 && b < 110
            })
            .count();
        red as f64 / f64::from(photo.height)
    };
    place("top");
    site.build_ok();
    let [band, frame] = hero_cuts(&site);
    // The band's 675 rows and the frame's 900 from the top of 1600.
    assert!(red_share(&band) > 0.99, "{}", red_share(&band));
    assert!(
        (0.85..0.92).contains(&red_share(&frame)),
        "{}",
        red_share(&frame)
    );
    place("bottom");
    site.build_ok();
    let [band, frame] = hero_cuts(&site);
    assert!(red_share(&band) < 0.01, "{}", red_share(&band));
    assert!(
        (0.08..0.15).contains(&red_share(&frame)),
        "{}",
        red_share(&frame)
    );
    // A point written as a person might, without %: an error at its place.
    place("50 30");
    let error = site.fails_in_build_and_check("content/home.yaml:36:12", "`50% 30%`");
    assert!(error.contains("has numbers without %"), "{error}");
}

#[test]
fn a_warm_build_makes_no_copy_again() {
    let site = site_with_photos();
    site.build_ok();
    let cache = site.root().join(".curbside/images");
    let stamps = |dir: &Path| -> Vec<(String, std::time::SystemTime)> {
        let mut stamps: Vec<_> = std::fs::read_dir(dir)
            .expect("the picture cache exists")
            .map(|entry| entry.expect("entry"))
            .map(|entry| {
                let modified = entry.metadata().and_then(|m| m.modified()).expect("mtime");
                (entry.file_name().to_string_lossy().into_owned(), modified)
            })
            .collect();
        stamps.sort();
        stamps
    };
    let before = stamps(&cache);
    assert!(
        before
            .iter()
            .filter(|(name, _)| name.ends_with(".webp"))
            .count()
            >= 8,
        "{before:?}"
    );
    let first = crate::support::fixture::tree(&site.root().join("dist/assets/img"));
    site.build_ok();
    assert_eq!(stamps(&cache), before, "a copy was made again");
    assert_eq!(
        crate::support::fixture::tree(&site.root().join("dist/assets/img")),
        first
    );
}

#[test]
fn a_missing_picture_is_an_error_at_its_place() {
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/Truck.png", photos::png_with_text(40, 30));
    let at = site.append_to_policy("![Our truck](truck.png)");
    site.fails_in_build_and_check(&at, "the picture content/pages/truck.png is not there");
    assert!(
        site.build_fails_at(&at)
            .contains("did you mean `Truck.png`?")
    );
}

#[test]
fn a_file_that_is_not_a_picture_is_an_error() {
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/truck.jpg", "I am text, not a photo\n");
    let at = site.append_to_policy("![Our truck](truck.jpg)");
    site.fails_in_build_and_check(&at, "is not a picture");
}

#[test]
fn a_heic_photo_is_an_error_that_says_how_to_convert_it() {
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/pages/truck.heic",
        b"\0\0\0\x18ftypheic\0\0\0\0mif1heic",
    );
    let at = site.append_to_policy("![Our truck](truck.heic)");
    let error = site.build_fails_at(&at);
    assert!(
        error.contains("is a HEIC photo") && error.contains("Most Compatible"),
        "{error}"
    );
    site.fails_in_build_and_check(&at, "is a HEIC photo");
}

#[test]
fn a_picture_without_alt_text_is_an_error_and_decoration_is_said_so() {
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/truck.png", photos::png_with_text(40, 30));
    let at = site.append_to_policy("![](truck.png)");
    site.fails_in_build_and_check(&at, "has no alt text");
    // Written as decoration, it builds with an empty alt.
    let text = read(&site, "content/pages/privacypolicy.md")
        .replace("![](truck.png)", "![\"\"](truck.png)");
    site.write("content/pages/privacypolicy.md", text);
    // The failed builds' stand-in for a previous site is not curbside's.
    site.remove_folder("dist");
    site.build_ok();
    assert!(read(&site, "dist/privacypolicy.html").contains("alt=\"\" width=\"40\" height=\"30\""));
}

#[test]
fn a_picture_too_large_to_process_is_an_error() {
    let site = Fixture::copy_with_frontend();
    // 8000 × 6000 (48 megapixels), as a GIF's header says.
    let mut gif = b"GIF89a".to_vec();
    gif.extend(8000u16.to_le_bytes());
    gif.extend(6000u16.to_le_bytes());
    gif.extend([0, 0, 0, 0x3B]);
    site.write("content/pages/huge.gif", gif);
    let at = site.append_to_policy("![A map](huge.gif)");
    site.fails_in_build_and_check(&at, "48 megapixels");

    // 8000 × 6000 as a PNG's header says, before any pixel data.
    let site = Fixture::copy_with_frontend();
    let mut png = decoded::encode_png(&[0, 0, 0], 1, 1, png::ColorType::Rgb, None);
    png[16..20].copy_from_slice(&8000u32.to_be_bytes());
    png[20..24].copy_from_slice(&6000u32.to_be_bytes());
    let crc = photos::crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    site.write("content/pages/huge.png", png);
    let at = site.append_to_policy("![A map](huge.png)");
    site.fails_in_build_and_check(&at, "48 megapixels");

    let site = Fixture::copy_with_frontend();
    let big = site.root().join("content/pages/big.jpg");
    site.write("content/pages/big.jpg", [0xFFu8, 0xD8, 0xFF]);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .and_then(|file| file.set_len(51 << 20))
        .expect("grow the file");
    let at = site.append_to_policy("![A photo](big.jpg)");
    site.fails_in_build_and_check(&at, "pictures may be at most 50 MB");
}

#[test]
fn a_missing_hero_photo_is_an_error_in_home_yaml() {
    let site = Fixture::copy_with_frontend();
    site.replace(
        "content/home.yaml",
        "  button: Start Service\n",
        &format!(
            "  button: Start Service\n  image:\n    src: photos/nothing.jpg\n    alt: {HERO_ALT}\n"
        ),
    );
    let text = read(&site, "content/home.yaml");
    let line = text
        .lines()
        .position(|l| l.contains("photos/nothing.jpg"))
        .expect("the line")
        + 1;
    site.fails_in_build_and_check(&format!("content/home.yaml:{line}:10"), "is not there");
}

#[test]
fn a_layout_places_a_picture_with_the_same_treatment() {
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/photos/team.jpg",
        photos::phone_jpeg(1200, 800, 1, None),
    );
    site.replace(
        "layouts/404.html",
        "{% block main %}",
        "{% block main %}{{ image(\"photos/team.jpg\", \"Our team\", sizes=\"50vw\", class=\"team\") }}",
    );
    site.build_ok();
    let page = read(&site, "dist/404.html");
    assert!(page.contains("sizes=\"50vw\" alt=\"Our team\" width=\"1200\" height=\"800\" class=\"team\" loading=\"lazy\""), "{page}");
    for address in picture_addresses(&page) {
        assert!(
            site.root().join("dist").join(&address[1..]).is_file(),
            "{address}"
        );
    }

    site.replace("layouts/404.html", "photos/team.jpg", "photos/gone.jpg");
    let line = read(&site, "layouts/404.html")
        .lines()
        .position(|l| l.contains("photos/gone.jpg"))
        .expect("the line")
        + 1;
    let error = site.build_fails_at(&format!("layouts/404.html:{line}:20"));
    assert!(
        error.contains("the picture content/photos/gone.jpg is not there"),
        "{error}"
    );
}

#[test]
fn public_files_that_would_hide_or_replace_others_are_refused() {
    let site = Fixture::copy_with_frontend();
    site.write("content/public/.env", "SECRET=1\n");
    site.fails_in_build_and_check("content/public/.env", "is a dotfile");

    let site = Fixture::copy_with_frontend();
    site.write("content/public/sitemap.xml", "<urlset/>\n");
    site.fails_in_build_and_check("content/public/sitemap.xml", "the build's own sitemap.xml");

    let site = Fixture::copy_with_frontend();
    site.write("content/public/privacypolicy", "a file where the page is\n");
    site.fails_in_build_and_check("content/public/privacypolicy", "the page /privacypolicy");

    let site = Fixture::copy_with_frontend();
    site.write(
        "content/public/privacypolicy/index.html",
        "<p>an old copy</p>\n",
    );
    site.fails_in_build_and_check(
        "content/public/privacypolicy/index.html",
        "the page /privacypolicy",
    );
}

#[test]
fn check_counts_a_link_to_a_public_file_only_when_the_file_is_there() {
    let site = Fixture::copy_with_frontend();
    site.rewrite("content/pages/termsofservice.md", |text| {
        format!("{text}\nOur [price sheet](/prices.pdf).\n").into_bytes()
    });
    let output = site.check();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("the link `/prices.pdf` leads to no page"),
        "{stderr}"
    );
    site.write("content/public/prices.pdf", "%PDF-1.4\n");
    let output = site.check();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}

#[test]
fn a_picture_in_a_faq_answer_is_found_from_content_and_needs_alt_text() {
    let site = Fixture::copy_with_frontend();
    site.write("content/photos/truck.png", photos::png_with_text(600, 400));
    site.replace(
        "content/faq.yaml",
        "    cost. If you'd rather bring them in yourself, tell us and we'll skip it.\n",
        "    cost. If you'd rather bring them in yourself, tell us and we'll skip it.\n\n    ![Our truck at the curb](photos/truck.png)\n",
    );
    site.build_ok();
    let home = read(&site, "dist/index.html");
    assert!(
        home.contains(
            "alt=\"Our truck at the curb\" width=\"600\" height=\"400\" loading=\"lazy\""
        ),
        "{home}"
    );
    for address in picture_addresses(&home) {
        assert!(
            site.root().join("dist").join(&address[1..]).is_file(),
            "{address}"
        );
    }
    // Mistakes are shown at their line and column in faq.yaml.
    site.replace("content/faq.yaml", "![Our truck at the curb]", "![]");
    site.fails_in_build_and_check("content/faq.yaml:17:5", "in this answer has no alt text");
    site.replace(
        "content/faq.yaml",
        "![](photos/truck.png)",
        "![Our truck](photos/gone.png)",
    );
    let error = site.fails_in_build_and_check(
        "content/faq.yaml:17:5",
        "the picture content/photos/gone.png is not there",
    );
    assert!(
        error.contains("to content/ in home.yaml, faq.yaml and layouts"),
        "{error}"
    );
}

#[test]
fn a_png_is_turned_upright_by_its_exif() {
    // Stored 400 × 300, with a phone's EXIF: orientation 6 (turn a quarter
    // clockwise) and GPS.
    let exif = crate::support::camera::exif(6);
    let mut info = png::Info::with_size(400, 300);
    info.color_type = png::ColorType::Rgb;
    info.exif_metadata = Some(std::borrow::Cow::Owned(exif));
    let png = decoded::encode_png_as(info, &[128; 400 * 300 * 3]);
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/turned.png", png);
    site.append_to_policy("![A sign](turned.png)");
    site.build_ok();
    let page = read(&site, "dist/privacypolicy.html");
    assert!(page.contains("width=\"300\" height=\"400\""), "{page}");
    let copies = site.published("turned");
    assert!(!copies.is_empty());
    for copy in copies {
        let picture = decoded::open(&copy).expect("decode");
        assert!(
            picture.height > picture.width,
            "{}: {} × {}",
            copy.display(),
            picture.width,
            picture.height
        );
    }
}
