//! One answer's headers against the hosting's promise: security headers (with
//! this build's hashes), content type, caching.

use super::built::{Built, CacheTerms};
use super::client::Answer;
use super::finding::{Found, Kind};
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
    if !hosting.facts().sends_headers {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (name, expected) in &record.headers {
        let kind = match answer.header(name) {
            None => Kind::NoHeader { name: name.clone() },
            Some(live) if live.trim() == expected => continue,
            Some(live) if name == "Content-Security-Policy" && other_hashes(live, expected) => {
                Kind::StalePolicy
            }
            Some(live) => Kind::OtherHeader {
                name: name.clone(),
                live: live.to_string(),
                expected: expected.clone(),
            },
        };
        found.push(Found::new(kind, address));
    }
    found
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
pub fn content_type(answer: &Answer, file: &str, address: &str) -> Option<Found> {
    let extension = file
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())?;
    let (accepted, refused): (Vec<&'static str>, bool) = match extension.as_str() {
        "html" => (vec!["text/html"], true),
        "css" => (vec!["text/css"], true),
        "js" | "mjs" => (vec!["text/javascript", "application/javascript"], true),
        "xml" => (vec!["application/xml", "text/xml"], false),
        "txt" => (vec!["text/plain"], false),
        "json" => (vec!["application/json"], false),
        "webmanifest" => (vec!["application/manifest+json", "application/json"], false),
        _ => (mime_guess::from_ext(&extension).iter_raw().collect(), false),
    };
    let expected = *accepted.first()?;
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
    let kind = Kind::WrongType {
        extension,
        live: live.to_string(),
        expected,
        refused,
    };
    Some(Found::new(kind, address))
}

/// Hashed assets as the build recorded it (for good); every other file,
/// named the same from build to build, a day at most.
pub fn caching(answer: &Answer, hashed: bool, address: &str, built: &Built) -> Option<Found> {
    if !built.hosting.facts().sends_headers {
        return None;
    }
    let live = answer.header("cache-control").unwrap_or_default();
    let terms = CacheTerms::of(live);
    let lasts = |age: u64| built.asset_cache.max_age.is_some_and(|long| age >= long);
    let kind = if hashed && !(terms.immutable || terms.max_age.is_some_and(lasts)) {
        Kind::ShortAssetCache {
            live: live.to_string(),
            recorded: built.record.asset_cache_control.clone(),
        }
    } else if !hashed && (terms.immutable || terms.max_age.is_some_and(|age| age > SHORT)) {
        Kind::LongCache {
            live: live.to_string(),
        }
    } else {
        return None;
    };
    Some(Found::new(kind, address))
}
