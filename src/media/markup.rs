//! The markup that offers a picture's copies to the browser: a `<picture>`
//! whose `<img>` reserves the space (no layout shift), and for the page's
//! largest paint a preload, so the browser fetches the right copy before it
//! has read the stylesheet.

use super::crop::Focus;
use super::picture::Picture;
use super::variants::{Format, Variant};
use crate::text::escape_markup;

/// How a picture stands on its page.
#[derive(Debug, Clone, Default)]
pub struct Placement<'a> {
    /// What it shows, for people who cannot see it; empty only for a
    /// picture that is decoration.
    pub alt: &'a str,
    /// The `sizes` attribute: how wide it is drawn, in CSS terms.
    pub sizes: &'a str,
    /// The page's largest paint (a hero): fetched first, never lazily.
    pub priority: bool,
    /// Within the first screen, though not the largest paint: fetched
    /// normally, neither lazily nor first.
    pub eager: bool,
    /// A class for the `<img>`, for the layout's stylesheet.
    pub class: Option<&'a str>,
    /// The `title` the author wrote, shown on hover; empty for none.
    pub title: &'a str,
    /// The boxes the layout draws it in, one for each kind of screen; with
    /// none, the whole picture is offered at `sizes`.
    pub cuts: &'a [Cut<'a>],
    /// The point kept in view when it is cut.
    pub focus: Focus,
}

/// A box a layout draws a picture in on some screens, in a fixed proportion:
/// the copies for it show just that much of the picture.
#[derive(Debug, Clone, Copy)]
pub struct Cut<'a> {
    /// The screens it is for, as a media query; empty on the last cut,
    /// which is for every other screen.
    pub media: &'a str,
    /// Its proportion, width to height, as the stylesheet gives it.
    pub aspect: (u32, u32),
    /// How wide it is drawn (the `sizes` attribute).
    pub sizes: &'a str,
    /// The widths of its copies, smallest first: those a screen drawing
    /// it may pick.
    pub widths: &'static [u32],
}

/// `<picture>` markup offering `variants` of the whole of `picture`: the
/// AVIF copies if any, then the WebP ones, the fallback in the `<img>`.
pub fn markup(picture: &Picture, variants: &[Variant], placement: &Placement) -> String {
    if !picture.kind.processed() {
        let src = variants
            .first()
            .map(|v| v.path.as_str())
            .unwrap_or_default();
        return format!(
            "<img src=\"/{src}\" alt=\"{alt}\" {size}{rest} decoding=\"async\" />",
            alt = escape_markup(placement.alt),
            size = size_attributes(picture.width, picture.height),
            rest = img_attributes(placement),
        );
    }
    let sizes = escape_markup(placement.sizes);
    let sources: String = [Format::Avif, Format::Webp]
        .into_iter()
        .filter(|format| variants.iter().any(|v| v.format == *format))
        .map(|format| source("", format, variants, &sizes, ""))
        .collect();
    format!(
        "<picture>{sources}{}</picture>",
        img(variants, placement, &sizes, (picture.width, picture.height))
    )
}

/// `<picture>` markup offering, for each of `cuts` in turn, the copies made
/// for it: the browser takes the first whose media query matches the
/// screen, and the last cut's copies are the `<img>`'s own.
pub fn cut_markup(
    picture: &Picture,
    cuts: &[(Cut, Vec<Variant>)],
    placement: &Placement,
) -> String {
    let Some(((last_cut, last), others)) = cuts.split_last() else {
        return markup(picture, &[], placement);
    };
    let mut sources = String::new();
    for (cut, variants) in others {
        let sizes = escape_markup(cut.sizes);
        let media = format!(" media=\"{}\"", escape_markup(cut.media));
        let (width, height) = shown_size(picture, variants);
        let size = format!(" {}", size_attributes(width, height));
        for format in [Format::Avif, Format::Webp, fallback(variants)] {
            if variants.iter().any(|v| v.format == format) {
                sources.push_str(&source(&media, format, variants, &sizes, &size));
            }
        }
    }
    let sizes = escape_markup(last_cut.sizes);
    for format in [Format::Avif, Format::Webp] {
        if last.iter().any(|v| v.format == format) {
            sources.push_str(&source("", format, last, &sizes, ""));
        }
    }
    format!(
        "<picture>{sources}{}</picture>",
        img(last, placement, &sizes, shown_size(picture, last))
    )
}

