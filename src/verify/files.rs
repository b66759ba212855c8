//! Every published file at its address: served, with the built bytes (decoded),
//! the right type and caching, the security headers, and on pages, the form's action.

use std::collections::HashSet;

use super::built::{Built, Published};
use super::client::{Answer, Failure, Origin};
use super::finding::{Found, Kind};
use super::headers;

/// How far a body may exceed the built size before it is cut off (an old page
/// can be larger).
pub fn limit_for(size: u64) -> u64 {
    size.saturating_mul(2).saturating_add(256 * 1024)
}

pub fn unanswered(failure: &Failure, address: &str) -> Found {
    let kind = match failure {
        Failure::Unanswered(why) => Kind::Unanswered { why: why.clone() },
        Failure::TooLarge(limit) => Kind::TooLarge { limit: *limit },
    };
    Found::new(kind, address)
}

fn not_served(answer: &Answer, address: &str, origin: &Origin) -> Found {
    let kind = match answer.status {
        404 | 410 => Kind::Missing,
        status @ 300..=399 => match origin.resolve(answer.header("location").unwrap_or_default()) {
            Err(other) => Kind::CrossOriginRedirect { to: other },
            Ok(to) => Kind::Redirected { status, to },
        },
        status @ 500..=599 => Kind::ServerError { status },
        status => Kind::OtherStatus { status },
    };
    Found::new(kind, address)
}

pub fn judge(
    file: &Published,
    answer: Result<Answer, Failure>,
    built: &Built,
    origin: &Origin,
    asset_names: &HashSet<String>,
) -> Vec<Found> {
    let address = file.address.as_str();
    let answer = match answer {
        Ok(answer) => answer,
        Err(failure) => return vec![unanswered(&failure, address)],
    };
    if answer.status >= 500 {
        // A failing server's headers say nothing of the deployment.
        return vec![not_served(&answer, address, origin)];
    }
    let mut found = headers::security(&answer, &built.record, built.hosting, address);
    if answer.status != 200 {
        found.push(not_served(&answer, address, origin));
        return found;
    }
    let expected = match built.bytes(file) {
        Ok(bytes) => bytes,
        Err(err) => {
            let why = err.message.clone();
            found.push(Found::new(Kind::Unreadable { why }, address));
            return found;
        }
    };
    if answer.body != expected {
        found.push(other_bytes(file, &answer.body, &expected, asset_names));
    }
    found.extend(headers::content_type(&answer, &file.file, address));
    found.extend(headers::caching(
        &answer,
        file.is_hashed_asset(),
        address,
        built,
    ));
    if file.is_page() {
        found.extend(form(&answer.body, &expected, address));
    }
    found
}

/// Other bytes than the build's, and the likely cause.
fn other_bytes(
    file: &Published,
    live: &[u8],
    expected: &[u8],
    asset_names: &HashSet<String>,
) -> Found {
    let address = file.address.as_str();
    if file.is_page() {
        let text = String::from_utf8_lossy(live);
        let foreign = assets_named(&text)
            .into_iter()
            .find(|name| !asset_names.contains(name));
        if let Some(asset) = foreign {
            return Found::new(Kind::StalePage { asset }, address);
        }
    }
    let kind = Kind::OtherBytes {
        live: live.len(),
        built: expected.len(),
    };
    Found::new(kind, address)
}

fn assets_named(html: &str) -> Vec<String> {
    html.split("/assets/")
        .skip(1)
        .filter_map(|rest| {
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || "-_.".contains(c)))?;
            (end > 0).then(|| rest[..end].to_string())
        })
        .collect()
}

pub fn form_actions(html: &str) -> Vec<String> {
    let document = scraper::Html::parse_document(html);
    let Ok(forms) = scraper::Selector::parse("form[action]") else {
        return Vec::new();
    };
    document
        .select(&forms)
        .filter_map(|form| form.value().attr("action"))
        .map(str::to_string)
        .collect()
}

/// The form's action is the build's, with no sample id.
fn form(live: &[u8], expected: &[u8], address: &str) -> Vec<Found> {
    let live = form_actions(&String::from_utf8_lossy(live));
    let built = form_actions(&String::from_utf8_lossy(expected));
    let mut found: Vec<Found> = live
        .iter()
        .filter(|action| action.contains("/f/xsample"))
        .map(|action| {
            let action = action.clone();
            Found::new(Kind::SampleForm { action }, address)
        })
        .collect();
    if live != built {
        let first = |actions: &[String]| actions.first().map_or("nowhere".into(), String::clone);
        let kind = Kind::OtherForm {
            live: first(&live),
            built: first(&built),
        };
        found.push(Found::new(kind, address));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asset_names_and_form_actions_are_read_from_a_page() {
        let html = r#"<link href="/assets/site-0123456789.css"><script src="/assets/a-b.js"></script>
<form action="https://formspree.io/f/xsample1" method="POST"></form>"#;
        assert_eq!(assets_named(html), ["site-0123456789.css", "a-b.js"]);
        assert_eq!(form_actions(html), ["https://formspree.io/f/xsample1"]);
    }
}
