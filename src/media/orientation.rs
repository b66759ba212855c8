//! Which way up a photo was taken, as its EXIF says, and the pixels turned
//! upright: a phone stores a portrait photo sideways and says so in EXIF.

/// The eight EXIF orientations, named by what turns the stored pixels upright.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    Upright,
    FlipH,
    Rotate180,
    FlipV,
    /// Mirrored along the main diagonal.
    Transpose,
    Rotate90,
    /// Mirrored along the other diagonal.
    Transverse,
    Rotate270,
}

impl Orientation {
    /// From an EXIF block (a TIFF structure, as JPEG's APP1, PNG's eXIf and
    /// WebP's EXIF chunk hold it); upright when it is missing or unreadable.
    /// A block damaged elsewhere (an editor's cut thumbnail) still gives
    /// the orientation it holds.
    pub fn from_exif(exif: Option<Vec<u8>>) -> Orientation {
        let value = exif
            .and_then(|raw| {
                exif::Reader::new()
                    .continue_on_error(true)
                    .read_raw(raw)
                    .or_else(|err| err.distill_partial_result(|_| ()))
                    .ok()
            })
            .and_then(|exif| {
                exif.get_field(exif::Tag::Orientation, exif::In::PRIMARY)
                    .and_then(|field| field.value.get_uint(0))
            });
        match value {
            Some(2) => Orientation::FlipH,
            Some(3) => Orientation::Rotate180,
            Some(4) => Orientation::FlipV,
            Some(5) => Orientation::Transpose,
            Some(6) => Orientation::Rotate90,
            Some(7) => Orientation::Transverse,
            Some(8) => Orientation::Rotate270,
            _ => Orientation::Upright,
        }
    }

    /// Whether turning it upright swaps width and height.
    pub fn quarter_turn(self) -> bool {
        matches!(
            self,
            Orientation::Transpose
                | Orientation::Rotate90
                | Orientation::Transverse
                | Orientation::Rotate270
        )
    }

    /// `data`, `width` × `height` pixels of `channels` bytes each, turned
    /// upright; the new width and height with it.
    pub fn apply(
        self,
        data: Vec<u8>,
        width: u32,
        height: u32,
        channels: usize,
    ) -> (Vec<u8>, u32, u32) {
        if self == Orientation::Upright {
            return (data, width, height);
        }
        let (w, h) = (width as usize, height as usize);
        let (out_w, out_h) = if self.quarter_turn() { (h, w) } else { (w, h) };
        let mut out = vec![0; data.len()];
        for y in 0..out_h {
            for x in 0..out_w {
                // The stored pixel shown at (x, y) once upright.
                let (sx, sy) = match self {
                    Orientation::Upright => (x, y),
                    Orientation::FlipH => (w - 1 - x, y),
                    Orientation::Rotate180 => (w - 1 - x, h - 1 - y),
                    Orientation::FlipV => (x, h - 1 - y),
                    Orientation::Transpose => (y, x),
                    Orientation::Rotate90 => (y, h - 1 - x),
                    Orientation::Transverse => (w - 1 - y, h - 1 - x),
                    Orientation::Rotate270 => (w - 1 - y, x),
                };
                let from = (sy * w + sx) * channels;
                let to = (y * out_w + x) * channels;
                out[to..to + channels].copy_from_slice(&data[from..from + channels]);
            }
        }
        (out, out_w as u32, out_h as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::Orientation::*;
    use super::*;

    /// Stored 3 × 2, one byte a pixel:
    /// ```text
    /// 1 2 3
    /// 4 5 6
    /// ```
    fn turned(orientation: Orientation) -> (Vec<u8>, u32, u32) {
        orientation.apply(vec![1, 2, 3, 4, 5, 6], 3, 2, 1)
    }

    #[test]
    fn each_orientation_turns_the_stored_pixels_upright() {
        assert_eq!(turned(Upright), (vec![1, 2, 3, 4, 5, 6], 3, 2));
        assert_eq!(turned(FlipH), (vec![3, 2, 1, 6, 5, 4], 3, 2));
        assert_eq!(turned(Rotate180), (vec![6, 5, 4, 3, 2, 1], 3, 2));
        assert_eq!(turned(FlipV), (vec![4, 5, 6, 1, 2, 3], 3, 2));
        assert_eq!(turned(Transpose), (vec![1, 4, 2, 5, 3, 6], 2, 3));
        // Clockwise: the left column, read bottom up, becomes the top row.
        assert_eq!(turned(Rotate90), (vec![4, 1, 5, 2, 6, 3], 2, 3));
        assert_eq!(turned(Transverse), (vec![6, 3, 5, 2, 4, 1], 2, 3));
        assert_eq!(turned(Rotate270), (vec![3, 6, 2, 5, 1, 4], 2, 3));
    }

    #[test]
    fn a_pixel_moves_whole() {
        let (data, w, h) = Rotate90.apply(vec![1, 1, 2, 2], 2, 1, 2);
        assert_eq!((data, w, h), (vec![1, 1, 2, 2], 1, 2));
    }

    #[test]
    fn no_exif_or_a_broken_one_is_upright() {
        assert_eq!(Orientation::from_exif(None), Upright);
        assert_eq!(Orientation::from_exif(Some(b"II*\0junk".to_vec())), Upright);
    }

    #[test]
    fn exif_damaged_after_the_orientation_still_gives_it() {
        // IFD0 holds orientation 6 (a SHORT), then points at a next IFD
        // (a thumbnail's) far past the end of the block.
        let mut tiff = b"II*\0\x08\0\0\0".to_vec();
        tiff.extend(1u16.to_le_bytes());
        tiff.extend(0x0112u16.to_le_bytes());
        tiff.extend(3u16.to_le_bytes());
        tiff.extend(1u32.to_le_bytes());
        tiff.extend(6u32.to_le_bytes());
        tiff.extend(0xFFFFu32.to_le_bytes());
        assert_eq!(Orientation::from_exif(Some(tiff)), Rotate90);
    }
}