/// A `<link rel="preload">` for the page's largest paint, drawn `sizes`
/// wide on the screens `media` names (every screen when empty), in the
/// first format offered (AVIF when the plan has it). A browser that cannot
/// show that format skips the preload, by its `type`, and loads the
/// `<picture>`'s own choice.
pub fn preload(picture: &Picture, variants: &[Variant], sizes: &str, media: &str) -> String {
    let media = if media.is_empty() {
        String::new()
    } else {
        format!(" media=\"{}\"", escape_markup(media))
    };
    if !picture.kind.processed() {
        let href = variants
            .first()
            .map(|v| v.path.as_str())
            .unwrap_or_default();
        return format!(
            "<link rel=\"preload\" as=\"image\" href=\"/{href}\"{media} fetchpriority=\"high\" />"
        );
    }
    let format = variants.first().map_or(Format::Webp, |v| v.format);
    format!(
        "<link rel=\"preload\" as=\"image\" type=\"{}\" imagesrcset=\"{}\" imagesizes=\"{}\"{media} fetchpriority=\"high\" />",
        format.mime(),
        srcset(variants, format),
        escape_markup(sizes)
    )
}

/// The screens the last of `cuts` is for: those none of the others is for.
pub fn other_screens(cuts: &[Cut]) -> String {
    let others: Vec<&str> = cuts
        .iter()
        .map(|cut| cut.media)
        .filter(|media| !media.is_empty())
        .collect();
    match others[..] {
        [] => String::new(),
        [one] => format!("not all and {one}"),
        _ => format!("not ({})", others.join(" or ")),
    }
}

fn source(media: &str, format: Format, variants: &[Variant], sizes: &str, size: &str) -> String {
    format!(
        "<source{media} type=\"{}\" srcset=\"{}\" sizes=\"{sizes}\"{size} />",
        format.mime(),
        srcset(variants, format)
    )
}

/// The `<img>`: the fallback format's copies, the size that reserves the
/// picture's box, the alt text and how it loads.
fn img(variants: &[Variant], placement: &Placement, sizes: &str, shown: (u32, u32)) -> String {
    let fallback = fallback(variants);
    // For browsers without srcset: a middling copy.
    let src = variants
        .iter()
        .rfind(|v| v.format == fallback && v.width <= 1200)
        .or_else(|| variants.iter().find(|v| v.format == fallback))
        .map(|v| v.path.as_str())
        .unwrap_or_default();
    format!(
        "<img src=\"/{src}\" srcset=\"{}\" sizes=\"{sizes}\" alt=\"{}\" {}{} decoding=\"async\" />",
        srcset(variants, fallback),
        escape_markup(placement.alt),
        size_attributes(shown.0, shown.1),
        img_attributes(placement),
    )
}

/// JPEG, or PNG for a picture with transparency.
fn fallback(variants: &[Variant]) -> Format {
    variants
        .iter()
        .find(|v| !matches!(v.format, Format::Avif | Format::Webp))
        .map_or(Format::Jpeg, |v| v.format)
}

/// The size of the part of `picture` that `variants` show.
fn shown_size(picture: &Picture, variants: &[Variant]) -> (u32, u32) {
    variants
        .first()
        .and_then(|v| v.crop)
        .map_or((picture.width, picture.height), |c| (c.width, c.height))
}

fn size_attributes(width: u32, height: u32) -> String {
    format!("width=\"{width}\" height=\"{height}\"")
}

/// The layout's class, the author's title, and how the picture loads.
fn img_attributes(placement: &Placement) -> String {
    let mut attributes = placement
        .class
        .map(|class| format!(" class=\"{}\"", escape_markup(class)))
        .unwrap_or_default();
    if !placement.title.is_empty() {
        attributes.push_str(&format!(" title=\"{}\"", escape_markup(placement.title)));
    }
    attributes.push_str(if placement.priority {
        " fetchpriority=\"high\""
    } else if placement.eager {
        ""
    } else {
        " loading=\"lazy\""
    });
    attributes
}

