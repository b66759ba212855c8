//! Pictures in the FAQ's answers, found from `content/` and checked while
//! loading, each at its place in `faq.yaml`.

use std::path::Path;

use super::markdown;
use super::model::FaqEntry;
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::media::Library;

pub fn place(faq: &[FaqEntry], text: &str, shown: &Path, pictures: &Library) -> Result<()> {
    for (index, entry) in faq.iter().enumerate() {
        let answer = entry.answer.as_str();
        for picture in markdown::pictures(answer) {
            let written = answer[picture.offset..].lines().next().unwrap_or_default();
            let at = locate(text, index, written).map_or_else(
                || Location::file(shown),
                |(line, column)| Location::at(shown, line, column),
            );
            if !picture.described {
                return Err(Diagnostic::new(format!(
                    "the picture `{}` in this answer has no alt text",
                    picture.src
                ))
                .at(at)
                .help(format!(
                    "say what it shows between the brackets, such as `![Our truck at the curb]({})`: screen readers read it aloud; for pure decoration, write `![\"\"]({})`",
                    picture.src, picture.src
                )));
            }
            pictures.place("", &picture.src, &at)?;
        }
    }
    Ok(())
}

/// Where `written` stands within FAQ entry `index`.
fn locate(text: &str, index: usize, written: &str) -> Option<(usize, usize)> {
    let entry_start = text
        .lines()
        .enumerate()
        .filter(|(_, line)| line.starts_with('-'))
        .nth(index)?
        .0;
    let probe = written.get(..written.find(')').map_or(written.len(), |end| end + 1))?;
    text.lines()
        .enumerate()
        .skip(entry_start)
        .find_map(|(number, line)| Some((number + 1, line.find(probe)? + 1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_is_found_in_its_entry() {
        let text = "- question: A?\n  answer: ![x](a.png)\n- question: B?\n  answer: |\n    See\n    ![y](a.png) here\n";
        assert_eq!(locate(text, 0, "![x](a.png)"), Some((2, 11)));
        assert_eq!(locate(text, 1, "![y](a.png) here"), Some((6, 5)));
    }
}
