//! One answer's headers against the hosting's promise: security headers (with
//! this build's hashes), content type, caching.

use super::client::Answer;
use super::report::Found;
use crate::output::hosting::Hosting;
use crate::output::record::BuildRecord;

/// At most, for a file whose name stays the same.
const SHORT: u64 = 86_400;

pub fn security(
    answer: &Answer,
    record: &BuildRecord,
    hosting: Hosting,
    address: &str,
) -> Vec<Found> {
    let mut found = Vec::new();
    if !hosting.facts().sends_headers {
        return found;
    }
    for (name, expected) in &record.headers {
        match answer.header(name) {
            None => found.push(
                Found::error(
                    format!("no-header {name}"),
                    address,
                    format!("no {name} header is sent: {}", why(name)),
                )
                .fix(hosting.facts().advice.send_headers),
            ),
            Some(live) if live.trim() == expected => {}
            Some(live) if name == "Content-Security-Policy" && other_hashes(live, expected) => {
                found.push(
                    Found::error(
                        "stale policy",
                        address,
                        "the Content-Security-Policy sent is another build's: its hashes of the inline code are not this build's, so browsers block the pages' inline style and script and the islands do not start",
                    )
                    .fix(hosting.facts().stale_policy()),
                )
            }
            Some(live) => found.push(
                Found::error(
                    format!("other-header {name}"),
                    address,
                    format!("{name} is \"{live}\", not this build's \"{expected}\""),
                )
                .fix(hosting.facts().advice.send_headers),
            ),
        }
    }
    found
}

/// In a few words.
fn why(name: &str) -> &'static str {
    match name {
        "Content-Security-Policy" => {
            "nothing but each page's <meta> policy limits what runs, and nothing stops the site being framed"
        }
        "Strict-Transport-Security" => "browsers may reach the site over plain http",
        "X-Frame-Options" => "another site may show these pages in a frame",
        "X-Content-Type-Options" => "browsers may guess a file's type",
        "Referrer-Policy" => "other sites may see the full address visitors came from",
        _ => "the build's configuration is not in use",
    }
}

fn other_hashes(live: &str, expected: &str) -> bool {
    let hashes = |policy: &str| {
        let mut all: Vec<String> = policy
            .split([' ', ';'])
            .filter(|word| word.starts_with("'sha256-"))
            .map(str::to_string)
            .collect();
        all.sort();
        all
    };
    let (live, expected) = (hashes(live), hashes(expected));
    !live.is_empty() && live != expected
}

/// With `nosniff`, a page, stylesheet or script of another type is not used at all.
pub fn content_type(answer: &Answer, file: &str, address: &str, hosting: Hosting) -> Option<Found> {
    let extension = file
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())?;
    let (accepted, vital): (Vec<&str>, bool) = match extension.as_str() {
        "html" => (vec!["text/html"], true),
        "css" => (vec!["text/css"], true),
        "js" | "mjs" => (vec!["text/javascript", "application/javascript"], true),
        "xml" => (vec!["application/xml", "text/xml"], false),
        "txt" => (vec!["text/plain"], false),
        "json" => (vec!["application/json"], false),
        "webmanifest" => (vec!["application/manifest+json", "application/json"], false),
        _ => (mime_guess::from_ext(&extension).iter_raw().collect(), false),
    };
    if accepted.is_empty() {
        return None;
    }
    let live = answer.header("content-type").unwrap_or_default();
    let essence = live
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    if accepted.contains(&essence.as_str()) {
        return None;
    }
    let what = format!(
        "is sent as \"{}\", not {}{}",
        if live.is_empty() { "no type" } else { live },
        accepted[0],
        if vital {
            ": browsers refuse to use it"
        } else {
            ""
        }
    );
    let key = format!("type {extension}");
    let found = if vital {
        Found::error(key, address, what)
    } else {
        Found::warning(key, address, what)
    };
    Some(found.fix(hosting.facts().advice.content_type))
}

/// Hashed assets as the build recorded it (for good); every other file,
/// named the same from build to build, a day at most.
pub fn caching(
    answer: &Answer,
    hashed: bool,
    address: &str,
    record: &BuildRecord,
    hosting: Hosting,
) -> Option<Found> {
    if !hosting.facts().sends_headers {
        return None;
    }
    let live = answer.header("cache-control").unwrap_or_default();
    let (max_age, immutable) = cache_terms(live);
    let recorded = &record.asset_cache_control;
    let (long, _) = cache_terms(recorded);
    let lasts = |age: u64| long.is_some_and(|long| age >= long);
    if hashed && !(immutable || max_age.is_some_and(lasts)) {
        return Some(
            Found::warning(
                "short asset cache",
                address,
                format!(
                    "this asset's name changes with its content, yet it is cached as \"{live}\", not as the build asks (\"{recorded}\"): returning visitors fetch it again"
                ),
            )
            .fix(hosting.facts().advice.send_headers),
        );
    }
    if !hashed && (immutable || max_age.is_some_and(|age| age > SHORT)) {
        return Some(
            Found::error(
                "long cache",
                address,
                format!(
                    "is cached as \"{live}\", though its address stays the same from build to build: visitors keep the old file after the next deploy"
                ),
            )
            .fix(hosting.facts().advice.send_headers),
        );
    }
    None
}

/// A Cache-Control value's max-age, and whether it says immutable.
fn cache_terms(value: &str) -> (Option<u64>, bool) {
    let lower = value.to_ascii_lowercase();
    let max_age = lower.split(',').find_map(|part| {
        part.trim()
            .strip_prefix("max-age=")
            .and_then(|age| age.trim().parse::<u64>().ok())
    });
    (max_age, lower.contains("immutable"))
}
