//! What a photo's header says, read before any pixel is decoded.

use super::orientation::Orientation;

/// 40 megapixels: above any phone's main camera; decoding more would take
/// hundreds of megabytes for a picture shown at most 2000 pixels wide.
pub const MAX_PIXELS: u64 = 40_000_000;

/// Refuses, before any pixel is allocated, a size over [`MAX_PIXELS`]: each
/// decoder checks it too, whoever calls it.
pub fn within_limit(width: u32, height: u32) -> Result<(), String> {
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(format!(
            "{width} × {height} pixels is over the {} megapixels a picture may have",
            MAX_PIXELS / 1_000_000
        ));
    }
    Ok(())
}

pub struct Header {
    /// As stored, before the orientation turns it.
    pub width: u32,
    pub height: u32,
    pub alpha: bool,
    /// An animated WebP or an APNG.
    pub animated: bool,
    pub orientation: Orientation,
}
