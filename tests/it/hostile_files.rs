//! What owners, print shops and careless copies hand over, through the real
//! binary: links out of `content/`, pictures carrying metadata or code,
//! files cut short, a very tall screenshot, the files computers leave in
//! folders, and public files far larger than memory. Each is published
//! correctly or refused with an error at its place, by `build` and `check`
//! alike. Photos' colours are in `colours`.

use crate::support::photos;

use std::path::Path;
use std::process::Command;

use crate::support::decoded;
use crate::support::fixture::Fixture;
use photos::SECRET;

/// Every byte the site publishes, file by file: none may carry [`SECRET`].
fn assert_no_secret_published(site: &Fixture) {
    for entry in walkdir::WalkDir::new(site.root().join("dist")) {
        let entry = entry.expect("walk dist/");
        if entry.file_type().is_file() {
            let bytes = std::fs::read(entry.path()).expect("read a published file");
            assert!(
                !bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()),
                "{} carries the owner's secret",
                entry.path().display()
            );
        }
    }
}

#[test]
fn links_out_of_content_are_refused_and_links_inside_it_are_followed() {
    let outside = tempfile::tempdir().expect("a folder outside the project");
    std::fs::write(outside.path().join("passwd"), "root:x:0:0\n").expect("write");
    std::fs::write(
        outside.path().join("a.jpg"),
        photos::phone_jpeg(40, 30, 1, None),
    )
    .expect("write");
    let away = outside.path().display().to_string();

    let site = Fixture::copy_with_frontend();
    site.symlink(&format!("{away}/passwd"), "content/public/passwd");
    let error = site.fails_in_build_and_check(
        "content/public/passwd",
        "content/public/passwd is a symbolic link to",
    );
    assert!(error.contains("outside content"), "{error}");

    let site = Fixture::copy_with_frontend();
    site.symlink(&away, "content/public/docs");
    site.fails_in_build_and_check(
        "content/public/docs",
        "content/public/docs is a symbolic link",
    );

    // A page that is a link to a file elsewhere.
    let site = Fixture::copy_with_frontend();
    std::fs::write(
        outside.path().join("about.md"),
        "---\ntitle: About\ndescription: Us.\n---\nHi\n",
    )
    .expect("write");
    site.symlink(&format!("{away}/about.md"), "content/pages/about.md");
    site.fails_in_build_and_check(
        "content/pages/about.md",
        "content/pages/about.md is a symbolic link",
    );

    // A photo placed through a link that leaves content/: the link itself is
    // named, wherever it is placed from.
    let site = Fixture::copy_with_frontend();
    site.symlink(&away, "content/photos");
    site.append_to_policy("![Our truck](../photos/a.jpg)");
    site.fails_in_build_and_check("content/photos", "content/photos is a symbolic link");

    // A link within the project publishes what it points to.
    let site = Fixture::copy_with_frontend();
    site.write("content/files/menu.pdf", "%PDF-1.4 menu\n");
    site.symlink("../files/menu.pdf", "content/public/menu.pdf");
    site.build_ok();
    assert_eq!(
        std::fs::read(site.root().join("dist/menu.pdf")).expect("published"),
        b"%PDF-1.4 menu\n"
    );
}

/// Two frames of 8 × 8 with a comment and XMP carrying [`SECRET`].
fn animated_gif() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let palette = [0, 0, 0, 250, 30, 30, 30, 30, 250];
        let mut encoder = gif::Encoder::new(&mut out, 8, 8, &palette).expect("encoder");
        encoder.set_repeat(gif::Repeat::Infinite).expect("loop");
        let comment = format!("taken at home by {SECRET}");
        encoder
            .write_raw_extension(gif::Extension::Comment.into(), &[comment.as_bytes()])
            .expect("comment");
        let xmp = format!("<x:xmpmeta>GPSLatitude 44.31 {SECRET}</x:xmpmeta>");
        encoder
            .write_raw_extension(
                gif::Extension::Application.into(),
                &[b"XMP DataXMP", xmp.as_bytes()],
            )
            .expect("XMP");
        for index in [1u8, 2] {
            let mut frame = gif::Frame::from_indexed_pixels(8, 8, vec![index; 64], None);
            frame.delay = 40;
            encoder.write_frame(&frame).expect("frame");
        }
    }
    out
}

