//! Which part of a photo a copy shows: the whole of it, or the box a layout
//! draws it in (a phone's wide band, a desktop's frame) cut around the point
//! the owner wants kept in view, so no screen downloads pixels it hides.

/// The point of a photo kept in view when it is cut: fractions of its width
/// from the left and of its height from the top.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Focus {
    pub x: f64,
    pub y: f64,
}

impl Focus {
    pub const CENTRE: Focus = Focus { x: 0.5, y: 0.5 };
}

impl Default for Focus {
    fn default() -> Focus {
        Focus::CENTRE
    }
}

/// A rectangle of an upright photo, in its pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Crop {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl Crop {
    /// The largest rectangle of a `width` × `height` photo in the proportion
    /// `aspect` (width, height), as near centred on `focus` as the photo's
    /// edges allow.
    pub fn around(width: u32, height: u32, aspect: (u32, u32), focus: Focus) -> Crop {
        let (aw, ah) = (u64::from(aspect.0.max(1)), u64::from(aspect.1.max(1)));
        let (w, h) = (u64::from(width.max(1)), u64::from(height.max(1)));
        // Full width if the photo is taller than the proportion, else full height.
        let (cw, ch) = if w * ah <= h * aw {
            (w, ((w * ah + aw / 2) / aw).clamp(1, h))
        } else {
            (((h * aw + ah / 2) / ah).clamp(1, w), h)
        };
        let start = |whole: u64, part: u64, at: f64| -> u32 {
            let wanted = at.clamp(0.0, 1.0) * whole as f64 - part as f64 / 2.0;
            wanted.round().clamp(0.0, (whole - part) as f64) as u32
        };
        Crop {
            x: start(w, cw, focus.x),
            y: start(h, ch, focus.y),
            width: cw as u32,
            height: ch as u32,
        }
    }

    /// Whether this is the whole of a `width` × `height` photo.
    pub fn is_whole(&self, width: u32, height: u32) -> bool {
        (self.x, self.y, self.width, self.height) == (0, 0, width, height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_portrait_photo_cut_to_a_wide_band_keeps_its_width_and_the_focus() {
        let middle = Crop::around(3000, 4000, (16, 9), Focus::CENTRE);
        assert_eq!(
            middle,
            Crop {
                x: 0,
                y: 1156,
                width: 3000,
                height: 1688
            }
        );
        let high = Crop::around(3000, 4000, (16, 9), Focus { x: 0.5, y: 0.25 });
        assert_eq!((high.y, high.height), (156, 1688));
        // A focus near an edge moves the band only as far as the edge.
        let top = Crop::around(3000, 4000, (16, 9), Focus { x: 0.5, y: 0.0 });
        assert_eq!(top.y, 0);
        let bottom = Crop::around(3000, 4000, (16, 9), Focus { x: 0.5, y: 1.0 });
        assert_eq!(bottom.y + bottom.height, 4000);
    }

    #[test]
    fn a_wide_photo_cut_to_a_frame_keeps_its_height() {
        let crop = Crop::around(4000, 2000, (4, 3), Focus { x: 0.75, y: 0.5 });
        assert_eq!((crop.width, crop.height), (2667, 2000));
        assert_eq!(crop.x, 1333, "as far right as the edge allows");
        let left = Crop::around(4000, 2000, (4, 3), Focus { x: 0.1, y: 0.5 });
        assert_eq!(left.x, 0);
    }

    #[test]
    fn a_photo_already_in_proportion_is_whole() {
        let crop = Crop::around(1600, 900, (16, 9), Focus { x: 0.9, y: 0.1 });
        assert!(crop.is_whole(1600, 900), "{crop:?}");
        assert!(Crop::around(1, 1, (16, 9), Focus::CENTRE).is_whole(1, 1));
    }
}
