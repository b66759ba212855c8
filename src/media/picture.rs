//! A picture the content or a layout places, as found on disk: what kind of
//! file it is, its size as shown (after the camera's orientation), and a
//! digest of its bytes that names everything made from it. Reading a
//! picture checks it: a missing file, one that is not a picture, a format
//! browsers cannot show (HEIC) and a picture too large to process are each
//! an error that says what to do.

use std::path::{Path, PathBuf};

use super::limits::MAX_BYTES;
use super::refused::Refused;
use crate::diagnostics::{Diagnostic, Location, Result};

/// The kinds of picture a site can place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    Jpeg,
    Png,
    Webp,
    /// Published as it is: an animation would lose its frames.
    Gif,
    /// Published as it is: it is already sharp at every size.
    Svg,
}

impl Kind {
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Jpeg => "jpg",
            Kind::Png => "png",
            Kind::Webp => "webp",
            Kind::Gif => "gif",
            Kind::Svg => "svg",
        }
    }

    /// Whether the picture is made into smaller copies (photos), rather than
    /// published as it is.
    pub fn processed(self) -> bool {
        matches!(self, Kind::Jpeg | Kind::Png | Kind::Webp)
    }
}

/// A picture on disk, read and checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Picture {
    /// Its path relative to `content/`, with `/`: how it is named in the
    /// cache and in the published file's name.
    pub name: String,
    pub kind: Kind,
    /// As shown: a photo the camera took sideways has its sides swapped.
    pub width: u32,
    pub height: u32,
    /// Whether it has an alpha channel: its fallback is then a PNG, as JPEG
    /// has none.
    pub alpha: bool,
    /// xxh3-128 of the file's bytes, in hexadecimal.
    pub digest: String,
    /// A WebP or PNG with several frames: published still, as its first.
    pub animated: bool,
}

impl Picture {
    /// The file's name without folder or extension, made safe for a URL: the
    /// start of every published copy's name (`bins-at-curb-800-HASH.webp`).
    pub fn stem(&self) -> String {
        let file = self.name.rsplit('/').next().unwrap_or(&self.name);
        let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
        let mut out = String::with_capacity(stem.len());
        for c in stem.chars() {
            match c {
                'a'..='z' | '0'..='9' | '-' | '_' => out.push(c),
                'A'..='Z' => out.push(c.to_ascii_lowercase()),
                _ if !out.ends_with('-') => out.push('-'),
                _ => {}
            }
        }
        let out = out.trim_matches('-');
        if out.is_empty() {
            "picture".to_string()
        } else {
            out.to_string()
        }
    }
}

/// What the first bytes of a file say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sniffed {
    Picture(Kind),
    /// HEIC or HEIF: what iPhones save by default; no browser but Safari shows it.
    Heic,
    Avif,
    /// Anything else: text, a PDF, a file cut short.
    Unknown,
}

fn sniff(bytes: &[u8]) -> Sniffed {
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Sniffed::Picture(Kind::Jpeg);
    }
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Sniffed::Picture(Kind::Png);
    }
    if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        return Sniffed::Picture(Kind::Webp);
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return Sniffed::Picture(Kind::Gif);
    }
    if bytes.len() >= 12 && &bytes[4..8] == b"ftyp" {
        return match &bytes[8..12] {
            b"avif" | b"avis" => Sniffed::Avif,
            b"heic" | b"heix" | b"hevc" | b"hevx" | b"heim" | b"heis" | b"mif1" | b"msf1" => {
                Sniffed::Heic
            }
            _ => Sniffed::Unknown,
        };
    }
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    let start = text.trim_start_matches('\u{feff}').trim_start();
    // A DTD (Illustrator's) can push the root element far down.
    let head = &bytes[..bytes.len().min(1 << 20)];
    if ["<?xml", "<svg", "<!--", "<!DOCTYPE svg"]
        .iter()
        .any(|opening| start.starts_with(opening))
        && head.windows(4).any(|w| w == b"<svg")
    {
        return Sniffed::Picture(Kind::Svg);
    }
    Sniffed::Unknown
}

/// A picture as read and checked.
pub struct ReadPicture {
    pub picture: Picture,
    /// The file's bytes, which a photo's copies are made from.
    pub file: Vec<u8>,
    /// For a GIF or an SVG, the copy to publish, cleaned as it was checked.
    pub published: Option<Vec<u8>>,
}

