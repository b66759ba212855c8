//! Why a picture is not published, whichever check or decoder of this folder
//! found it: one type, made into one message that names the file, points to
//! where it is placed and says what the owner can do.

use std::path::Path;

use super::limits::{
    MAX_ANIMATION_PIXELS, MAX_DEPTH, MAX_FRAMES, MAX_PIXELS, MAX_TEXT, SVG_GROWTH_ALLOWED,
};
use crate::diagnostics::{Diagnostic, Location};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Cut short or damaged: the decoder's words.
    Damaged(String),
    /// More than [`MAX_PIXELS`], refused before any pixel is allocated.
    TooManyPixels { width: u32, height: u32 },
    /// Over a limit of the animation budget, which no repair would change.
    OverBudget(OverBudget),
    /// An SVG the parser cannot read: its words.
    BadDrawing(String),
    /// An SVG with an embedded photo, which may carry camera details.
    EmbeddedPicture,
    /// An SVG style naming a file or address outside the drawing.
    ExternalStyle(String),
    /// An SVG with more text than its budget: its own, or once its entities
    /// are expanded (`expanded`).
    DrawingTooLarge {
        text: u64,
        limit: u64,
        expanded: bool,
    },
    /// An SVG whose elements nest deeper than [`MAX_DEPTH`].
    TooDeep,
    /// curbside's own fault (an encoder that could not run, a copy it
    /// should never have been asked for): nothing is wrong with the picture.
    Fault(Diagnostic),
}

impl Refused {
    /// The decoder's own words for a damaged file.
    pub fn damaged(why: impl std::fmt::Display) -> Refused {
        Refused::Damaged(why.to_string())
    }

    /// What went wrong in curbside's own code, said as such.
    pub fn fault(what: impl std::fmt::Display) -> Refused {
        Refused::Fault(
            Diagnostic::new(what.to_string())
                .help("this is a fault of curbside, not of the picture: build again, and report it if it stays"),
        )
    }

    /// Why the picture `shown`, placed at `at`, is not published, and what to do.
    pub fn diagnostic(self, shown: &Path, at: &Location) -> Diagnostic {
        let shown = shown.display();
        let (message, help) = match self {
            Refused::Fault(fault) => {
                let named =
                    Diagnostic::new(format!("copies of the picture {shown} could not be made"))
                        .at(at.clone())
                        .caused_by(&fault.message);
                let named = fault.causes.iter().fold(named, Diagnostic::caused_by);
                return match &fault.help {
                    Some(help) => named.help(help.clone()),
                    None => named,
                };
            }
            Refused::Damaged(why) => {
                return Diagnostic::new(format!("the picture {shown} cannot be read"))
                    .at(at.clone())
                    .caused_by(why)
                    .help("the file may be cut short or damaged: open it in an image editor and save it again");
            }
            Refused::BadDrawing(why) => {
                return Diagnostic::new(format!("the SVG {shown} cannot be read"))
                    .at(at.clone())
                    .caused_by(why)
                    .help("open it in a browser or an SVG editor to find the mistake, and save it again");
            }
            Refused::TooManyPixels { width, height } => (
                format!(
                    "the picture {shown} is {width} × {height} pixels ({}); pictures may have at most {} megapixels",
                    megapixels(width, height),
                    MAX_PIXELS / 1_000_000
                ),
                "scale it down first, to at most 4000 pixels on its longer side: no screen shows more",
            ),
            Refused::OverBudget(over) => (
                format!("the picture {shown} is over the budget for an animation: {over}"),
                "shorten the animation or make it smaller in your editor (fewer frames, a smaller size), or publish it as a video file in content/public/ and link to it",
            ),
            Refused::EmbeddedPicture => (
                format!("the SVG {shown} has a photo embedded in it"),
                "an embedded photo can carry camera details and GPS that the build cannot remove from inside a drawing: place the photo on its own (as a JPEG or PNG), or export the drawing as PNG",
            ),
            Refused::DrawingTooLarge {
                text,
                limit,
                expanded,
            } => (
                format!(
                    "the SVG {shown} is {}{}; an SVG may be at most {} (twice its own size and {} more, and never over {})",
                    megabytes(text),
                    if expanded {
                        " of text once its entities are expanded"
                    } else {
                        ""
                    },
                    megabytes(limit),
                    megabytes(SVG_GROWTH_ALLOWED),
                    megabytes(MAX_TEXT)
                ),
                "export the drawing again as plain SVG without a DOCTYPE (Inkscape: Save As › Optimized SVG; Illustrator: File › Export › Export As › SVG), or publish a large drawing as a PNG",
            ),
            Refused::TooDeep => (
                format!("the SVG {shown} nests its parts more than {MAX_DEPTH} levels deep"),
                "ungroup the drawing in your editor (Inkscape: Object › Ungroup; Illustrator: Object › Ungroup) and save it again",
            ),
            Refused::ExternalStyle(what) => (
                format!(
                    "the SVG {shown} has a style that could load a file or font from outside the drawing ({what})"
                ),
                "the site loads nothing from other places, and a drawing's styles may only name its own parts (url(#id)): in your editor, convert text to paths (Inkscape: Path › Object to Path) and remove the linked style or image, then save again",
            ),
        };
        Diagnostic::new(message).at(at.clone()).help(help)
    }
}

