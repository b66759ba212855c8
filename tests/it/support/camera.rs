//! A photo as a phone's camera writes it: a JPEG of a made-up scene with an
//! EXIF block holding the orientation and a GPS position, an XMP packet,
//! IPTC data, a comment and, when given, a colour profile. Nothing is
//! downloaded. The metadata carry [`SECRET`], which no published byte may
//! contain.
//!
//! The tests use it through `photos`; the picture benchmark's `make_photos`
//! example includes this file as it is, so all of it is what that example
//! needs.

/// Written into every metadata block of a test photo.
pub const SECRET: &str = "CURBSIDE-OWNER-AT-HOME";

/// A scene for each `seed` but 0: a dusk sky, a horizon, a street and two
/// bins, with fine grain, so a photo compresses like one rather than like
/// noise. Seed 0 is the tests' `photos::pixels`: two halves, left reddish and
/// right bluish, so a turned copy shows which way it was turned.
pub fn pixels_seeded(width: u32, height: u32, seed: u32) -> Vec<u8> {
    let mut data = Vec::with_capacity(width as usize * height as usize * 3);
    let mut state: u32 = 0x9e37_79b9 ^ seed.wrapping_mul(0x85eb_ca6b);
    let (w, h) = (width.max(1) as f32, height.max(1) as f32);
    let shift = (seed % 7) as f32 / 7.0;
    for y in 0..height {
        for x in 0..width {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            if seed == 0 {
                // A camera's fine grain: wider white noise costs the AVIF
                // encoder four times a photo's time, in every test that builds.
                let noise = (state % 9) as u8;
                let shade = (60 * y / height.max(1)) as u8;
                let (r, g, b) = if x < width / 2 {
                    (200 - shade, 40 + shade, 40)
                } else {
                    (40, 60 + shade, 200 - shade)
                };
                data.extend([
                    r.saturating_add(noise),
                    g.saturating_add(noise),
                    b.saturating_add(noise),
                ]);
                continue;
            }
            let (fx, fy) = (x as f32 / w, y as f32 / h);
            let grain = (state % 9) as f32 - 4.0;
            let horizon = 0.55 + 0.05 * (fx * 6.0 + shift * 6.0).sin();
            let (mut r, mut g, mut b) = if fy < horizon {
                // Sky: deep blue above, orange near the horizon.
                let t = fy / horizon;
                (40.0 + 200.0 * t, 50.0 + 100.0 * t, 120.0 - 40.0 * t)
            } else {
                // Street: grey, lighter towards the viewer.
                let t = (fy - horizon) / (1.0 - horizon);
                (70.0 + 60.0 * t, 72.0 + 58.0 * t, 75.0 + 50.0 * t)
            };
            let sun = ((fx - 0.2 - shift * 0.5).powi(2) + (fy - horizon + 0.08).powi(2)).sqrt();
            if sun < 0.05 {
                (r, g, b) = (250.0, 210.0, 140.0);
            }
            for (left, colour) in [
                (0.55 + shift * 0.2, (30.0, 110.0, 60.0)),
                (0.7 + shift * 0.2, (40.0, 80.0, 150.0)),
            ] {
                if fx > left && fx < left + 0.1 && fy > 0.5 && fy < 0.85 {
                    let edge = ((fx - left) * 40.0).sin().abs() * 12.0;
                    (r, g, b) = (colour.0 + edge, colour.1 + edge, colour.2 + edge);
                }
            }
            data.extend([r, g, b].map(|c| (c + grain).clamp(0.0, 255.0) as u8));
        }
    }
    data
}

/// A JPEG of [`pixels_seeded`], without a colour profile.
pub fn phone_jpeg_seeded(width: u32, height: u32, orientation: u16, seed: u32) -> Vec<u8> {
    phone_jpeg_with(
        width,
        height,
        orientation,
        None,
        pixels_seeded(width, height, seed),
    )
}

