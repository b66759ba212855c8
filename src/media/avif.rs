//! What makes the AVIF copies. The build hands one in (sharp, in Node): this
//! folder makes a copy's pixels, and never starts a process of its own.

use crate::diagnostics::Result;

pub trait AvifEncoder: Send + Sync {
    /// One copy's sRGB pixels (RGB, or RGBA with `alpha`), `size` in pixels,
    /// as an AVIF file made with `(quality, effort)`.
    fn encode(
        &self,
        pixels: &[u8],
        size: (u32, u32),
        alpha: bool,
        settings: (u8, u8),
    ) -> Result<Vec<u8>>;
}
