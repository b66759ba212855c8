//! Where a placed picture is: its path as written beside the file that
//! places it, held to content/ and to the pictures the build makes copies of.

use super::picture;
use crate::diagnostics::{Diagnostic, Location, Result};

/// The picture `src`, written in `content/<from_dir>` and placed at `at`,
/// as a path from content/; or what to write instead.
pub fn in_content(from_dir: &str, src: &str, at: &Location) -> Result<String> {
    let src = src.trim();
    if src.contains("://") || src.starts_with("//") || src.starts_with("data:") {
        return Err(Diagnostic::new(format!("the picture `{src}` is on another website"))
        .at(at.clone())
        .help("save the picture in content/ (beside this file, for example) and give its path: the site loads nothing from other websites, and a picture there may change or vanish"));
    }
    if src.starts_with('/') {
        return Err(Diagnostic::new(format!("the picture path `{src}` starts with /"))
        .at(at.clone())
        .help("write it relative to this file, such as `truck.jpg` for a picture beside it or `../photos/truck.jpg`; files in content/public/ are published as they are, never as pictures the build makes smaller"));
    }
    picture::resolve(from_dir, src).ok_or_else(|| {
        Diagnostic::new(format!("the picture path `{src}` leads outside content/"))
        .at(at.clone())
        .help("keep pictures inside the content/ folder, and write their path relative to this file")
    })
}
