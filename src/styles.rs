//! The stylesheets and icon of layouts/assets/: read, checked, minified by
//! esbuild through the island server.

use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Location, Result};
use crate::node::Stylesheet;
use crate::text::line_column;

pub struct Sheet {
    pub shown: PathBuf,
    pub css: String,
}

pub struct Styles {
    /// Every `*.css` but nojs.css, by name: one stylesheet, inlined in every page.
    pub site: Vec<Sheet>,
    pub nojs: Sheet,
    pub favicon: Vec<u8>,
}

pub struct Minified {
    pub site: String,
    pub nojs: String,
}

pub fn read(dir: &Path, shown: &Path) -> Result<Styles> {
    let bytes = |name: &str| {
        std::fs::read(dir.join(name)).map_err(|err| {
            Diagnostic::new("could not read this file")
                .caused_by(err)
                .at(Location::file(shown.join(name)))
                .help("restore it from the repository's own layouts/assets/ folder")
        })
    };
    let sheet = |name: &str| -> Result<Sheet> {
        let shown = shown.join(name);
        let css = String::from_utf8(bytes(name)?).map_err(|_| {
            Diagnostic::new("this stylesheet is not UTF-8 text")
                .at(Location::file(&shown))
                .help("save it with UTF-8 encoding")
        })?;
        Ok(Sheet { shown, css })
    };
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|err| Diagnostic::io("read the folder", shown, err).at(Location::file(shown)))?
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".css") && name != "nojs.css")
        .collect();
    names.sort();
    let site = names
        .iter()
        .map(|name| {
            let sheet = sheet(name)?;
            // Inlined in a <style>, which this would close.
            if let Some(at) = closing_style_tag(&sheet.css) {
                let (line, column) = line_column(&sheet.css.as_bytes()[..at]);
                return Err(Diagnostic::new("a stylesheet cannot contain `</style`")
                    .at(Location::at(&sheet.shown, line, column))
                    .help("remove it; write `<\\/style` inside a CSS string if you really need the text"));
            }
            Ok(sheet)
        })
        .collect::<Result<_>>()?;
    Ok(Styles {
        site,
        nojs: sheet("nojs.css")?,
        favicon: bytes("favicon.svg")?,
    })
}

fn closing_style_tag(css: &str) -> Option<usize> {
    css.to_ascii_lowercase().find("</style")
}

/// Minifies through the caller's `minify`, keeping the last result: most
/// preview rebuilds change content, not styles.
#[derive(Default)]
pub struct Minifier {
    last: Option<(Vec<String>, Vec<String>)>,
}

impl Minifier {
    pub fn minify(
        &mut self,
        styles: &Styles,
        minify: impl FnOnce(&[Stylesheet]) -> Result<Vec<String>>,
    ) -> Result<Minified> {
        let sheets: Vec<&Sheet> = styles.site.iter().chain([&styles.nojs]).collect();
        let sources: Vec<String> = sheets.iter().map(|sheet| sheet.css.clone()).collect();
        let minified = match self.last.take() {
            Some((last, minified)) if last == sources => minified,
            _ => minify(
                &sheets
                    .iter()
                    .map(|sheet| Stylesheet {
                        shown: &sheet.shown,
                        css: &sheet.css,
                    })
                    .collect::<Vec<_>>(),
            )?,
        };
        let Some((nojs, site)) = minified.split_last() else {
            return Err(Diagnostic::new("no stylesheet came back from minifying"));
        };
        let result = Minified {
            site: site.concat(),
            nojs: nojs.clone(),
        };
        // esbuild could still write one from an escape.
        if closing_style_tag(&result.site).is_some() {
            return Err(Diagnostic::new(
                "the minified stylesheet contains `</style`, which would end the page's <style> element",
            )
            .help("look for `\\3c/style` or similar escapes in the stylesheets of layouts/assets/"));
        }
        self.last = Some((sources, minified));
        Ok(result)
    }
}
