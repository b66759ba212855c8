//! Colours as the photographer saw them: pixels in whatever space their ICC
//! profile names (Display P3, Adobe RGB, CMYK, a scanner's grey) converted to
//! sRGB, the one every browser assumes. A profile that cannot be honoured is an
//! error, never wrong colours.

use super::orientation::Orientation;
use super::refused::Refused;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channels {
    Grey,
    GreyAlpha,
    Rgb,
    Rgba,
    /// Ink amounts, 0 for none, as profiles describe them.
    Cmyk,
}

impl Channels {
    pub fn has_alpha(self) -> bool {
        matches!(self, Channels::GreyAlpha | Channels::Rgba)
    }

    fn count(self) -> usize {
        match self {
            Channels::Grey => 1,
            Channels::GreyAlpha => 2,
            Channels::Rgb => 3,
            Channels::Rgba | Channels::Cmyk => 4,
        }
    }

    fn space(self) -> &'static [u8; 4] {
        match self {
            Channels::Grey | Channels::GreyAlpha => b"GRAY",
            Channels::Rgb | Channels::Rgba => b"RGB ",
            Channels::Cmyk => b"CMYK",
        }
    }

    fn named(self) -> &'static str {
        match self {
            Channels::Grey | Channels::GreyAlpha => "grey",
            Channels::Rgb | Channels::Rgba => "RGB",
            Channels::Cmyk => "CMYK",
        }
    }
}

/// RGB of RGBA pixels.
pub fn without_alpha(rgba: &[u8]) -> Vec<u8> {
    rgba.chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect()
}

/// Before colour management.
pub struct Decoded {
    pub data: Vec<u8>,
    pub channels: Channels,
    pub width: u32,
    pub height: u32,
    pub profile: Option<Vec<u8>>,
    /// As EXIF says.
    pub orientation: Orientation,
}

/// In sRGB, RGBA with an alpha channel, RGB otherwise. Without a profile RGB
/// and grey are taken as sRGB's, and CMYK converted by browsers' plain formula.
pub fn to_srgb(decoded: Decoded) -> Result<Vec<u8>, Refused> {
    let Decoded {
        data,
        channels,
        profile,
        ..
    } = decoded;
    if data.len() % channels.count() != 0 {
        return Err(Refused::damaged("the decoder gave a partial pixel"));
    }
    match profile {
        Some(profile) => with_profile(data, channels, &profile),
        None => Ok(without_profile(data, channels)),
    }
}

fn without_profile(data: Vec<u8>, channels: Channels) -> Vec<u8> {
    match channels {
        Channels::Rgb | Channels::Rgba => data,
        Channels::Grey => data.iter().flat_map(|&v| [v, v, v]).collect(),
        Channels::GreyAlpha => data
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        Channels::Cmyk => data
            .chunks_exact(4)
            .flat_map(|p| {
                let white = 255 - u32::from(p[3]);
                let ink = |c: u8| ((255 - u32::from(c)) * white + 127) / 255;
                [ink(p[0]) as u8, ink(p[1]) as u8, ink(p[2]) as u8]
            })
            .collect(),
    }
}

fn with_profile(mut data: Vec<u8>, channels: Channels, profile: &[u8]) -> Result<Vec<u8>, Refused> {
    let space = profile.get(16..20).unwrap_or_default();
    if space != channels.space() {
        return Err(Refused::Damaged(format!(
            "its colour profile is for {} pixels, but the pixels are {}",
            String::from_utf8_lossy(space).trim(),
            channels.named()
        )));
    }
    let input = qcms::Profile::new_from_slice(profile, false)
        .ok_or_else(|| Refused::damaged("its colour profile cannot be read"))?;
    if input.is_sRGB() && matches!(channels, Channels::Rgb | Channels::Rgba) {
        return Ok(data);
    }
    let mut output = qcms::Profile::new_sRGB();
    output.precache_output_transform();
    use qcms::DataType;
    let (from, to) = match channels {
        Channels::Grey => (DataType::Gray8, DataType::RGB8),
        Channels::GreyAlpha => (DataType::GrayA8, DataType::RGBA8),
        Channels::Rgb => (DataType::RGB8, DataType::RGB8),
        Channels::Rgba => (DataType::RGBA8, DataType::RGBA8),
        Channels::Cmyk => (DataType::CMYK, DataType::RGB8),
    };
    let transform = qcms::Transform::new_to(&input, &output, from, to, qcms::Intent::Perceptual)
        .ok_or_else(|| Refused::damaged("its colour profile cannot be applied"))?;
    if from == to {
        transform.apply(&mut data);
        return Ok(data);
    }
    let pixels = data.len() / channels.count();
    let mut out = vec![0; pixels * to.bytes_per_pixel()];
    transform.convert(&data, &mut out);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(data: Vec<u8>, channels: Channels, profile: Option<Vec<u8>>) -> Decoded {
        Decoded {
            data,
            channels,
            width: 1,
            height: 1,
            profile,
            orientation: Orientation::Upright,
        }
    }

    #[test]
    fn without_a_profile_grey_and_cmyk_become_rgb() {
        let grey = to_srgb(decoded(vec![7, 200], Channels::GreyAlpha, None)).unwrap();
        assert_eq!(grey, [7, 7, 7, 200]);
        // No ink is white; full black ink is black; full cyan is cyan.
        let cmyk = to_srgb(decoded(
            vec![0, 0, 0, 0, 0, 0, 0, 255, 255, 0, 0, 0],
            Channels::Cmyk,
            None,
        ))
        .unwrap();
        assert_eq!(cmyk, [255, 255, 255, 0, 0, 0, 0, 255, 255]);
    }

    #[test]
    fn a_profile_for_other_pixels_is_an_error() {
        let mut profile = vec![0u8; 128];
        profile[16..20].copy_from_slice(b"CMYK");
        let err = to_srgb(decoded(vec![1, 2, 3], Channels::Rgb, Some(profile))).unwrap_err();
        assert!(
            err.to_string()
                .contains("for CMYK pixels, but the pixels are RGB"),
            "{err}"
        );
    }
}
