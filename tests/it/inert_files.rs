//! What an owner hands over is published from what is allowed, within
//! budgets checked before the work: links stay in `content/`, animations are
//! held to a pixel budget frame by frame, a drawing's text to a budget before
//! it is parsed, and a file that is no file is named for what it is. Each
//! through the real binary, `build` and `check` alike. The browser's verdict
//! on published drawings is in tests/browser/specs/svg-inert.spec.ts.

use crate::support::fixture::Fixture;
use crate::support::photos::SECRET;
use crate::support::recording::{flat_animation, screen_recording};

#[test]
fn links_into_the_project_around_content_are_refused() {
    for (target, link) in [
        ("../../.git", "content/public/repo"),
        ("../../.env", "content/public/env.txt"),
        ("../.env", "content/notes.txt"),
    ] {
        let site = Fixture::copy_with_frontend();
        site.write(".git/config", format!("[remote] url = {SECRET}\n"));
        site.write(".env", format!("TOKEN={SECRET}\n"));
        site.symlink(target, link);
        let error = site.fails_in_build_and_check(link, &format!("{link} is a symbolic link to"));
        assert!(error.contains("outside content"), "{error}");
        assert!(
            error.contains("help: copy the file into content"),
            "{error}"
        );
    }
}

#[cfg(unix)]
fn named_pipe(site: &Fixture, file: &str) {
    let path = site.root().join(file);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("create the folder");
    let status = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("run mkfifo");
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn a_pipe_is_not_a_regular_file_wherever_it_stands() {
    let site = Fixture::copy_with_frontend();
    named_pipe(&site, "content/pages/pipe.png");
    let at = site.append_to_policy("![A pipe](pipe.png)");
    let error = site.fails_in_build_and_check(&at, "content/pages/pipe.png is not a regular file");
    assert!(!error.contains("folder"), "{error}");

    let site = Fixture::copy_with_frontend();
    named_pipe(&site, "content/public/feed.xml");
    site.fails_in_build_and_check(
        "content/public/feed.xml",
        "content/public/feed.xml is not a regular file",
    );
}

/// A GIF whose frames are the given sizes, their data ending at once (a
/// clear code, then the end): the budget reads headers, so nothing needs
/// compressing.
fn gif_of_headers(screen: (u16, u16), frames: &[(u16, u16)]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder =
            gif::Encoder::new(&mut out, screen.0, screen.1, &[0; 6]).expect("an encoder");
        for &(width, height) in frames {
            let frame = gif::Frame {
                width,
                height,
                buffer: std::borrow::Cow::Owned(vec![2, 0x2C]),
                ..gif::Frame::default()
            };
            encoder
                .write_lzw_pre_encoded_frame(&frame)
                .expect("a frame");
        }
    }
    out
}

#[test]
fn every_gif_frame_and_all_of_them_together_are_held_to_the_budget() {
    for (gif, words) in [
        (
            gif_of_headers((1, 1), &[(7000, 7000)]),
            "its frame 1 is 7000 × 7000 pixels (49 megapixels); a frame may have at most 40 megapixels",
        ),
        // Each frame within the limit, 1025 megapixels together, in 1 MB.
        (
            flat_animation(5000, 5000, 41),
            "all the frames of an animation may hold at most 1000 megapixels",
        ),
        (
            gif_of_headers((1, 1), &[(1, 1); 2001]),
            "it has more than 2000 frames",
        ),
    ] {
        let site = Fixture::copy_with_frontend();
        site.write("content/pages/wave.gif", gif);
        let at = site.append_to_policy("![A wave](wave.gif)");
        let error = site.fails_in_build_and_check(
            &at,
            "the picture content/pages/wave.gif is over the budget for an animation",
        );
        assert!(error.contains(words), "{error}");
        assert!(!error.contains("damaged"), "a budget is no damage: {error}");
        assert!(error.contains("help: shorten the animation"), "{error}");
    }
}

#[test]
fn a_screen_recording_publishes_frame_for_frame() {
    let recording = screen_recording(1920, 1080, 300);
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/demo.gif", &recording);
    site.append_to_policy("![How to sign up](demo.gif)");
    site.build_ok();
    let published = site.published("demo");
    assert_eq!(published.len(), 1, "{published:?}");
    let bytes = std::fs::read(&published[0]).expect("read the copy");
    let mut options = gif::DecodeOptions::new();
    options.skip_frame_decoding(true);
    let mut decoder = options.read_info(&bytes[..]).expect("a GIF");
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert_eq!(frames, 300);
}