/// Each frame's delay and RGBA pixels.
fn gif_frames(bytes: &[u8]) -> Vec<(u16, Vec<u8>)> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        frames.push((frame.delay, frame.buffer.to_vec()));
    }
    frames
}

fn drawing() -> String {
    format!(
        r##"<?xml version="1.0" encoding="UTF-8"?>
<!-- Created by {SECRET} -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
     width="120" height="60" onload="alert(1)" sodipodi:docname="/home/{SECRET}/logo.svg">
  <metadata>{SECRET}</metadata>
  <script>alert(2)</script>
  <a xlink:href="javascript:alert(3)"><rect width="60" height="60" fill="#0a0" onclick="x()"/></a>
  <image href="/dev/zero" width="10" height="10"/>
  <image xlink:href="/etc/passwd" width="10" height="10"/>
</svg>
"##
    )
}

#[test]
fn gif_and_svg_are_published_with_nothing_but_the_picture() {
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/wave.gif", animated_gif());
    site.write("content/pages/logo.svg", drawing());
    site.append_to_policy("![A wave](wave.gif)\n\n![Our logo](logo.svg)");
    site.build_ok();
    let output = site.check();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let gifs = site.published("wave");
    assert_eq!(gifs.len(), 1, "{gifs:?}");
    let gif = std::fs::read(&gifs[0]).expect("read");
    assert!(!gif.windows(3).any(|w| w == b"XMP"), "XMP left in the GIF");
    assert_eq!(
        gif_frames(&gif),
        gif_frames(&animated_gif()),
        "frames and timing kept"
    );
    assert!(
        gif.windows(11).any(|w| w == b"NETSCAPE2.0"),
        "the loop is kept"
    );

    let svgs = site.published("logo");
    assert_eq!(svgs.len(), 1, "{svgs:?}");
    let svg = std::fs::read_to_string(&svgs[0]).expect("read");
    for gone in [
        "<script",
        "onload",
        "onclick",
        "javascript:",
        "<metadata",
        "sodipodi",
        "/dev/zero",
        "/etc/passwd",
        "<!--",
    ] {
        assert!(!svg.contains(gone), "{gone} left in {svg}");
    }
    assert!(
        svg.contains("<rect width=\"60\" height=\"60\" fill=\"#0a0\"/>"),
        "{svg}"
    );
    assert_no_secret_published(&site);
}

#[test]
fn an_svg_that_embeds_a_photo_is_refused() {
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/pages/card.svg",
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><image href="data:image/jpeg;base64,/9j/4AAQ" width="9" height="9"/></svg>"#,
    );
    let at = site.append_to_policy("![Our card](card.svg)");
    let error = site.fails_in_build_and_check(&at, "has a photo embedded in it");
    assert!(error.contains("export the drawing as PNG"), "{error}");
}

#[test]
fn pictures_cut_short_are_refused_in_build_and_check() {
    let jpeg = photos::phone_jpeg(400, 300, 1, None);
    let png = photos::png_with_text(400, 300);
    let webp = {
        let pixels = photos::pixels(400, 300);
        webp::Encoder::from_rgb(&pixels, 400, 300)
            .encode(80.0)
            .to_vec()
    };
    let gif = animated_gif();
    for (name, bytes) in [
        ("cut.jpg", &jpeg[..jpeg.len() / 2]),
        ("cut.png", &png[..png.len() * 2 / 3]),
        ("cut.webp", &webp[..webp.len() / 2]),
        ("cut.gif", &gif[..gif.len() - 20]),
    ] {
        let site = Fixture::copy_with_frontend();
        site.write(&format!("content/pages/{name}"), bytes);
        let at = site.append_to_policy(&format!("![A photo]({name})"));
        site.fails_in_build_and_check(&at, "cut short or damaged");
    }
}