/// Reads and checks the picture at `path` (its `name` relative to
/// `content/`, `shown` as messages print it); `at` is where it is placed,
/// which every error points to.
pub fn read(path: &Path, name: &str, shown: &Path, at: &Location) -> Result<ReadPicture> {
    let fail =
        |message: String, help: String| Err(Diagnostic::new(message).at(at.clone()).help(help));
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return fail(
                format!("the picture {} is not there", shown.display()),
                missing_help(path),
            );
        }
        Err(err) => return Err(Diagnostic::io("read", shown, err).at(at.clone())),
    };
    if metadata.is_dir() {
        return fail(
            format!("{} is a folder, not a picture", shown.display()),
            "name a picture file, such as photos/truck.jpg".to_string(),
        );
    }
    if !metadata.is_file() {
        return Err(super::public::not_a_regular_file(shown).at(at.clone()));
    }
    if metadata.len() > MAX_BYTES {
        return fail(
            format!(
                "the picture {} is {} MB; pictures may be at most {} MB",
                shown.display(),
                metadata.len().div_ceil(1 << 20),
                MAX_BYTES >> 20
            ),
            "export it smaller first (a photo for a web page needs no more than 4000 pixels across, a few MB)".to_string(),
        );
    }
    let bytes = read_at_most(path, MAX_BYTES)
        .map_err(|err| Diagnostic::io("read", shown, err).at(at.clone()))?;
    let kind = match sniff(&bytes) {
        Sniffed::Picture(kind) => kind,
        Sniffed::Heic => {
            return fail(
                format!("{} is a HEIC photo, which browsers other than Safari cannot show", shown.display()),
                "convert it to JPEG: on an iPhone, set Settings › Camera › Formats to Most Compatible for new photos, or share the photo to Files as JPEG; on a Mac, open it in Preview and choose File › Export › JPEG; on Windows, open it in Photos and choose Save as › .jpg".to_string(),
            );
        }
        Sniffed::Avif => {
            return fail(
                format!("{} is an AVIF picture, which the build cannot read yet", shown.display()),
                "save it as JPEG (photos) or PNG (drawings, screenshots); the build makes the small modern copies itself".to_string(),
            );
        }
        Sniffed::Unknown => {
            return fail(
                format!("{} is not a picture: its bytes are not JPEG, PNG, WebP, GIF or SVG", shown.display()),
                "check that this is the right file; a picture renamed to .jpg is still what it was: open it in an image editor and export it as JPEG or PNG".to_string(),
            );
        }
    };
    let refused = |refused: Refused| refused.diagnostic(shown, at);
    let mut published = None;
    let (width, height, alpha, animated) = match kind {
        Kind::Jpeg | Kind::Png | Kind::Webp => {
            let (size, frames) = decoded_size(&bytes, kind).map_err(refused)?;
            // Published still, but a browser or editor reading the file
            // meets every frame: held to the same limits as a GIF's.
            if frames > 1 {
                super::header::FrameTally::default()
                    .add_canvas_frames(frames, size.0, size.1)
                    .map_err(|over| refused(Refused::OverBudget(over)))?;
            }
            size
        }
        Kind::Gif => gif_size(&bytes)
            .map(|(w, h)| (w, h, true, false))
            .ok_or_else(|| refused(Refused::damaged("its header is cut short")))?,
        Kind::Svg => {
            let cleaned = super::svg::clean(&bytes).map_err(refused)?;
            let size = svg_size(&cleaned)
                .map(|(w, h)| (w, h, true, false))
                .map_err(refused)?;
            published = Some(cleaned);
            size
        }
    };
    if kind != Kind::Svg {
        super::header::within_limit(width, height).map_err(refused)?;
    }
    if kind == Kind::Gif {
        // Frame by frame, once its size is known to be reasonable.
        published = Some(super::gif_file::clean(&bytes).map_err(refused)?);
    }
    let picture = Picture {
        name: name.to_string(),
        kind,
        width,
        height,
        alpha,
        digest: digest(&bytes),
        animated,
    };
    Ok(ReadPicture {
        picture,
        file: bytes,
        published,
    })
}

/// The file at `path`, refusing to read more than `limit` bytes of it (a
/// file that grows while it is read, or a device behind its name).
pub fn read_at_most(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "it is larger than {} MB",
            limit >> 20
        )));
    }
    Ok(bytes)
}

/// xxh3-128 of `bytes`, in hexadecimal: fast enough to hash a dozen photos
/// on every build, and only ever compared with itself.
pub fn digest(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// Suggests the file the author may have meant: one in the same folder whose
/// name differs only in capitals (a name that works on a Mac fails once hosted).
fn missing_help(path: &Path) -> String {
    let wanted = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let near = path
        .parent()
        .and_then(|dir| std::fs::read_dir(dir).ok())
        .and_then(|entries| {
            entries
                .filter_map(|entry| entry.ok())
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .find(|name| name.eq_ignore_ascii_case(&wanted))
        });
    match near {
        Some(near) => format!("did you mean `{near}`? Names must match exactly, capitals included"),
        None => "save the picture there, or correct the path: it is relative to the Markdown page that places it, or to content/ in home.yaml, faq.yaml and layouts".to_string(),
    }
}

/// The size a photo is shown at (its sides swapped when its orientation turns
/// it a quarter), whether it has an alpha channel, and whether it is an
/// animation (an animated WebP, an APNG).
type Size = (u32, u32, bool, bool);

/// With the number of frames.
fn decoded_size(bytes: &[u8], kind: Kind) -> std::result::Result<(Size, u64), Refused> {
    let header = match kind {
        Kind::Jpeg => super::jpeg::header(bytes)?,
        Kind::Png => super::png_file::header(bytes)?,
        Kind::Webp => super::webp_file::header(bytes)?,
        Kind::Gif | Kind::Svg => {
            return Err(Refused::fault("a GIF or an SVG has no photo header"));
        }
    };
    let (width, height) = if header.orientation.quarter_turn() {
        (header.height, header.width)
    } else {
        (header.width, header.height)
    };
    Ok((
        (width, height, header.alpha, header.animated),
        header.frames,
    ))
}

fn gif_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let width = u16::from_le_bytes([*bytes.get(6)?, *bytes.get(7)?]);
    let height = u16::from_le_bytes([*bytes.get(8)?, *bytes.get(9)?]);
    Some((u32::from(width), u32::from(height)))
}

