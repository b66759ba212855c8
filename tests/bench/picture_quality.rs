//! What each encoder setting costs and gives: for each photo, the copies a
//! phone 390 px wide at DPR 3 gets (1200 wide) and an 800-wide one, resized
//! as the build resizes them (Lanczos3), then encoded by the build's own
//! encoders at several WebP and JPEG settings. Prints bytes, encoding time
//! (median of `--repeat`, the resize not counted) and DSSIM against the same
//! resize unencoded, measured by the `dssim` command (`cargo install dssim
//! --locked`; `$DSSIM` names another), which reads PNG: every copy is decoded
//! first, WebP by libwebp as Chromium decodes it.
//!
//!     cargo run --release --example picture_quality -- table [--repeat 3] [--json OUT] [--widths 1200,800] [--webp SETTING]... PHOTO...
//!     cargo run --release --example picture_quality -- reference PHOTO WIDTH OUT.png [--cut W:H]
//!     cargo run --release --example picture_quality -- dssim REFERENCE.png COPY.webp|COPY.jpg
//!     cargo run --release --example picture_quality -- lake
//!
//! Without `--webp` the table prints a grid of qualities and efforts, then
//! libwebp's finer settings (see [`TUNED`]); each `--webp SETTING` prints
//! that setting instead (and no JPEG rows), written as the table labels them:
//! `q80 m6` then any of `sharp` (sharp RGB→YUV), `snsN`, `fN` (filter
//! strength), `shN` (filter sharpness), `auto` (autofilter), `segN`, `preN`
//! (preprocessing); what is not named is libwebp's default.
//!
//! A PHOTO named `lake` is a real photograph the `webp` crate's package
//! ships (4000 × 2250), found with `cargo metadata` (`lake` prints its path):
//! nothing is downloaded. `reference`, `dssim` and `lake` serve tests/bench/pictures-peers.mjs,
//! which measures other generators' copies against the same resize. `--cut
//! W:H` makes the reference of a copy cut to that proportion, centred, as
//! the build cuts a photo with no focus given (the hero's cuts).

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

use curbside::diagnostics::Location;
use curbside::media::crop::Crop;
use curbside::media::encode::{self, Pixels};
use curbside::media::variants::{self, Encoding, Format, Frame, Variant, WebpTuning};
use curbside::media::{Focus, Picture, picture};

const WIDTHS: [u32; 2] = [1200, 800];
const WEBP_QUALITIES: [f32; 9] = [60.0, 65.0, 70.0, 72.0, 75.0, 78.0, 80.0, 82.0, 85.0];
const WEBP_METHODS: [i32; 3] = [4, 5, 6];
const JPEG_QUALITIES: [u8; 8] = [65, 70, 75, 78, 80, 82, 85, 90];
/// libwebp's finer settings the default table prints after the grid.
const TUNED: &[&str] = &[
    "q80 m6 sh7",
    "q80 m6 sns100",
    "q80 m6 sns100 sh7",
    "q80 m6 sharp",
    "q80 m6 sharp sns100 sh7",
    "q80 m6 pre1",
    "q80 m6 seg2",
    "q78 m6 sns100 sh7",
    "q78 m6 sharp sns100 sh7",
    "q75 m6 sns100 sh7",
    "q72 m6 sns100 sh7",
    "q82 m6 sns100 sh7",
];

/// The label of a WebP setting, as [`parse_webp`] reads it: quality and
/// effort, then only what differs from libwebp's defaults.
fn webp_label(encoding: &Encoding) -> String {
    let (t, d) = (&encoding.webp, &WebpTuning::LIBWEBP);
    let mut label = format!("webp q{} m{}", encoding.webp_quality, encoding.webp_method);
    let mut add = |differs: bool, part: String| {
        if differs {
            label.push(' ');
            label.push_str(&part);
        }
    };
    add(t.sharp_yuv, "sharp".into());
    add(
        t.sns_strength != d.sns_strength,
        format!("sns{}", t.sns_strength),
    );
    add(
        t.filter_strength != d.filter_strength,
        format!("f{}", t.filter_strength),
    );
    add(
        t.filter_sharpness != d.filter_sharpness,
        format!("sh{}", t.filter_sharpness),
    );
    add(t.autofilter, "auto".into());
    add(t.segments != d.segments, format!("seg{}", t.segments));
    add(
        t.preprocessing != d.preprocessing,
        format!("pre{}", t.preprocessing),
    );
    label
}

