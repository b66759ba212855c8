//! Published copies decoded for the tests to look at, by the same decoder
//! crates the build reads photos with, and test PNGs written by `png`.

use std::io::Cursor;
use std::path::Path;

/// A decoded picture as 8-bit RGBA.
pub struct Rgba {
    pub width: u32,
    pub height: u32,
    pub data: Vec<u8>,
}

impl Rgba {
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let at = (y as usize * self.width as usize + x as usize) * 4;
        [
            self.data[at],
            self.data[at + 1],
            self.data[at + 2],
            self.data[at + 3],
        ]
    }

    /// The colours without the alpha channel.
    pub fn rgb(&self) -> Vec<u8> {
        self.data
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect()
    }
}

pub fn open(path: &Path) -> Result<Rgba, String> {
    let bytes = std::fs::read(path).map_err(|err| format!("{}: {err}", path.display()))?;
    from_memory(&bytes).map_err(|err| format!("{}: {err}", path.display()))
}

/// A JPEG, PNG or WebP, told apart by its first bytes.
pub fn from_memory(bytes: &[u8]) -> Result<Rgba, String> {
    if bytes.starts_with(&[0xFF, 0xD8]) {
        jpeg(bytes)
    } else if bytes.starts_with(b"\x89PNG") {
        png(bytes)
    } else if bytes.starts_with(b"RIFF") {
        webp(bytes)
    } else {
        Err("not a JPEG, PNG or WebP".to_string())
    }
}

fn jpeg(bytes: &[u8]) -> Result<Rgba, String> {
    use zune_core::colorspace::ColorSpace;
    let options =
        zune_core::options::DecoderOptions::default().jpeg_set_out_colorspace(ColorSpace::RGBA);
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(
        zune_core::bytestream::ZCursor::new(bytes),
        options,
    );
    let data = decoder.decode().map_err(|err| err.to_string())?;
    let (width, height) = decoder.dimensions().ok_or("no size")?;
    Ok(Rgba {
        width: width as u32,
        height: height as u32,
        data,
    })
}

fn png(bytes: &[u8]) -> Result<Rgba, String> {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|err| err.to_string())?;
    let mut buffer = vec![0; reader.output_buffer_size().ok_or("too large")?];
    let frame = reader
        .next_frame(&mut buffer)
        .map_err(|err| err.to_string())?;
    buffer.truncate(frame.buffer_size());
    let data = match frame.color_type {
        png::ColorType::Grayscale => buffer.iter().flat_map(|&v| [v, v, v, 255]).collect(),
        png::ColorType::GrayscaleAlpha => buffer
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Rgb => buffer
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::Rgba => buffer,
        png::ColorType::Indexed => return Err("palette not expanded".to_string()),
    };
    Ok(Rgba {
        width: frame.width,
        height: frame.height,
        data,
    })
}

fn webp(bytes: &[u8]) -> Result<Rgba, String> {
    let mut decoder =
        image_webp::WebPDecoder::new(Cursor::new(bytes)).map_err(|err| err.to_string())?;
    let (width, height) = decoder.dimensions();
    let mut buffer = vec![0; decoder.output_buffer_size().ok_or("too large")?];
    decoder
        .read_image(&mut buffer)
        .map_err(|err| err.to_string())?;
    let data = if decoder.has_alpha() {
        buffer
    } else {
        buffer
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect()
    };
    Ok(Rgba {
        width,
        height,
        data,
    })
}

/// A PNG of `data`, 8 bits a sample, with `profile` as its colour profile.
pub fn encode_png(
    data: &[u8],
    width: u32,
    height: u32,
    colour: png::ColorType,
    profile: Option<&[u8]>,
) -> Vec<u8> {
    let mut info = png::Info::with_size(width, height);
    info.color_type = colour;
    info.icc_profile = profile.map(|p| std::borrow::Cow::Owned(p.to_vec()));
    encode_png_as(info, data)
}

/// A PNG of `data` as `info` describes it (bit depth, palette, profile).
pub fn encode_png_as(info: png::Info, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    png::Encoder::with_info(&mut out, info)
        .expect("PNG's header")
        .write_header()
        .expect("write the header")
        .write_image_data(data)
        .expect("encode");
    out
}