#[test]
fn a_very_tall_screenshot_publishes_within_webps_limit() {
    let (width, height) = (1080u32, 18_000u32);
    let pixels: Vec<u8> = (0..height)
        .flat_map(|y| {
            let band = ((y / 600) % 2 * 120 + 60) as u8;
            (0..width).flat_map(move |_| [band, 200, 255 - band])
        })
        .collect();
    let png = decoded::encode_png(&pixels, width, height, png::ColorType::Rgb, None);
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/screenshot.png", png);
    site.append_to_policy("![The sign-up page](screenshot.png)");
    let output = site.check();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    site.build_ok();
    let copies = site.published("screenshot");
    assert!(copies.len() >= 4, "{copies:?}");
    for copy in &copies {
        let picture = decoded::open(copy).unwrap_or_else(|err| panic!("{err}"));
        assert!(
            picture.height <= 16_383,
            "{}: {}",
            copy.display(),
            picture.height
        );
        assert!(
            (f64::from(picture.height) / f64::from(picture.width) - 18_000.0 / 1080.0).abs() < 0.05,
            "in proportion: {}",
            copy.display()
        );
    }
}

#[test]
fn a_photo_published_as_it_is_with_its_gps_is_said_so() {
    let site = Fixture::copy_with_frontend();
    site.write(
        "content/public/team.jpg",
        photos::phone_jpeg(40, 30, 1, None),
    );
    site.write("content/public/clean.jpg", {
        let mut out = Vec::new();
        jpeg_encoder::Encoder::new(&mut out, 80)
            .encode(&[90u8; 8 * 8 * 3], 8, 8, jpeg_encoder::ColorType::Rgb)
            .expect("encode");
        out
    });
    let output = site.build();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("content/public/team.jpg is published as it is, with the camera details"),
        "{stderr}"
    );
    assert!(!stderr.contains("clean.jpg"), "{stderr}");
}

#[test]
fn files_computers_leave_in_folders_are_skipped() {
    let site = Fixture::copy_with_frontend();
    for junk in [
        ".DS_Store",
        "files/Thumbs.db",
        "files/desktop.ini",
        "files/._menu.pdf",
        "__MACOSX/files/menu.pdf",
    ] {
        site.write(&format!("content/public/{junk}"), "left by the system\n");
    }
    site.write("content/public/files/menu.pdf", "%PDF-1.4\n");
    site.build_ok();
    let dist = site.root().join("dist");
    assert!(dist.join("files/menu.pdf").is_file());
    for junk in [
        ".DS_Store",
        "files/Thumbs.db",
        "files/desktop.ini",
        "files/._menu.pdf",
        "__MACOSX",
    ] {
        assert!(!dist.join(junk).exists(), "{junk} was published");
    }
}

/// Builds `site` with the phases' report on, returning the peak memory of
/// the build process in MiB.
fn build_peak_mib(site: &Fixture) -> u64 {
    let output = Command::new(env!("CARGO_BIN_EXE_curbside"))
        .arg("build")
        .arg("--root")
        .arg(site.root())
        .arg("--out")
        .arg(site.root().join("dist"))
        .env("CURBSIDE_TIMINGS", "1")
        .output()
        .expect("run the curbside binary");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let kib: u64 = stderr
        .split_whitespace()
        .find_map(|word| word.strip_prefix("peak_rss_kib="))
        .and_then(|kib| kib.parse().ok())
        .unwrap_or_else(|| panic!("no peak_rss_kib in {stderr}"));
    kib / 1024
}