/// A WebP setting from its label (`webp` in front is optional).
fn parse_webp(text: &str) -> Result<Encoding, String> {
    let mut encoding = Encoding {
        webp: WebpTuning::LIBWEBP,
        ..variants::ENCODING
    };
    for part in text.split_whitespace().filter(|p| *p != "webp") {
        let number = |prefix: &str| -> Result<i32, String> {
            part[prefix.len()..]
                .parse()
                .map_err(|_| format!("not a number in {part:?} of {text:?}"))
        };
        let t = &mut encoding.webp;
        match part {
            "sharp" => t.sharp_yuv = true,
            "auto" => t.autofilter = true,
            _ if part.starts_with("sns") => t.sns_strength = number("sns")?,
            _ if part.starts_with("seg") => t.segments = number("seg")?,
            _ if part.starts_with("sh") => t.filter_sharpness = number("sh")?,
            _ if part.starts_with("pre") => t.preprocessing = number("pre")?,
            _ if part.starts_with('f') => t.filter_strength = number("f")?,
            _ if part.starts_with('m') => encoding.webp_method = number("m")?,
            _ if part.starts_with('q') => {
                encoding.webp_quality = part[1..]
                    .parse()
                    .map_err(|_| format!("not a quality in {part:?} of {text:?}"))?
            }
            _ => return Err(format!("unknown WebP setting {part:?} in {text:?}")),
        }
    }
    Ok(encoding)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("table") => table(&args[1..]),
        Some("reference") if args.len() == 4 || (args.len() == 6 && args[4] == "--cut") => args[2]
            .parse()
            .map_err(|_| format!("not a width: {}", args[2]))
            .and_then(|width| {
                let path = Path::new(&args[1]);
                match args.get(5) {
                    Some(cut) => cut_reference(path, width, parse_cut(cut)?),
                    None => reference(path, width).map(|(png, _)| png),
                }
            })
            .and_then(|png| write(&args[3], &png)),
        Some("lake") => lake().map(|path| println!("{path}")),
        Some("dssim") if args.len() == 3 => {
            dssim(Path::new(&args[1]), Path::new(&args[2])).map(|score| println!("{score:.6}"))
        }
        _ => Err("usage: picture_quality table [--repeat N] [--json OUT] PHOTO... | reference PHOTO WIDTH OUT.png [--cut W:H] | dssim REFERENCE.png COPY | lake".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("picture_quality: {err}");
            ExitCode::FAILURE
        }
    }
}

fn write(path: &str, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|err| format!("{path}: {err}"))
}

/// The photo read and decoded as the build reads it.
fn load(path: &Path) -> Result<(Picture, Pixels), String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let read =
        picture::read(path, &name, path, &Location::file(path)).map_err(|err| err.to_string())?;
    let pixels = encode::decode(&read.picture, &read.file).map_err(|err| err.to_string())?;
    Ok((read.picture, pixels))
}

fn variant(format: Format, width: u32, height: u32) -> Variant {
    Variant {
        format,
        width,
        height,
        path: String::new(),
        crop: None,
    }
}

/// The photo at `width` as the build resizes it, unencoded (PNG), and its
/// pixels.
fn reference(path: &Path, width: u32) -> Result<(Vec<u8>, Pixels), String> {
    let (picture, pixels) = load(path)?;
    let height = variants::scaled_height(&picture, width);
    let png = encode::encode_with(
        &pixels,
        &[variant(Format::Png, width, height)],
        &variants::ENCODING,
        None,
    )
    .map_err(|failure| failure.to_string())?
    .remove(0);
    let resized = Pixels {
        // The PNG copy is RGBA for a photo with alpha; DSSIM is taken on RGB.
        data: {
            let decoded = curbside::media::png_file::decode(&png).map_err(|err| err.to_string())?;
            if decoded.channels.has_alpha() {
                curbside::media::colour::without_alpha(&decoded.data)
            } else {
                decoded.data
            }
        },
        width,
        height,
        alpha: false,
    };
    Ok((png, resized))
}

/// A proportion written `W:H`.
fn parse_cut(text: &str) -> Result<(u32, u32), String> {
    let parse = |part: Option<&str>| part.and_then(|n| n.parse::<u32>().ok()).filter(|n| *n > 0);
    let mut parts = text.split(':');
    match (parse(parts.next()), parse(parts.next()), parts.next()) {
        (Some(w), Some(h), None) => Ok((w, h)),
        _ => Err(format!("not a proportion W:H: {text:?}")),
    }
}

