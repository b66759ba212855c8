//! The limits a picture is held to, each once (what a page could need at
//! most, checked before the work it bounds), and the memory a build may
//! keep pictures in.

/// A picture's file: larger files are not photos a page needs (a phone's
/// photo is 3–5 MB).
pub const MAX_BYTES: u64 = 50 * 1024 * 1024;

/// 40 megapixels: above any phone's main camera; decoding more would take
/// hundreds of megabytes for a picture shown at most 2000 pixels wide.
pub const MAX_PIXELS: u64 = 40_000_000;

/// More frames than any animation a page shows.
pub const MAX_FRAMES: u64 = 2_000;

/// The pixels of all of an animation's frames together: what a visitor's
/// browser decodes to play it once, and the build to check it. A screen
/// recording of 1920 × 1080 and 300 frames is 622 megapixels.
pub const MAX_ANIMATION_PIXELS: u64 = 1_000_000_000;

/// An SVG's text: no drawing a page shows needs more, entities expanded
/// (a detailed map exported from Illustrator is 2–5 MB).
pub const MAX_TEXT: u64 = 8 << 20;

/// What an SVG's entities may add to its text beyond the file's own size, on
/// top of doubling it: Illustrator's namespace entities add a few hundred bytes.
pub const SVG_GROWTH_ALLOWED: u64 = 64 << 10;

/// An SVG's nesting of elements: deeper is no drawing an editor makes, and
/// each level costs the stack of every reader after this one.
pub const MAX_DEPTH: usize = 256;

/// An SVG's elements, text and attributes, as the parser may create them.
pub const MAX_SVG_NODES: u32 = 500_000;

/// The photos' bytes a build keeps in memory from reading them to making
/// their copies, all together: a site of a few hundred phone photos. Past
/// it, a photo is read a second time rather than held.
pub const MAX_KEPT_BYTES: u64 = 1 << 30;