#[test]
fn large_public_files_are_copied_in_constant_memory() {
    let site = Fixture::copy_with_frontend();
    // Two videos of 256 MiB, their bytes distinct at both ends: either one
    // read whole passes the bound below, and the copies stay light on disk
    // (the cold build writes every byte; the warm one links).
    for (i, name) in ["a.mp4", "b.mp4"].iter().enumerate() {
        let path = site.root().join("content/public/videos").join(name);
        site.write(
            &format!("content/public/videos/{name}"),
            format!("video {i}"),
        );
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .expect("open");
        file.set_len(256 << 20).expect("grow");
        use std::io::{Seek, SeekFrom, Write};
        let mut file = file;
        file.seek(SeekFrom::End(-8)).expect("seek");
        file.write_all(format!("end {i}  ").as_bytes())
            .expect("write");
    }
    let cold = build_peak_mib(&site);
    let warm = build_peak_mib(&site);
    assert!(
        cold < 150 && warm < 150,
        "peak memory: {cold} MiB cold, {warm} MiB warm"
    );
    for name in ["a.mp4", "b.mp4"] {
        let (published, source) = (
            site.root().join("dist/videos").join(name),
            site.root().join("content/public/videos").join(name),
        );
        let same = Command::new("cmp")
            .arg(&published)
            .arg(&source)
            .status()
            .expect("run cmp");
        assert!(same.success(), "{name} differs from its source");
    }
}

/// A bounded run of damaged pictures: real JPEG, PNG, WebP, GIF and SVG
/// files with bits flipped and ends cut off, each read and decoded as a
/// build does. Every one is an error or a picture; none panics or runs away.
#[test]
fn mutated_pictures_are_errors_or_pictures_never_panics() {
    use curbside::diagnostics::Location;
    use curbside::media::{encode, gif_file, picture, svg};

    let originals: [(&str, Vec<u8>); 5] = [
        ("jpg", photos::phone_jpeg(96, 64, 6, None)),
        ("png", photos::png_with_text(96, 64)),
        (
            "webp",
            webp::Encoder::from_rgb(&photos::pixels(96, 64), 96, 64)
                .encode(80.0)
                .to_vec(),
        ),
        ("gif", animated_gif()),
        ("svg", drawing().into_bytes()),
    ];
    let dir = tempfile::tempdir().expect("a folder");
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    let mut outcomes = std::collections::BTreeMap::<String, usize>::new();
    for (ext, original) in &originals {
        for case in 0..80 {
            let mut bytes = original.clone();
            if case % 3 != 1 {
                for _ in 0..1 + next(8) {
                    let at = next(bytes.len());
                    bytes[at] ^= 1 << next(8);
                }
            }
            if case % 3 != 0 {
                bytes.truncate(next(bytes.len()));
            }
            let name = format!("case-{case}.{ext}");
            let path = dir.path().join(&name);
            std::fs::write(&path, &bytes).expect("write a case");
            let outcome = std::panic::catch_unwind(|| {
                let at = Location::file(&name);
                let read = picture::read(&path, &name, Path::new(&name), &at)
                    .map_err(|_| "refused on reading")?;
                let (found, bytes) = (read.picture, read.file);
                match found.kind {
                    picture::Kind::Gif => {
                        let copy = gif_file::clean(&bytes).map_err(|_| "refused GIF")?;
                        // What is published decodes, every frame.
                        let mut options = gif::DecodeOptions::new();
                        options.set_color_output(gif::ColorOutput::Indexed);
                        let mut decoder = options.read_info(&copy[..]).expect("a published GIF");
                        while decoder
                            .read_next_frame()
                            .expect("a published frame")
                            .is_some()
                        {}
                        Ok(())
                    }
                    picture::Kind::Svg => {
                        let copy = svg::clean(&bytes).map_err(|_| "refused SVG")?;
                        // A copy is already all it may be: cleaned again, it is the same.
                        assert_eq!(svg::clean(&copy).as_ref(), Ok(&copy), "{name}");
                        Ok(())
                    }
                    _ => encode::decode(&found, &bytes)
                        .map(drop)
                        .map_err(|_| "refused on decoding"),
                }
            });
            let outcome = match outcome {
                Ok(Ok(())) => "a picture".to_string(),
                Ok(Err(why)) => why.to_string(),
                Err(_) => panic!("{name} (from the {ext} original) panicked"),
            };
            *outcomes.entry(format!("{ext}: {outcome}")).or_default() += 1;
        }
    }
    // Both answers were met, so the run exercised the decoders, not only the sniffing.
    assert!(
        outcomes.keys().any(|k| k.ends_with("a picture")),
        "{outcomes:?}"
    );
    assert!(
        outcomes.keys().any(|k| k.ends_with("refused on decoding")),
        "{outcomes:?}"
    );
    eprintln!("{outcomes:#?}");
}

