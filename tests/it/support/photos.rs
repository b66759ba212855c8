//! Pictures made for tests, as owners hand them over (phone photos, a PNG
//! with a text chunk, a colour profile to convert from), and what a
//! published picture still carries. The metadata carry [`SECRET`], which no
//! published byte may contain.

pub use super::camera::{SECRET, phone_jpeg_seeded};
use super::camera::{phone_jpeg_with, pixels_seeded};

/// Pixels `width` × `height`, RGB: the left half reddish, the right half
/// bluish, both with a gradient and noise (so they compress like a photo,
/// and a turned copy shows which way it was turned).
pub fn pixels(width: u32, height: u32) -> Vec<u8> {
    pixels_seeded(width, height, 0)
}

/// A JPEG of [`pixels`] as a phone writes it (see `camera`), with `icc` as
/// its colour profile when given.
pub fn phone_jpeg(width: u32, height: u32, orientation: u16, icc: Option<&[u8]>) -> Vec<u8> {
    phone_jpeg_with(width, height, orientation, icc, pixels(width, height))
}

/// A PNG of [`pixels`] with a text chunk holding the secret.
pub fn png_with_text(width: u32, height: u32) -> Vec<u8> {
    let mut png = super::decoded::encode_png(
        &pixels(width, height),
        width,
        height,
        png::ColorType::Rgb,
        None,
    );
    // A tEXt chunk after IHDR (8 bytes of signature, 25 of IHDR).
    let data = format!("Comment\0{SECRET}");
    let mut chunk = (data.len() as u32).to_be_bytes().to_vec();
    let mut body = b"tEXt".to_vec();
    body.extend(data.as_bytes());
    chunk.extend(&body);
    chunk.extend(crc32(&body).to_be_bytes());
    png.splice(33..33, chunk);
    png
}

pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// An ICC v2 RGB profile with sRGB's primaries and a linear tone curve
/// (gamma 1.0): a pixel of 128 in it is about 188 in sRGB. A copy left
/// unconverted keeps 128, which tells a missing conversion from a done one.
pub fn linear_rgb_profile() -> Vec<u8> {
    // Tags: desc, wtpt, rXYZ, gXYZ, bXYZ, rTRC, gTRC, bTRC (the TRCs share data).
    let xyz = |x: f64, y: f64, z: f64| {
        let mut out = b"XYZ \0\0\0\0".to_vec();
        for v in [x, y, z] {
            out.extend(((v * 65536.0).round() as i32).to_be_bytes());
        }
        out
    };
    let mut desc = b"desc\0\0\0\0".to_vec();
    let name = b"linear\0";
    desc.extend((name.len() as u32).to_be_bytes());
    desc.extend(name);
    desc.extend([0u8; 4 + 4 + 2 + 1 + 67]);
    // curv with one entry: gamma as u8Fixed8, 1.0.
    let curve = b"curv\0\0\0\0\0\0\0\x01\x01\0\0\0".to_vec();
    let data: Vec<([u8; 4], Vec<u8>)> = vec![
        (*b"desc", desc),
        (*b"wtpt", xyz(0.9642, 1.0, 0.8249)),
        (*b"rXYZ", xyz(0.4361, 0.2225, 0.0139)),
        (*b"gXYZ", xyz(0.3851, 0.7169, 0.0971)),
        (*b"bXYZ", xyz(0.1431, 0.0606, 0.7141)),
        (*b"rTRC", curve.clone()),
        (*b"gTRC", curve.clone()),
        (*b"bTRC", curve),
    ];
    let table_len = 4 + 12 * data.len();
    let mut offset = 128 + table_len;
    let mut table = (data.len() as u32).to_be_bytes().to_vec();
    let mut body = Vec::new();
    for (tag, bytes) in &data {
        table.extend(tag);
        table.extend((offset as u32).to_be_bytes());
        table.extend((bytes.len() as u32).to_be_bytes());
        body.extend(bytes);
        while body.len() % 4 != 0 {
            body.push(0);
        }
        offset = 128 + table_len + body.len();
    }
    let size = 128 + table_len + body.len();
    let mut header = vec![0u8; 128];
    header[0..4].copy_from_slice(&(size as u32).to_be_bytes());
    header[8..12].copy_from_slice(&[2, 0x10, 0, 0]);
    header[12..16].copy_from_slice(b"mntr");
    header[16..20].copy_from_slice(b"RGB ");
    header[20..24].copy_from_slice(b"XYZ ");
    header[36..40].copy_from_slice(b"acsp");
    // Rendering intent 0; the illuminant, D50.
    for (i, v) in [0.9642f64, 1.0, 0.8249].iter().enumerate() {
        let at = 68 + i * 4;
        header[at..at + 4].copy_from_slice(&((v * 65536.0).round() as i32).to_be_bytes());
    }
    let mut profile = header;
    profile.extend(table);
    profile.extend(body);
    profile
}

