//! Why a drawing is not published, each with what the owner can do.

use std::path::Path;

use super::budget::{MAX_DEPTH, MAX_TEXT};
use crate::diagnostics::{Diagnostic, Location};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    Unreadable(String),
    /// An embedded photo, which may carry camera details.
    EmbeddedPicture,
    /// A style naming a file or address outside the drawing.
    ExternalStyle(String),
    /// More text than the budget: the file's own, or once its entities are
    /// expanded (`expanded`).
    TooLarge {
        text: u64,
        limit: u64,
        expanded: bool,
    },
    /// Elements nested deeper than [`MAX_DEPTH`].
    TooDeep,
}

impl Refused {
    /// Why the SVG `shown`, placed at `at`, is not published, and what to do.
    pub fn diagnostic(self, shown: &Path, at: &Location) -> Diagnostic {
        let (message, help) = match self {
            Refused::Unreadable(why) => {
                return Diagnostic::new(format!("the SVG {} cannot be read", shown.display()))
                .at(at.clone())
                .caused_by(why)
                .help(
                    "open it in a browser or an SVG editor to find the mistake, and save it again",
                );
            }
            Refused::EmbeddedPicture => (
                format!("the SVG {} has a photo embedded in it", shown.display()),
                "an embedded photo can carry camera details and GPS that the build cannot remove from inside a drawing: place the photo on its own (as a JPEG or PNG), or export the drawing as PNG",
            ),
            Refused::TooLarge {
                text,
                limit,
                expanded,
            } => (
                format!(
                    "the SVG {} is {}{}; an SVG may be at most {} (twice its own size and 64 KB more, and never over {})",
                    shown.display(),
                    megabytes(text),
                    if expanded {
                        " of text once its entities are expanded"
                    } else {
                        ""
                    },
                    megabytes(limit),
                    megabytes(MAX_TEXT)
                ),
                "export the drawing again as plain SVG without a DOCTYPE (Inkscape: Save As › Optimized SVG; Illustrator: File › Export › Export As › SVG), or publish a large drawing as a PNG",
            ),
            Refused::TooDeep => (
                format!(
                    "the SVG {} nests its parts more than {} levels deep",
                    shown.display(),
                    MAX_DEPTH
                ),
                "ungroup the drawing in your editor (Inkscape: Object › Ungroup; Illustrator: Object › Ungroup) and save it again",
            ),
            Refused::ExternalStyle(what) => (
                format!(
                    "the SVG {} has a style that could load a file or font from outside the drawing ({what})",
                    shown.display()
                ),
                "the site loads nothing from other places, and a drawing's styles may only name its own parts (url(#id)): in your editor, convert text to paths (Inkscape: Path › Object to Path) and remove the linked style or image, then save again",
            ),
        };
        Diagnostic::new(message).at(at.clone()).help(help)
    }
}

/// A size as an owner reads it: `2.4 MB`, `310 KB`.
fn megabytes(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{} KB", bytes.div_ceil(1 << 10))
    }
}
