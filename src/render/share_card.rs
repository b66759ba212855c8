//! The share card: the 1200×630 picture a link to the site shows in Facebook,
//! Nextdoor, iMessage and the like, drawn from the owner's
//! `layouts/share-card.svg` template and rendered to PNG with resvg and
//! `layouts/fonts/` (nothing fetched). Named by its inputs' hash, so an
//! unchanged card is never drawn again, in this process or, through the cache
//! folder, the next (a deploy's cold build).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use minijinja::{Environment, context};
use sha2::{Digest, Sha256};

use crate::content::Site;
use crate::diagnostics::{Diagnostic, Location, Result};
use crate::output::file::{OutputFile, write_whole};
use crate::text::read_text;

pub const WIDTH: u32 = 1200;
pub const HEIGHT: u32 = 630;

const TEMPLATE: &str = "share-card.svg";
const FONTS: &str = "fonts";

#[derive(Debug, Clone, serde::Serialize)]
pub struct ShareCard {
    /// Absolute, as link previews need it.
    pub url: String,
    pub width: u32,
    pub height: u32,
    /// For people who cannot see it.
    pub alt: String,
}

/// Draws cards, keeping the last one by its inputs' hash.
#[derive(Default)]
pub struct ShareCards {
    last: Option<(String, OutputFile)>,
    /// However many were asked for.
    drawn: usize,
    /// As `<hash of the inputs>.png`.
    disk: Option<PathBuf>,
}

impl ShareCards {
    pub fn with_disk_cache(dir: PathBuf) -> Self {
        ShareCards {
            disk: Some(dir),
            ..ShareCards::default()
        }
    }

    pub fn card(
        &mut self,
        site: &Site,
        dir: &Path,
        shown: &Path,
    ) -> Result<(ShareCard, OutputFile)> {
        let svg = fill_template(site, dir, shown)?;
        let fonts = read_fonts(&dir.join(FONTS), &shown.join(FONTS))?;
        let mut hasher = Sha256::new();
        hasher.update(svg.as_bytes());
        for (_, bytes) in &fonts {
            hasher.update(bytes);
        }
        let inputs = crate::text::hex(&hasher.finalize());
        let file = match &self.last {
            Some((hash, file)) if *hash == inputs => file.clone(),
            _ => {
                let png = match self.read_disk(&inputs) {
                    Some(png) => png,
                    None => {
                        let png = draw(&svg, fonts, &shown.join(TEMPLATE))?;
                        self.drawn += 1;
                        self.write_disk(&inputs, &png);
                        png
                    }
                };
                let file = OutputFile::asset("share", "png", png);
                self.last = Some((inputs, file.clone()));
                file
            }
        };
        let card = ShareCard {
            url: format!("{}/{}", site.business.url.as_str(), file.path),
            width: WIDTH,
            height: HEIGHT,
            alt: alt_text(site),
        };
        Ok((card, file))
    }
}

impl ShareCards {
    pub fn drawn(&self) -> usize {
        self.drawn
    }

    fn read_disk(&self, inputs: &str) -> Option<Vec<u8>> {
        let png = std::fs::read(self.disk.as_ref()?.join(format!("{inputs}.png"))).ok()?;
        // A cut-off file is drawn again.
        png.starts_with(b"\x89PNG\r\n\x1a\n").then_some(png)
    }

    /// Best effort: an unwritable cache only means drawing again.
    fn write_disk(&self, inputs: &str, png: &[u8]) {
        let Some(dir) = &self.disk else { return };
        let _ = write_whole(&dir.join(format!("{inputs}.png")), png);
    }
}

/// "Curbside Brookings: Your trash bins, at the curb on pickup day. $25 per month."
pub fn alt_text(site: &Site) -> String {
    format!(
        "{}: {} {} {}.",
        site.business.name.as_str(),
        site.home.hero.headline.as_str(),
        site.plans.monthly.price,
        site.home.hero.price_note.as_str()
    )
}

