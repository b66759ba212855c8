//! Every published file at its address: served, with the built bytes (decoded),
//! the right type and caching, the security headers, and on pages, the form's action.

use std::collections::HashSet;

use super::built::{Built, Published};
use super::client::{ATTEMPTS, Answer, Failure, Origin};
use super::headers;
use super::report::Found;

/// How far a body may exceed the built size before it is cut off (an old page
/// can be larger).
pub fn limit_for(size: u64) -> u64 {
    size.saturating_mul(2).saturating_add(256 * 1024)
}

pub fn unanswered(failure: &Failure, address: &str, built: &Built) -> Found {
    match failure {
        Failure::Unanswered(why) => Found::error(
            format!("unanswered {why}"),
            address,
            format!("could not be fetched, after {ATTEMPTS} tries: {why}"),
        )
        .fix("check that the site is up and reachable from here, then verify again"),
        Failure::TooLarge(limit) => Found::error(
            "too large",
            address,
            format!(
                "the answer went on past {limit} bytes, far more than this build's file: the server sends an endless or wrong body"
            ),
        )
        .fix(format!(
            "look at the server's or proxy's error log; {}",
            built.hosting.facts().redeploy()
        )),
    }
}

fn not_served(answer: &Answer, address: &str, origin: &Origin, built: &Built) -> Found {
    let hosting = built.hosting;
    match answer.status {
        404 | 410 => Found::error(
            "missing",
            address,
            "is missing from the live site (it answers 404)",
        )
        .fix(hosting.facts().redeploy()),
        status @ 300..=399 => {
            let location = answer.header("location").unwrap_or_default();
            match origin.resolve(location) {
                Err(other) => Found::error(
                    "cross-origin redirect",
                    address,
                    format!("redirects to another site, {other}: verify asks the site's own origin only"),
                )
                .fix("if the site has moved there, verify that address; otherwise remove the redirect from the hosting's settings"),
                Ok(path) => Found::error(
                    format!("redirect {status}"),
                    address,
                    format!("redirects ({status}) to {path} instead of answering with this build's file"),
                )
                .fix(hosting.facts().advice.redirects),
            }
        }
        status @ 500..=599 => Found::error(
            format!("server error {status}"),
            address,
            format!("answers {status}, a server error, after {ATTEMPTS} tries"),
        )
        .fix("look at the server's error log (or the hosting's status page), then verify again"),
        status => Found::error(
            format!("status {status}"),
            address,
            format!("answers {status} instead of 200"),
        )
        .fix(hosting.facts().redeploy()),
    }
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
        Err(failure) => return vec![unanswered(&failure, address, built)],
    };
    if answer.status >= 500 {
        // A failing server's headers say nothing of the deployment.
        return vec![not_served(&answer, address, origin, built)];
    }
    let mut found = headers::security(&answer, &built.record, built.hosting, address);
    if answer.status != 200 {
        found.push(not_served(&answer, address, origin, built));
        return found;
    }
    let expected = match built.bytes(file) {
        Ok(bytes) => bytes,
        Err(err) => {
            found.push(Found::error("unreadable", address, err.message.clone()));
            return found;
        }
    };
    if answer.body != expected {
        found.push(other_bytes(
            file,
            &answer.body,
            &expected,
            built,
            asset_names,
        ));
    }
    found.extend(headers::content_type(
        &answer,
        &file.file,
        address,
        built.hosting,
    ));
    found.extend(headers::caching(
        &answer,
        file.is_hashed_asset(),
        address,
        &built.record,
        built.hosting,
    ));
    if file.is_page() {
        found.extend(form(&answer.body, &expected, address, built));
    }
    found
}

/// Other bytes than the build's, and the likely cause.
fn other_bytes(
    file: &Published,
    live: &[u8],
    expected: &[u8],
    built: &Built,
    asset_names: &HashSet<String>,
) -> Found {
    let address = file.address.as_str();
    let fix = built.hosting.facts().redeploy();
    if file.is_page() {
        let text = String::from_utf8_lossy(live);
        let foreign = assets_named(&text)
            .into_iter()
            .find(|name| !asset_names.contains(name));
        if let Some(name) = foreign {
            return Found::error(
                "stale page",
                address,
                format!(
                    "is an earlier build's page: it names /assets/{name}, which this build does not have (an old deployment still served, or a CDN's cached copy), so its styles or islands may not load"
                ),
            )
            .fix(fix);
        }
    }
    Found::error(
        "other bytes",
        address,
        format!(
            "is served with other bytes than this build wrote ({} bytes, built {}): an earlier deployment, or a CDN's cached copy",
            live.len(),
            expected.len()
        ),
    )
    .fix(fix)
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
fn form(live: &[u8], expected: &[u8], address: &str, built: &Built) -> Vec<Found> {
    let live = form_actions(&String::from_utf8_lossy(live));
    let wanted = form_actions(&String::from_utf8_lossy(expected));
    let mut found = Vec::new();
    for action in &live {
        if action.contains("/f/xsample") {
            found.push(
                Found::error(
                    "sample form",
                    address,
                    format!(
                        "the sign-up form still posts to the sample Formspree form ({action}): no sign-up reaches you"
                    ),
                )
                .fix(format!(
                    "set formspree_form_id in content/business.yaml to your form's id (formspree.io/f/<id>), build, and {}",
                    built.hosting.facts().redeploy()
                ))
                .of_a_sample(),
            );
        }
    }
    if live != wanted {
        found.push(
            Found::error(
                "other form",
                address,
                format!(
                    "the form posts to {}, not to {} as this build wrote it",
                    live.first().map_or("nowhere", String::as_str),
                    wanted.first().map_or("nowhere", String::as_str)
                ),
            )
            .fix(built.hosting.facts().redeploy()),
        );
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