/// The part of the photo in proportion `aspect`, centred, at `width` as the
/// build cuts and resizes it, unencoded (PNG): the copy's height is the one
/// the build plans for that cut.
fn cut_reference(path: &Path, width: u32, aspect: (u32, u32)) -> Result<Vec<u8>, String> {
    let (picture, pixels) = load(path)?;
    let crop = Crop::around(picture.width, picture.height, aspect, Focus::CENTRE);
    let frame = Frame {
        crop: Some(crop),
        // One width, for the life of this command.
        widths: Box::leak(Box::new([width])),
    };
    let planned = variants::plan(&picture, false, &frame)
        .into_iter()
        .find(|v| v.format == Format::Webp && v.width == width)
        .ok_or_else(|| format!("a cut {} px wide has no copy {width} px wide", crop.width))?;
    let copy = Variant {
        format: Format::Png,
        path: String::new(),
        ..planned
    };
    Ok(
        encode::encode_with(&pixels, &[copy], &variants::ENCODING, None)
            .map_err(|failure| failure.to_string())?
            .remove(0),
    )
}

/// A WebP or JPEG copy decoded to PNG: WebP by libwebp, as browsers do.
fn to_png(bytes: &[u8]) -> Result<Vec<u8>, String> {
    // By the file's own first bytes, never by elimination: an AVIF copy that
    // another tool decoded arrives as a PNG.
    let (data, width, height, alpha) = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Ok(bytes.to_vec());
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        let decoded = webp::Decoder::new(bytes)
            .decode()
            .ok_or("libwebp could not decode the copy")?;
        (
            decoded.to_vec(),
            decoded.width(),
            decoded.height(),
            decoded.is_alpha(),
        )
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        // The build's JPEG copies are RGB without a profile.
        let decoded = curbside::media::jpeg::decode(bytes).map_err(|err| err.to_string())?;
        (decoded.data, decoded.width, decoded.height, false)
    } else {
        let start: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
        return Err(format!(
            "a copy this bench cannot read (it starts {}): give it as PNG, WebP or JPEG",
            start.join(" ")
        ));
    };
    curbside::media::png_file::encode(&data, width, height, alpha).map_err(|err| err.to_string())
}