/// An APNG of two tiny frames whose animation chunk declares `frames`.
fn apng_declaring(frames: u32) -> Vec<u8> {
    let mut apng = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut apng, 6000, 6000);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_animated(2, 0).expect("two frames");
        let mut writer = encoder.write_header().expect("header");
        for shade in [40u8, 200] {
            writer
                .write_image_data(&vec![shade; 6000 * 6000])
                .expect("a frame");
        }
    }
    // acTL: length, name, frame count, plays, CRC of name and data.
    let at = apng
        .windows(4)
        .position(|w| w == b"acTL")
        .expect("an acTL chunk");
    apng[at + 4..at + 8].copy_from_slice(&frames.to_be_bytes());
    let mut crc = flate2::Crc::new();
    crc.update(&apng[at..at + 12]);
    apng[at + 12..at + 16].copy_from_slice(&crc.sum().to_be_bytes());
    apng
}

#[test]
fn an_animated_pngs_frames_are_held_to_the_same_budget() {
    let site = Fixture::copy_with_frontend();
    // 28 frames of 36 megapixels: each within the limit, 1008 together.
    site.write("content/pages/blink.png", apng_declaring(28));
    let at = site.append_to_policy("![A blinking sign](blink.png)");
    let error = site.fails_in_build_and_check(
        &at,
        "the picture content/pages/blink.png is over the budget for an animation",
    );
    assert!(error.contains("at most 1000 megapixels"), "{error}");
}

#[test]
fn a_drawings_entities_are_held_to_a_budget_before_it_is_parsed() {
    let value = "M0 0h1v1h-1z ".repeat(250);
    let uses = "<path d=\"&p;\"/>".repeat(40_000);
    let bomb = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [<!ENTITY p \"{value}\">]>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\">{uses}</svg>\n"
    );
    assert!(bomb.len() < 1_000_000);
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/bomb.svg", &bomb);
    let at = site.append_to_policy("![A drawing](bomb.svg)");
    let error = site.fails_in_build_and_check(&at, "of text once its entities are expanded");
    assert!(error.contains("help: export the drawing again"), "{error}");

    // Plain text over the fixed cap, no entity needed.
    let site = Fixture::copy_with_frontend();
    let paths = "<path d=\"M0 0h1\"/>".repeat(600_000);
    site.write(
        "content/pages/huge.svg",
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\">{paths}</svg>"),
    );
    let at = site.append_to_policy("![A drawing](huge.svg)");
    site.fails_in_build_and_check(&at, "an SVG may be at most 8.0 MB");
}

#[test]
fn an_illustrator_export_with_namespace_entities_publishes() {
    let drawing = r##"<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
	<!ENTITY ns_extend "http://ns.adobe.com/Extensibility/1.0/">
	<!ENTITY ns_ai "http://ns.adobe.com/AdobeIllustrator/10.0/">
	<!ENTITY ns_graphs "http://ns.adobe.com/Graphs/1.0/">
]>
<svg version="1.1" xmlns:x="&ns_extend;" xmlns:i="&ns_ai;" xmlns:graph="&ns_graphs;"
	 xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
	 width="120px" height="60px" viewBox="0 0 120 60" xml:space="preserve">
<switch>
	<foreignObject requiredExtensions="&ns_ai;" x="0" y="0" width="1" height="1">
		<i:aipgfRef  xlink:href="#adobe_illustrator_pgf"></i:aipgfRef>
	</foreignObject>
	<g i:extraneous="self">
		<style type="text/css">.st0{fill:#2E7D32;}</style>
		<rect class="st0" width="60" height="60"/>
		<text transform="matrix(1 0 0 1 64 36)" font-family="'MyriadPro-Regular'" font-size="12px">Curbside</text>
	</g>
</switch>
<i:pgf  id="adobe_illustrator_pgf">eJzs</i:pgf>
</svg>
"##;
    let site = Fixture::copy_with_frontend();
    site.write("content/pages/logo.svg", drawing);
    site.append_to_policy("![Curbside](logo.svg)");
    site.build_ok();
    let published = site.published("logo");
    let copy = std::fs::read_to_string(&published[0]).expect("read the copy");
    for kept in [
        "<rect class=\"st0\" width=\"60\" height=\"60\"/>",
        ">Curbside</text>",
        ".st0{fill:#2E7D32;}",
    ] {
        assert!(copy.contains(kept), "{kept} missing from {copy}");
    }
    for gone in ["adobe", "foreignObject", "pgf", "ENTITY", "extraneous"] {
        assert!(!copy.contains(gone), "{gone} left in {copy}");
    }
}