impl std::fmt::Display for Refused {
    /// The bare reason, for tests and logs; owners see [`Refused::diagnostic`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Damaged(why) | Refused::BadDrawing(why) => f.write_str(why),
            Refused::TooManyPixels { width, height } => write!(
                f,
                "{width} × {height} pixels is over the {} megapixels a picture may have",
                MAX_PIXELS / 1_000_000
            ),
            Refused::OverBudget(over) => over.fmt(f),
            Refused::EmbeddedPicture => f.write_str("a photo is embedded in the drawing"),
            Refused::ExternalStyle(what) => write!(f, "a style reaches outside: {what}"),
            Refused::DrawingTooLarge { text, limit, .. } => {
                write!(f, "{text} bytes of text, over {limit}")
            }
            Refused::TooDeep => write!(f, "nested more than {MAX_DEPTH} levels deep"),
            Refused::Fault(fault) => f.write_str(&fault.message),
        }
    }
}

/// Which of an animation's limits a file is over, with its own figure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OverBudget {
    /// One frame over [`MAX_PIXELS`]: its number from 1, its size.
    Frame {
        number: u64,
        width: u32,
        height: u32,
    },
    /// More than [`MAX_FRAMES`] frames (counted up to one more).
    Frames,
    /// All frames together over [`MAX_ANIMATION_PIXELS`], counted so far.
    AllFrames { frames: u64, pixels: u64 },
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OverBudget::Frame {
                number,
                width,
                height,
            } => write!(
                f,
                "its frame {number} is {width} × {height} pixels ({}); a frame may have at most {} megapixels",
                megapixels(*width, *height),
                MAX_PIXELS / 1_000_000
            ),
            OverBudget::Frames => {
                write!(
                    f,
                    "it has more than {MAX_FRAMES} frames, the most an animation may have"
                )
            }
            OverBudget::AllFrames { frames, pixels } => write!(
                f,
                "its first {frames} frames already hold {} megapixels; all the frames of an animation may hold at most {} megapixels",
                pixels / 1_000_000,
                MAX_ANIMATION_PIXELS / 1_000_000
            ),
        }
    }
}

/// A picture's size in megapixels, as an owner reads it: `49 megapixels`.
fn megapixels(width: u32, height: u32) -> String {
    format!(
        "{:.0} megapixels",
        f64::from(width) * f64::from(height) / 1e6
    )
}

/// A size as an owner reads it: `2.4 MB`, `310 KB`.
fn megabytes(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{} KB", bytes.div_ceil(1 << 10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curbsides_own_fault_names_the_picture_and_takes_the_blame() {
        let at = Location::at("content/index.md", 3, 1);
        let shown = Refused::fault("libwebp refused its settings")
            .diagnostic(Path::new("content/photos/truck.jpg"), &at)
            .to_string();
        assert!(
            shown.starts_with("error: content/index.md:3:1: copies of the picture content/photos/truck.jpg could not be made\n  caused by: libwebp refused its settings\n  help: this is a fault of curbside, not of the picture"),
            "{shown}"
        );
    }
}