fn srcset(variants: &[Variant], format: Format) -> String {
    variants
        .iter()
        .filter(|v| v.format == format)
        .map(|v| format!("/{} {}w", v.path, v.width))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::crop::Crop;
    use crate::media::variants::tests::photo;
    use crate::media::variants::{Frame, plan};

    #[test]
    fn markup_offers_webp_with_a_fallback_and_reserves_the_space() {
        let picture = photo(1000, 750);
        let variants = plan(&picture, false, &Frame::WHOLE);
        let lazy = markup(
            &picture,
            &variants,
            &Placement {
                alt: "Two \"green\" bins",
                sizes: "100vw",
                title: "At \"dusk\"",
                ..Placement::default()
            },
        );
        assert!(lazy.contains(" title=\"At &quot;dusk&quot;\""), "{lazy}");
        assert!(
            lazy.starts_with("<picture><source type=\"image/webp\" srcset=\"/assets/img/bins-400-")
        );
        assert!(lazy.contains("width=\"1000\" height=\"750\""));
        assert!(lazy.contains("alt=\"Two &quot;green&quot; bins\""));
        assert!(lazy.contains("loading=\"lazy\" decoding=\"async\""));
        let hero = markup(
            &picture,
            &variants,
            &Placement {
                alt: "",
                sizes: "100vw",
                priority: true,
                ..Placement::default()
            },
        );
        assert!(hero.contains("fetchpriority=\"high\"") && !hero.contains("loading="));
        assert!(hero.contains("alt=\"\""));
    }

    #[test]
    fn the_largest_paint_is_offered_in_avif_first_and_preloaded_so() {
        let picture = photo(4000, 3000);
        let variants = plan(&picture, true, &Frame::WHOLE);
        let formats = |format: Format| variants.iter().filter(|v| v.format == format).count();
        assert_eq!(
            (
                formats(Format::Avif),
                formats(Format::Webp),
                formats(Format::Jpeg)
            ),
            (5, 5, 5)
        );
        // The same copies in WebP and JPEG as anywhere else, so a picture placed both
        // ways is encoded once in those.
        let elsewhere = plan(&picture, false, &Frame::WHOLE);
        assert!(elsewhere.iter().all(|v| variants.contains(v)));
        assert!(!elsewhere.iter().any(|v| v.format == Format::Avif));
        let hero = markup(
            &picture,
            &variants,
            &Placement {
                alt: "Bins",
                sizes: "100vw",
                priority: true,
                ..Placement::default()
            },
        );
        let avif = hero.find("<source type=\"image/avif\" srcset=\"/assets/img/bins-400-");
        let webp = hero.find("<source type=\"image/webp\"");
        assert!(avif.is_some() && avif < webp, "{hero}");
        assert!(hero.contains(".avif 2000w\""), "{hero}");
        let preload = preload(&picture, &variants, "100vw", "");
        assert!(
            preload.starts_with("<link rel=\"preload\" as=\"image\" type=\"image/avif\" imagesrcset=\"/assets/img/bins-400-"),
            "{preload}"
        );
    }

    #[test]
    fn each_screen_is_offered_copies_cut_to_its_box_and_preloaded_for_it() {
        let picture = photo(3000, 4000);
        let wide = Cut {
            media: "(min-width: 60rem)",
            aspect: (4, 3),
            sizes: "33rem",
            widths: &[528, 792, 1056, 1584],
        };
        let narrow = Cut {
            media: "",
            aspect: (16, 9),
            sizes: "100vw",
            widths: &[400, 800, 1200, 1600, 2000],
        };
        let planned = |cut: &Cut| {
            let crop = Crop::around(3000, 4000, cut.aspect, Focus::CENTRE);
            plan(
                &picture,
                true,
                &Frame {
                    crop: Some(crop),
                    widths: cut.widths,
                },
            )
        };
        let cuts = [(wide, planned(&wide)), (narrow, planned(&narrow))];
        let html = cut_markup(
            &picture,
            &cuts,
            &Placement {
                alt: "Bins",
                priority: true,
                ..Placement::default()
            },
        );
        let first = html.find("<source media=\"(min-width: 60rem)\" type=\"image/avif\"");
        let wide_jpeg = html.find("<source media=\"(min-width: 60rem)\" type=\"image/jpeg\"");
        let narrow_avif = html.find("<source type=\"image/avif\"");
        assert!(
            first.is_some() && first < wide_jpeg && wide_jpeg < narrow_avif,
            "{html}"
        );
        assert!(
            html.contains("sizes=\"33rem\" width=\"3000\" height=\"2250\""),
            "{html}"
        );
        // The frame's own widths, not the band's.
        assert!(
            html.contains("528w, /assets/img/bins-792-")
                && html.contains(".avif 1584w\" sizes=\"33rem\""),
            "{html}"
        );
        // The <img> is the narrow cut's, with its proportion.
        assert!(
            html.contains("width=\"3000\" height=\"1688\" fetchpriority=\"high\""),
            "{html}"
        );
        assert!(
            html.contains(".jpg 2000w\" sizes=\"100vw\" alt=\"Bins\""),
            "{html}"
        );
        let rest = other_screens(&[wide, narrow]);
        assert_eq!(rest, "not all and (min-width: 60rem)");
        let links = preload(&picture, &cuts[1].1, "100vw", &rest);
        assert!(
            links.contains(" media=\"not all and (min-width: 60rem)\""),
            "{links}"
        );
        assert!(links.contains("type=\"image/avif\""), "{links}");
    }
}
