//! What a photo's header says, read before any pixel is decoded.

use super::limits::{MAX_ANIMATION_PIXELS, MAX_FRAMES, MAX_PIXELS};
use super::orientation::Orientation;
use super::refused::{OverBudget, Refused};

/// Refuses, before any pixel is allocated, a size over [`MAX_PIXELS`]: each
/// decoder checks it too, whoever calls it.
pub fn within_limit(width: u32, height: u32) -> Result<(), Refused> {
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(Refused::TooManyPixels { width, height });
    }
    Ok(())
}

/// An animation's frames counted one by one from their headers, refused at
/// the first that breaks a limit: before any of them is decoded.
#[derive(Debug, Default)]
pub struct FrameTally {
    frames: u64,
    pixels: u64,
}

impl FrameTally {
    pub fn add(&mut self, width: u32, height: u32) -> Result<(), OverBudget> {
        self.frames += 1;
        let area = u64::from(width) * u64::from(height);
        if area > MAX_PIXELS {
            return Err(OverBudget::Frame {
                number: self.frames,
                width,
                height,
            });
        }
        if self.frames > MAX_FRAMES {
            return Err(OverBudget::Frames);
        }
        self.pixels += area;
        if self.pixels > MAX_ANIMATION_PIXELS {
            return Err(OverBudget::AllFrames {
                frames: self.frames,
                pixels: self.pixels,
            });
        }
        Ok(())
    }

    /// `frames` frames of the whole canvas: an APNG's or a WebP's bound,
    /// whose frames are each at most the canvas.
    pub fn add_canvas_frames(
        &mut self,
        frames: u64,
        width: u32,
        height: u32,
    ) -> Result<(), OverBudget> {
        for _ in 0..frames.min(MAX_FRAMES + 1) {
            self.add(width, height)?;
        }
        Ok(())
    }
}

pub struct Header {
    /// As stored, before the orientation turns it.
    pub width: u32,
    pub height: u32,
    pub alpha: bool,
    /// An animated WebP or an APNG.
    pub animated: bool,
    /// The frames of an animation (1 for a still picture).
    pub frames: u64,
    pub orientation: Orientation,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_frame_then_the_count_then_the_sum_is_held() {
        let mut tally = FrameTally::default();
        assert_eq!(
            tally.add(7000, 7000),
            Err(OverBudget::Frame {
                number: 1,
                width: 7000,
                height: 7000
            })
        );
        let mut tally = FrameTally::default();
        assert_eq!(tally.add_canvas_frames(MAX_FRAMES, 1, 1), Ok(()));
        assert_eq!(tally.add(1, 1), Err(OverBudget::Frames));
        // 1920 × 1080 × 300: a screen recording fits; 1000 megapixels is the line.
        let mut tally = FrameTally::default();
        assert_eq!(tally.add_canvas_frames(300, 1920, 1080), Ok(()));
        let mut tally = FrameTally::default();
        assert_eq!(
            tally.add_canvas_frames(41, 5000, 5000),
            Err(OverBudget::AllFrames {
                frames: 41,
                pixels: 1_025_000_000
            })
        );
    }
}