/// The cache folder's copies of `stem`, by name.
fn cached(site: &Fixture, stem: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(site.root().join(".curbside/images"))
        .expect("the picture cache")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.starts_with(&format!("{stem}-")))
        .collect();
    names.sort();
    names
}

#[test]
fn the_picture_cache_follows_content_not_names_and_keeps_only_what_is_used() {
    let site = Fixture::copy_with_frontend();
    let photo = site.root().join("content/pages/truck.jpg");
    site.write(
        "content/pages/truck.jpg",
        photos::phone_jpeg_seeded(480, 320, 1, 1),
    );
    site.append_to_policy("![Our truck](truck.jpg)");
    site.build_ok();
    let first = cached(&site, "truck");
    assert!(!first.is_empty());

    // Another photo of the same size (the same one, turned upside down by
    // its EXIF orientation), given the same modification time.
    let modified = std::fs::metadata(&photo)
        .and_then(|m| m.modified())
        .expect("mtime");
    let other = photos::phone_jpeg_seeded(480, 320, 3, 1);
    assert_eq!(
        other.len(),
        std::fs::metadata(&photo).expect("size").len() as usize,
        "same size"
    );
    std::fs::write(&photo, &other).expect("replace");
    std::fs::File::options()
        .write(true)
        .open(&photo)
        .and_then(|file| file.set_modified(modified))
        .expect("set the old time");
    site.build_ok();
    let second = cached(&site, "truck");
    assert!(
        second.iter().all(|name| !first.contains(name)),
        "{first:?} then {second:?}"
    );

    // A copy whose bytes changed in the cache is made again, not published.
    let webp = second
        .iter()
        .find(|name| name.ends_with(".webp"))
        .expect("a WebP copy");
    let cached_copy = site.root().join(".curbside/images").join(webp);
    let good = std::fs::read(&cached_copy).expect("read");
    std::fs::write(&cached_copy, vec![b'x'; good.len()]).expect("damage");
    site.build_ok();
    assert_eq!(
        std::fs::read(&cached_copy).expect("read"),
        good,
        "made again"
    );
    assert_eq!(
        std::fs::read(site.root().join("dist/assets/img").join(webp)).expect("published"),
        good
    );

    // Copies no page uses any more are removed.
    site.rewrite("content/pages/privacypolicy.md", |text| {
        text.replace("![Our truck](truck.jpg)", "").into_bytes()
    });
    site.build_ok();
    assert_eq!(cached(&site, "truck"), Vec::<String>::new());
}

#[test]
fn an_animated_png_is_published_still_and_the_owner_is_told() {
    let mut apng = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut apng, 64, 48);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_animated(2, 0).expect("two frames");
        let mut writer = encoder.write_header().expect("header");
        for shade in [40u8, 200] {
            writer
                .write_image_data(&[shade; 64 * 48 * 3])
                .expect("a frame");
        }
    }
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/blink.png", apng);
    let at = site.append_to_policy("![A blinking sign](blink.png)");
    let output = site.build();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{at}: content/pages/blink.png is an animation; the site shows its first frame, still"
        )),
        "{stderr}"
    );
    let check = site.check();
    assert!(
        String::from_utf8_lossy(&check.stderr).contains("is an animation"),
        "check says so too"
    );
    // The copies hold the first frame.
    let copies = site.published("blink");
    assert!(!copies.is_empty());
    for copy in copies {
        let picture = decoded::open(&copy).expect("decode");
        let centre = &picture.pixel(picture.width / 2, picture.height / 2)[..3];
        assert!(
            centre.iter().all(|v| v.abs_diff(40) < 6),
            "{}: {centre:?}",
            copy.display()
        );
    }
}
