//! What a photo's header says, read before any pixel is decoded.

use super::orientation::Orientation;

pub struct Header {
    /// As stored, before the orientation turns it.
    pub width: u32,
    pub height: u32,
    pub alpha: bool,
    /// An animated WebP or an APNG.
    pub animated: bool,
    pub orientation: Orientation,
}