fn fill_template(site: &Site, dir: &Path, shown: &Path) -> Result<String> {
    let path = dir.join(TEMPLATE);
    let shown_path = shown.join(TEMPLATE);
    let template = read_text(&path, &shown_path)?;
    let mut env = Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    // Text goes into XML.
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    env.add_template(TEMPLATE, &template)
        .map_err(|err| template_error(&err, &shown_path))?;
    let host = site
        .business
        .url
        .as_str()
        .split_once("://")
        .map_or(site.business.url.as_str(), |(_, host)| host);
    let values = context! {
        name => site.business.name.as_str(),
        eyebrow => site.home.hero.eyebrow.as_str(),
        headline_lines => wrap(site.home.hero.headline.as_str(), 22),
        price => site.plans.monthly.price.to_string(),
        price_note => site.home.hero.price_note.as_str(),
        annual_badge => site.home.pricing.annual_badge.as_str(),
        host => host,
        phone => site.business.phone.display.as_str(),
    };
    env.get_template(TEMPLATE)
        .and_then(|t| t.render(values))
        .map_err(|err| template_error(&err, &shown_path))
}

fn template_error(err: &minijinja::Error, shown: &Path) -> Diagnostic {
    let location = match err.line() {
        Some(line) => Location::at(shown, line, 1),
        None => Location::file(shown),
    };
    Diagnostic::new(format!("the share card's layout: {}", err.detail().unwrap_or("cannot be filled in")))
        .at(location)
        .help("the values it can use are name, eyebrow, headline_lines, price, price_note, annual_badge, host and phone; see layouts/README.md")
}

/// Splits `text` at spaces into as few lines of about `width` as it needs, of
/// even lengths (no lone word on the last line).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let total = text.chars().count();
    let count = total.div_ceil(width.max(1)).max(1);
    let limit = total.div_ceil(count) + 3;
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= limit => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

fn read_fonts(dir: &Path, shown: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>> {
    let mut fonts = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|err| {
        Diagnostic::io("read", shown, err)
            .at(Location::file(shown))
            .help("the share card needs its fonts: restore layouts/fonts/ from the repository")
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.extension().is_some_and(|ext| {
                ext.eq_ignore_ascii_case("ttf") || ext.eq_ignore_ascii_case("otf")
            })
        })
        .collect();
    paths.sort();
    for path in paths {
        let bytes = std::fs::read(&path).map_err(|err| Diagnostic::io("read", &path, err))?;
        fonts.push((path, bytes));
    }
    Ok(fonts)
}

fn draw(svg: &str, fonts: Vec<(PathBuf, Vec<u8>)>, shown: &Path) -> Result<Vec<u8>> {
    let mut options = resvg::usvg::Options::default();
    let database = Arc::make_mut(&mut options.fontdb);
    for (_, bytes) in fonts {
        database.load_font_data(bytes);
    }
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(|err| {
        Diagnostic::new("the share card's layout is not a valid SVG picture")
            .at(Location::file(shown))
            .caused_by(err)
            .help("check the tags of layouts/share-card.svg; open it in a browser to see where it breaks")
    })?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(WIDTH, HEIGHT)
        .ok_or_else(|| Diagnostic::new("could not make room for the share card"))?;
    let size = tree.size();
    let transform = resvg::tiny_skia::Transform::from_scale(
        WIDTH as f32 / size.width(),
        HEIGHT as f32 / size.height(),
    );
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|err| Diagnostic::new("could not encode the share card as PNG").caused_by(err))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_is_drawn_again_only_when_its_inputs_change() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let (content, shown) = (root.join("content"), Path::new("content"));
        let pictures = crate::media::Library::new(&content, shown, None);
        let mut site =
            crate::content::load(&content, shown, &pictures).unwrap_or_else(|e| panic!("{e}"));
        let layouts = root.join("layouts");
        let mut cards = ShareCards::default();
        let (card, first) = cards
            .card(&site, &layouts, Path::new("layouts"))
            .unwrap_or_else(|e| panic!("{e}"));
        let (_, again) = cards
            .card(&site, &layouts, Path::new("layouts"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cards.drawn(), 1);
        assert_eq!(first.path, again.path);
        assert_eq!(
            card.url,
            format!("https://curbside-brookings.example/{}", first.path)
        );

        site.home.hero.headline =
            serde_yaml::from_str("Bins out, bins back.").unwrap_or_else(|e| panic!("{e}"));
        let (_, changed) = cards
            .card(&site, &layouts, Path::new("layouts"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cards.drawn(), 2);
        assert_ne!(changed.path, first.path, "the name follows the picture");
    }

    #[test]
    fn headlines_wrap_at_spaces() {
        assert_eq!(
            wrap("Your trash bins, at the curb on pickup day.", 22),
            ["Your trash bins, at the", "curb on pickup day."]
        );
        assert_eq!(wrap("Short", 22), ["Short"]);
    }
}