/// The metadata blocks of a published picture, by name: every JPEG segment
/// but the image data and JFIF's, every PNG chunk but the image's, every
/// WebP chunk but the image's. Empty for a clean copy.
pub fn metadata_blocks(bytes: &[u8]) -> Vec<String> {
    let mut found = Vec::new();
    if bytes.starts_with(&[0xFF, 0xD8]) {
        let mut at = 2;
        while at + 4 <= bytes.len() && bytes[at] == 0xFF {
            let marker = bytes[at + 1];
            if marker == 0xDA {
                break;
            }
            let len = u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]) as usize;
            let body = &bytes[at + 4..(at + 2 + len).min(bytes.len())];
            let is_jfif = marker == 0xE0 && body.starts_with(b"JFIF\0");
            if (0xE0..=0xEF).contains(&marker) && !is_jfif || marker == 0xFE {
                found.push(format!("JPEG segment {marker:#04X}"));
            }
            at += 2 + len;
        }
    } else if bytes.starts_with(b"\x89PNG") {
        let mut at = 8;
        while at + 8 <= bytes.len() {
            let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap_or_default()) as usize;
            let kind = String::from_utf8_lossy(&bytes[at + 4..at + 8]).into_owned();
            if ![
                "IHDR", "PLTE", "IDAT", "IEND", "tRNS", "sRGB", "gAMA", "cHRM", "pHYs",
            ]
            .contains(&kind.as_str())
            {
                found.push(format!("PNG chunk {kind}"));
            }
            at += 12 + len;
        }
    } else if bytes.starts_with(b"RIFF") {
        let mut at = 12;
        while at + 8 <= bytes.len() {
            let kind = String::from_utf8_lossy(&bytes[at..at + 4]).into_owned();
            let len =
                u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap_or_default()) as usize;
            if !["VP8 ", "VP8L", "VP8X", "ALPH"].contains(&kind.as_str()) {
                found.push(format!("WebP chunk {kind}"));
            }
            at += 8 + len + len % 2;
        }
    } else if bytes.get(4..8) == Some(b"ftyp") {
        // AVIF: a file of boxes. Metadata would be another item than the AV1
        // image (Exif, or XMP as "mime"), a colour profile, or another box.
        for (kind, body) in boxes(bytes) {
            match kind {
                "ftyp" | "mdat" => {}
                "meta" => {
                    for (kind, body) in boxes(body.get(4..).unwrap_or_default()) {
                        match kind {
                            "iinf" => found.extend(
                                item_types(body)
                                    .into_iter()
                                    .filter(|t| t != "av01")
                                    .map(|t| format!("AVIF item {t}")),
                            ),
                            "iprp" => {
                                for (kind, body) in properties(body) {
                                    let colour = body.get(..4).map(String::from_utf8_lossy);
                                    if kind == "colr" && colour.as_deref() != Some("nclx") {
                                        found.push("AVIF colour profile".to_string());
                                    }
                                }
                            }
                            "hdlr" | "pitm" | "iloc" | "iref" => {}
                            other => found.push(format!("AVIF box meta/{other}")),
                        }
                    }
                }
                other => found.push(format!("AVIF box {other}")),
            }
        }
    } else {
        found.push("not a JPEG, PNG, WebP or AVIF".to_string());
    }
    found
}

/// How many AV1 images an AVIF holds: 1 for the picture alone, 2 when an
/// alpha plane comes with it.
pub fn avif_images(bytes: &[u8]) -> usize {
    let Some((_, meta)) = boxes(bytes).into_iter().find(|(k, _)| *k == "meta") else {
        return 0;
    };
    boxes(meta.get(4..).unwrap_or_default())
        .into_iter()
        .filter(|(kind, _)| *kind == "iinf")
        .flat_map(|(_, iinf)| item_types(iinf))
        .filter(|kind| kind == "av01")
        .count()
}

/// The boxes of an ISOBMFF (AVIF) file or box body: type and body.
fn boxes(mut data: &[u8]) -> Vec<(&str, &[u8])> {
    let mut found = Vec::new();
    while data.len() >= 8 {
        let size = u32::from_be_bytes([data[0], data[1], data[2], data[3]]) as usize;
        let kind = std::str::from_utf8(&data[4..8]).unwrap_or("????");
        let size = if size == 0 { data.len() } else { size };
        if size < 8 || size > data.len() {
            found.push(("(cut short)", &data[..0]));
            break;
        }
        found.push((kind, &data[8..size]));
        data = &data[size..];
    }
    found
}

/// The properties an AVIF's `iprp` box holds (the boxes of its `ipco`).
fn properties(iprp: &[u8]) -> Vec<(&str, &[u8])> {
    boxes(iprp)
        .into_iter()
        .filter(|(kind, _)| *kind == "ipco")
        .flat_map(|(_, ipco)| boxes(ipco))
        .collect()
}

/// The item types an AVIF's `iinf` box lists (`infe` version 2 and 3).
fn item_types(iinf: &[u8]) -> Vec<String> {
    let version = iinf.first().copied().unwrap_or(0);
    let entries = iinf
        .get(if version == 0 { 6 } else { 8 }..)
        .unwrap_or_default();
    boxes(entries)
        .into_iter()
        .filter(|(kind, _)| *kind == "infe")
        .map(|(_, body)| {
            let at = if body.first() == Some(&3) { 10 } else { 8 };
            body.get(at..at + 4)
                .map_or("(short infe)".to_string(), |t| {
                    String::from_utf8_lossy(t).into_owned()
                })
        })
        .collect()
}

/// An AVIF's pixel size, from its `ispe` property.
pub fn avif_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let meta = boxes(bytes).into_iter().find(|(k, _)| *k == "meta")?.1;
    let iprp = boxes(meta.get(4..)?)
        .into_iter()
        .find(|(k, _)| *k == "iprp")?
        .1;
    let ispe = properties(iprp).into_iter().find(|(k, _)| *k == "ispe")?.1;
    let number = |at: usize| Some(u32::from_be_bytes(ispe.get(at..at + 4)?.try_into().ok()?));
    Some((number(4)?, number(8)?))
}