/// DSSIM of `copy` (any format [`to_png`] reads) against `reference` (PNG).
fn dssim(reference: &Path, copy: &Path) -> Result<f64, String> {
    let bytes = std::fs::read(copy).map_err(|err| format!("{}: {err}", copy.display()))?;
    let decoded = copy.with_extension("decoded.png");
    std::fs::write(&decoded, to_png(&bytes)?).map_err(|err| err.to_string())?;
    let program = std::env::var("DSSIM").unwrap_or_else(|_| "dssim".into());
    let output = Command::new(&program)
        .arg(reference)
        .arg(&decoded)
        .output()
        .map_err(|err| format!("could not run {program} (cargo install dssim --locked): {err}"))?;
    let _ = std::fs::remove_file(&decoded);
    if !output.status.success() {
        return Err(format!(
            "{program} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    // `dssim A B` prints "SCORE\tB".
    let text = String::from_utf8_lossy(&output.stdout);
    text.split_whitespace()
        .next()
        .and_then(|score| score.parse().ok())
        .ok_or_else(|| format!("{program} printed no score: {text}"))
}

/// A real photograph, 4000 × 2250, that is already on disk: the `webp`
/// crate's package ships it (assets/lake.jpg), so nothing is downloaded.
fn lake() -> Result<String, String> {
    let output = Command::new("cargo")
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .map_err(|err| format!("could not run cargo metadata: {err}"))?;
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).map_err(|err| err.to_string())?;
    let manifest = metadata["packages"]
        .as_array()
        .and_then(|packages| packages.iter().find(|p| p["name"] == "webp"))
        .and_then(|webp| webp["manifest_path"].as_str())
        .ok_or("cargo metadata lists no webp package")?;
    let path = Path::new(manifest).with_file_name("assets/lake.jpg");
    if !path.is_file() {
        return Err(format!("the webp package has no {}", path.display()));
    }
    Ok(path.to_string_lossy().into_owned())
}

struct Row {
    photo: String,
    width: u32,
    setting: String,
    bytes: usize,
    ms: f64,
    dssim: f64,
}

fn table(args: &[String]) -> Result<(), String> {
    let mut repeat = 3;
    let mut json = None;
    let mut photos = Vec::new();
    let mut chosen = Vec::new();
    let mut widths = WIDTHS.to_vec();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--repeat" => {
                repeat = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--repeat takes a number")?
            }
            "--json" => json = Some(args.next().ok_or("--json takes a file")?.clone()),
            "--webp" => chosen.push(parse_webp(args.next().ok_or("--webp takes a setting")?)?),
            "--widths" => {
                widths = args
                    .next()
                    .ok_or("--widths takes a list")?
                    .split(',')
                    .map(|w| w.parse().map_err(|_| format!("not a width: {w}")))
                    .collect::<Result<_, String>>()?
            }
            "lake" => photos.push(lake()?),
            _ => photos.push(arg.clone()),
        }
    }
    if photos.is_empty() {
        return Err("name at least one photo".into());
    }
    let mut settings: Vec<(String, Format, Encoding)> = Vec::new();
    let webp = |encoding: Encoding| (webp_label(&encoding), Format::Webp, encoding);
    if chosen.is_empty() {
        for method in WEBP_METHODS {
            for quality in WEBP_QUALITIES {
                settings.push(webp(Encoding {
                    webp_quality: quality,
                    webp_method: method,
                    webp: WebpTuning::LIBWEBP,
                    ..variants::ENCODING
                }));
            }
        }
        for label in TUNED {
            settings.push(webp(parse_webp(label)?));
        }
        for quality in JPEG_QUALITIES {
            let encoding = Encoding {
                jpeg_quality: quality,
                ..variants::ENCODING
            };
            settings.push((format!("jpeg q{quality}"), Format::Jpeg, encoding));
        }
    } else {
        settings.extend(chosen.into_iter().map(webp));
    }
    let scratch = std::env::temp_dir().join(format!("picture-quality-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|err| err.to_string())?;
    let mut rows = Vec::new();
    for photo in &photos {
        let path = Path::new(photo);
        let stem = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for &width in &widths {
            let (png, pixels) = reference(path, width)?;
            let reference_path = scratch.join(format!("{stem}-{width}.png"));
            std::fs::write(&reference_path, &png).map_err(|err| err.to_string())?;
            for (setting, format, encoding) in &settings {
                let copy = [variant(*format, pixels.width, pixels.height)];
                let mut times = Vec::new();
                let mut bytes = Vec::new();
                for _ in 0..repeat.max(1) {
                    let started = Instant::now();
                    bytes = encode::encode_with(&pixels, &copy, encoding, None)
                        .map_err(|failure| failure.to_string())?
                        .remove(0);
                    times.push(started.elapsed().as_secs_f64() * 1e3);
                }
                times.sort_by(f64::total_cmp);
                let copy_path = scratch.join(format!("{stem}-{width}.{}", format.extension()));
                std::fs::write(&copy_path, &bytes).map_err(|err| err.to_string())?;
                let score = dssim(&reference_path, &copy_path)?;
                eprintln!(
                    "{stem} {width} {setting}: {} B, {:.1} ms, dssim {score:.6}",
                    bytes.len(),
                    times[times.len() / 2]
                );
                rows.push(Row {
                    photo: stem.clone(),
                    width,
                    setting: setting.clone(),
                    bytes: bytes.len(),
                    ms: times[times.len() / 2],
                    dssim: score,
                });
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);

    // One table per width, one line per setting: each photo's bytes and
    // DSSIM, and the encoding time per copy (mean over the photos).
    let stems: Vec<&str> =
        rows.iter()
            .map(|r| r.photo.as_str())
            .fold(Vec::new(), |mut stems, stem| {
                if !stems.contains(&stem) {
                    stems.push(stem);
                }
                stems
            });
    for &width in &widths {
        println!("\n{width} wide: bytes · DSSIM\n");
        let heads: Vec<String> = stems.iter().map(|s| format!(" {s} |")).collect();
        println!("| setting |{} ms per copy |", heads.concat());
        println!("|---|{}---:|", "---:|".repeat(stems.len()));
        for (setting, _, _) in &settings {
            let of: Vec<&Row> = rows
                .iter()
                .filter(|r| r.width == width && &r.setting == setting)
                .collect();
            let cells: Vec<String> = of
                .iter()
                .map(|r| format!(" {} · {:.5} |", r.bytes, r.dssim))
                .collect();
            let ms = of.iter().map(|r| r.ms).sum::<f64>() / of.len().max(1) as f64;
            println!("| {setting} |{} {ms:.0} |", cells.concat());
        }
    }
    if let Some(json) = json {
        let rows: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| {
                serde_json::json!({
                    "photo": r.photo, "width": r.width, "setting": r.setting,
                    "bytes": r.bytes, "ms": r.ms, "dssim": r.dssim,
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&rows).map_err(|err| err.to_string())?;
        write(&json, text.as_bytes())?;
    }
    Ok(())
}