/// The drawing's size, parsed without opening anything it names.
fn svg_size(bytes: &[u8]) -> std::result::Result<(u32, u32), Refused> {
    use resvg::usvg::{ImageHrefResolver, Options};
    let options = Options {
        image_href_resolver: ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..Options::default()
    };
    let tree = resvg::usvg::Tree::from_data(bytes, &options)
        .map_err(|err| Refused::BadDrawing(err.to_string()))?;
    let size = tree.size();
    Ok((
        size.width().round().max(1.0) as u32,
        size.height().round().max(1.0) as u32,
    ))
}

/// `content/`-relative name of a picture placed from `from` (a file under
/// `content/`, by its own `content/`-relative name) as `src`: relative to
/// that file's folder. `None` for a path that leaves `content/`.
pub fn resolve(from_dir: &str, src: &str) -> Option<String> {
    let mut parts: Vec<&str> = from_dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in src.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The name on disk of the `content/`-relative `name`, found whatever the
/// Unicode normalisation of each part (a Mac writes `é` as `e` and an
/// accent; an owner types it as one letter). `None` when there is none.
pub fn on_disk(content: &Path, name: &str) -> Option<String> {
    use unicode_normalization::UnicodeNormalization;
    let mut dir = content.to_path_buf();
    let mut found = Vec::new();
    for part in name.split('/') {
        let wanted: String = part.nfc().collect();
        let actual = if dir.join(part).exists() {
            part.to_string()
        } else {
            std::fs::read_dir(&dir)
                .ok()?
                .filter_map(|entry| entry.ok())
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .find(|entry| entry.nfc().eq(wanted.chars()))?
        };
        dir.push(&actual);
        found.push(actual);
    }
    Some(found.join("/"))
}

/// The path on disk and as shown of a `content/`-relative name.
pub fn paths(content: &Path, shown: &Path, name: &str) -> (PathBuf, PathBuf) {
    (content.join(name), shown.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_bytes_tell_the_kind() {
        assert_eq!(sniff(b"\xFF\xD8\xFF\xE0rest"), Sniffed::Picture(Kind::Jpeg));
        assert_eq!(sniff(b"\0\0\0\x18ftypheic\0\0"), Sniffed::Heic);
        assert_eq!(sniff(b"\0\0\0\x18ftypmif1\0\0"), Sniffed::Heic);
        assert_eq!(sniff(b"\0\0\0\x18ftypavif\0\0"), Sniffed::Avif);
        assert_eq!(sniff(b"hello, I am text"), Sniffed::Unknown);
        assert_eq!(
            sniff(b"<?xml version=\"1.0\"?>\n<svg/>"),
            Sniffed::Picture(Kind::Svg)
        );
        let long_dtd = format!("<!DOCTYPE svg [{}]><svg/>", "<!-- x -->".repeat(1000));
        assert_eq!(sniff(long_dtd.as_bytes()), Sniffed::Picture(Kind::Svg));
    }

    #[test]
    fn paths_resolve_from_the_placing_file_and_never_leave_content() {
        assert_eq!(
            resolve("pages", "truck.png").as_deref(),
            Some("pages/truck.png")
        );
        assert_eq!(
            resolve("pages", "../photos/a.jpg").as_deref(),
            Some("photos/a.jpg")
        );
        assert_eq!(resolve("", "photos/a.jpg").as_deref(), Some("photos/a.jpg"));
        assert_eq!(resolve("pages", "../../etc/passwd"), None);
    }

    #[test]
    fn names_are_found_whatever_their_unicode_normalisation() {
        let content = tempfile::tempdir().unwrap();
        let decomposed = "Cafe\u{301}";
        std::fs::create_dir_all(content.path().join(decomposed)).unwrap();
        std::fs::write(content.path().join(decomposed).join("menu.jpg"), "x").unwrap();
        assert_eq!(
            on_disk(content.path(), "Caf\u{e9}/menu.jpg").as_deref(),
            Some("Cafe\u{301}/menu.jpg")
        );
        assert_eq!(on_disk(content.path(), "Cafe/menu.jpg"), None);
    }

    #[test]
    fn stems_are_safe_in_an_address() {
        let picture = |name: &str| Picture {
            name: name.into(),
            kind: Kind::Jpeg,
            width: 1,
            height: 1,
            alpha: false,
            digest: String::new(),
            animated: false,
        };
        assert_eq!(picture("photos/Bins at Curb.JPG").stem(), "bins-at-curb");
        assert_eq!(picture("pages/ü.png").stem(), "picture");
    }
}