/// A JPEG of `pixels`, stored as the sensor saw it, with EXIF orientation
/// `orientation` (6: turn a quarter clockwise to show it), a GPS position,
/// XMP, IPTC, a comment, and `icc` as its colour profile when given.
pub fn phone_jpeg_with(
    width: u32,
    height: u32,
    orientation: u16,
    icc: Option<&[u8]>,
    pixels: Vec<u8>,
) -> Vec<u8> {
    let mut jpeg = Vec::new();
    let mut encoder = jpeg_encoder::Encoder::new(&mut jpeg, 92);
    encoder
        .add_exif_metadata(&exif(orientation))
        .expect("add EXIF");
    let mut xmp = b"http://ns.adobe.com/xap/1.0/\0".to_vec();
    xmp.extend(
        format!(
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:GPSLatitude=\"44,18.6N\" exif:UserComment=\"{SECRET}\"/></rdf:RDF></x:xmpmeta>"
        )
        .as_bytes(),
    );
    encoder.add_app_segment(1, xmp).expect("add XMP");
    let mut iptc = b"Photoshop 3.0\08BIM\x04\x04\0\0".to_vec();
    let record = format!("\x1c\x02\x5a\0\x16{SECRET}");
    iptc.extend((record.len() as u32).to_be_bytes());
    iptc.extend(record.as_bytes());
    encoder.add_app_segment(13, iptc).expect("add IPTC");
    if let Some(icc) = icc {
        encoder
            .add_icc_profile(icc)
            .expect("add the colour profile");
    }
    encoder
        .encode(
            &pixels,
            width as u16,
            height as u16,
            jpeg_encoder::ColorType::Rgb,
        )
        .expect("encode the photo");
    // A comment (COM) segment right after the start of the image.
    let comment = format!("taken at {SECRET}");
    let mut segment = vec![0xFF, 0xFE];
    segment.extend(((comment.len() + 2) as u16).to_be_bytes());
    segment.extend(comment.as_bytes());
    jpeg.splice(2..2, segment);
    jpeg
}

/// A little-endian TIFF structure with the orientation in IFD0 and a GPS
/// IFD at latitude 44°18'36" N, longitude 96°47'24" W (Brookings).
pub fn exif(orientation: u16) -> Vec<u8> {
    let mut tiff = b"II*\0\x08\0\0\0".to_vec();
    let entry = |out: &mut Vec<u8>, tag: u16, kind: u16, count: u32, value: u32| {
        out.extend(tag.to_le_bytes());
        out.extend(kind.to_le_bytes());
        out.extend(count.to_le_bytes());
        out.extend(value.to_le_bytes());
    };
    // IFD0 at 8: 3 entries (12 bytes each) + count + next = 42 bytes; the
    // GPS IFD follows at 50.
    let gps_at = 8 + 2 + 3 * 12 + 4;
    tiff.extend(3u16.to_le_bytes());
    entry(&mut tiff, 0x0112, 3, 1, u32::from(orientation));
    // ImageDescription, pointing at the secret after the GPS data.
    let gps_entries = 4u32;
    let gps_len = 2 + gps_entries * 12 + 4;
    let rationals_at = gps_at + gps_len;
    let text_at = rationals_at + 2 * 24;
    entry(&mut tiff, 0x010E, 2, SECRET.len() as u32 + 1, text_at);
    entry(&mut tiff, 0x8825, 4, 1, gps_at);
    tiff.extend(0u32.to_le_bytes());
    tiff.extend((gps_entries as u16).to_le_bytes());
    entry(&mut tiff, 0x0001, 2, 2, u32::from_le_bytes(*b"N\0\0\0"));
    entry(&mut tiff, 0x0002, 5, 3, rationals_at);
    entry(&mut tiff, 0x0003, 2, 2, u32::from_le_bytes(*b"W\0\0\0"));
    entry(&mut tiff, 0x0004, 5, 3, rationals_at + 24);
    tiff.extend(0u32.to_le_bytes());
    for (degrees, minutes, seconds) in [(44u32, 18u32, 36u32), (96, 47, 24)] {
        for value in [degrees, minutes, seconds] {
            tiff.extend(value.to_le_bytes());
            tiff.extend(1u32.to_le_bytes());
        }
    }
    tiff.extend(SECRET.as_bytes());
    tiff.push(0);
    tiff
}
