//! What the policy needs of a layout: inline elements holding exactly their
//! marker, and its `<meta>` before them.

use super::assets::{INLINE_CSS, ISLANDS_ENTRY, ISLANDS_LOADER, META_CSP};
use super::markers::{self, marker};
use crate::diagnostics::{Diagnostic, Location, Result};

/// The style and script markers stand alone in their elements, a page with
/// islands has the loader, once.
pub(super) fn check_inline_elements(html: &str, page: &str, has_islands: bool) -> Result<()> {
    let loader =
        "`<script data-runtime=\"{{ assets.islands }}\">{{ assets.islands_loader }}</script>`";
    let style = "`<style>{{ assets.inline_css }}</style>`";
    let help = format!(
        "in layouts/base.html, write {style} and {loader} with nothing else between the tags: \
         the Content-Security-Policy allows exactly those texts"
    );
    let refused = |message: String| {
        Diagnostic::new(message)
            .at(Location::file("layouts"))
            .help(help.clone())
    };
    let alone = |name: &str, tag: &str| {
        markers::count_as_element_text(html, &marker(name), tag).map_err(|()| {
            refused(format!(
                "in {page}, `assets.{}` must be the whole text of a <{tag}> element",
                name.replace('-', "_")
            ))
        })
    };
    alone(INLINE_CSS, "style")?;
    check_meta_policy(html, page)?;
    let loaders = alone(ISLANDS_LOADER, "script")?;
    let started = html.contains(&format!("data-runtime=\"{}\"", marker(ISLANDS_ENTRY)));
    if loaders > 0 && !started {
        return Err(refused(format!(
            "in {page}, the loader script has no data-runtime=\"{{{{ assets.islands }}}}\" attribute to tell it what to start"
        )));
    }
    if has_islands && loaders == 0 {
        return Err(refused(format!(
            "{page} has interactive parts but no {{{{ assets.islands_loader }}}} script to start them"
        )));
    }
    if loaders > 1 {
        return Err(refused(format!(
            "{page} has the loader script {loaders} times"
        )));
    }
    Ok(())
}

/// A browser applies a `<meta>` policy only to what comes after it.
fn check_meta_policy(html: &str, page: &str) -> Result<()> {
    let tag = format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\"",
        marker(META_CSP)
    );
    let first_inline = [INLINE_CSS, ISLANDS_LOADER]
        .iter()
        .filter_map(|name| html.find(&marker(name)))
        .min();
    match (html.find(&tag), first_inline) {
        (Some(at), Some(inline)) if at < inline => Ok(()),
        (Some(_), None) => Ok(()),
        _ => Err(Diagnostic::new(format!(
            "in {page}, the Content-Security-Policy <meta> is missing or comes after the inline stylesheet or script"
        ))
        .at(Location::file("layouts"))
        .help(
            "in layouts/base.html, write `<meta http-equiv=\"Content-Security-Policy\" content=\"{{ assets.csp }}\" />` \
             right after `<meta charset>`: hosting that sends no headers of the site's relies on it",
        )),
    }
}
