//! What `verify` can find: a kind with its facts, at an address. How grave
//! it is, what it says and what to do about it follow from the kind (and
//! the hosting's facts), never from where in the checks it was found.

use serde::Serialize;

use super::client::ATTEMPTS;
use crate::diagnostics::Level;
use crate::output::hosting::Hosting;

/// Each cause verify knows, with the facts its message needs.
/// In the JSON report, its name under `kind` and, for a kind that has any,
/// its facts under `facts`, apart from the problem's own keys. Findings of
/// one cause are one problem: its facts are those found at its first address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "facts", rename_all = "kebab-case")]
pub enum Kind {
    /// The build has no home page to ask for first.
    NoHome,
    /// More files than a run asks for.
    TooMany {
        files: usize,
        asked: usize,
    },
    /// No connection, a reset or no answer in time, after every try.
    Unanswered {
        why: String,
    },
    /// A body far longer than the built file.
    TooLarge {
        limit: u64,
    },
    Missing,
    /// A redirect off the site's origin, never followed.
    CrossOriginRedirect {
        to: String,
    },
    /// A file redirected instead of served.
    Redirected {
        status: u16,
        to: String,
    },
    ServerError {
        status: u16,
    },
    OtherStatus {
        status: u16,
    },
    NoHeader {
        name: String,
    },
    OtherHeader {
        name: String,
        live: String,
        expected: String,
    },
    /// A Content-Security-Policy with another build's hashes.
    StalePolicy,
    WrongType {
        extension: String,
        live: String,
        expected: &'static str,
        /// Browsers refuse a page, stylesheet or script of another type.
        refused: bool,
    },
    ShortAssetCache {
        live: String,
        recorded: String,
    },
    LongCache {
        live: String,
    },
    /// The build's own file could not be read back.
    Unreadable {
        why: String,
    },
    /// A page naming an asset this build does not have.
    StalePage {
        asset: String,
    },
    OtherBytes {
        live: usize,
        built: usize,
    },
    SampleForm {
        action: String,
    },
    OtherForm {
        live: String,
        built: String,
    },
    /// A page's other address neither redirects nor (where allowed) serves it.
    NoRedirect {
        status: u16,
        location: String,
        to: String,
    },
    UnknownAnswers {
        status: u16,
    },
    #[serde(rename = "other-404-page")]
    Other404Page,
    /// Something internal served to anyone.
    Internal {
        what: &'static str,
        status: u16,
    },
    SampleUrl {
        url: String,
    },
    /// Built for another address; `given` on the command line (a staging
    /// copy) or business.yaml's (the build is older).
    OtherUrl {
        url: String,
        given: bool,
    },
    /// The hosting sends none of the site's headers.
    HeadersNotSent,
}

/// Which findings are one message: the kind, and the one fact that tells two
/// causes of that kind apart (a header's name, a status). Facts that differ
/// from file to file (sizes, targets) do not.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cause(std::mem::Discriminant<Kind>, Option<String>);

impl Kind {
    pub fn cause(&self) -> Cause {
        let apart = match self {
            Kind::Unanswered { why } => Some(why.clone()),
            Kind::Redirected { status, .. }
            | Kind::ServerError { status }
            | Kind::OtherStatus { status }
            | Kind::UnknownAnswers { status } => Some(status.to_string()),
            Kind::NoHeader { name } | Kind::OtherHeader { name, .. } => Some(name.clone()),
            Kind::WrongType { extension, .. } => Some(extension.clone()),
            Kind::Internal { what, .. } => Some((*what).to_string()),
            _ => None,
        };
        Cause(std::mem::discriminant(self), apart)
    }

    /// About a sample value left in: only a warning with `--allow-samples`.
    pub fn is_sample(&self) -> bool {
        matches!(self, Kind::SampleForm { .. } | Kind::SampleUrl { .. })
    }

    /// An error fails verify; a warning is worth fixing; a note is what the
    /// hosting cannot do.
    pub fn level(&self, allow_samples: bool) -> Level {
        match self {
            _ if allow_samples && self.is_sample() => Level::Warning,
            Kind::WrongType { refused: false, .. }
            | Kind::ShortAssetCache { .. }
            | Kind::TooMany { .. }
            | Kind::OtherUrl { given: true, .. } => Level::Warning,
            Kind::HeadersNotSent => Level::Note,
            _ => Level::Error,
        }
    }

    /// What was found, after the address.
    pub fn what(&self, hosting: Hosting) -> String {
        match self {
            Kind::NoHome => "the build has no index.html".into(),
            Kind::TooMany { files, asked } => {
                format!("the site has {files} files: only the first {asked} were asked for")
            }
            Kind::Unanswered { why } => {
                format!("could not be fetched, after {ATTEMPTS} tries: {why}")
            }
            Kind::TooLarge { limit } => format!(
                "the answer went on past {limit} bytes, far more than this build's file: the server sends an endless or wrong body"
            ),
            Kind::Missing => "is missing from the live site (it answers 404)".into(),
            Kind::CrossOriginRedirect { to } => format!(
                "redirects to another site, {to}: verify asks the site's own origin only"
            ),
            Kind::Redirected { status, to } => format!(
                "redirects ({status}) to {to} instead of answering with this build's file"
            ),
            Kind::ServerError { status } => {
                format!("answers {status}, a server error, after {ATTEMPTS} tries")
            }
            Kind::OtherStatus { status } => format!("answers {status} instead of 200"),
            Kind::NoHeader { name } => {
                format!("no {name} header is sent: {}", header_purpose(name))
            }
            Kind::OtherHeader {
                name,
                live,
                expected,
            } => format!("{name} is \"{live}\", not this build's \"{expected}\""),
            Kind::StalePolicy => "the Content-Security-Policy sent is another build's: its hashes of the inline code are not this build's, so browsers block the pages' inline style and script and the islands do not start".into(),
            Kind::WrongType {
                live,
                expected,
                refused,
                ..
            } => format!(
                "is sent as \"{}\", not {expected}{}",
                if live.is_empty() { "no type" } else { live },
                if *refused {
                    ": browsers refuse to use it"
                } else {
                    ""
                }
            ),
            Kind::ShortAssetCache { live, recorded } => format!(
                "this asset's name changes with its content, yet it is cached as \"{live}\", not as the build asks (\"{recorded}\"): returning visitors fetch it again"
            ),
            Kind::LongCache { live } => format!(
                "is cached as \"{live}\", though its address stays the same from build to build: visitors keep the old file after the next deploy"
            ),
            Kind::Unreadable { why } => why.clone(),
            Kind::StalePage { asset } => format!(
                "is an earlier build's page: it names /assets/{asset}, which this build does not have (an old deployment still served, or a CDN's cached copy), so its styles or islands may not load"
            ),
            Kind::OtherBytes { live, built } => format!(
                "is served with other bytes than this build wrote ({live} bytes, built {built}): an earlier deployment, or a CDN's cached copy"
            ),
            Kind::SampleForm { action } => format!(
                "the sign-up form still posts to the sample Formspree form ({action}): no sign-up reaches you"
            ),
            Kind::OtherForm { live, built } => {
                format!("the form posts to {live}, not to {built} as this build wrote it")
            }
            Kind::NoRedirect {
                status,
                location,
                to,
            } => format!(
                "answers {status}{} instead of redirecting permanently to {to}, the page's one address",
                if location.is_empty() {
                    String::new()
                } else {
                    format!(" (to {location})")
                }
            ),
            Kind::UnknownAnswers { status } => format!(
                "an address the site does not have answers {status}, not 404: search engines would keep it as a page"
            ),
            Kind::Other404Page => {
                "an unknown address answers 404, but not with this build's 404 page".into()
            }
            Kind::Internal { what, status } => format!(
                "is served to anyone (it answers {status}): {what} must never be published"
            ),
            Kind::SampleUrl { url } => format!(
                "the site was built with the sample url, {url}: its canonical links, sitemap.xml and robots.txt send search engines there"
            ),
            Kind::OtherUrl { url, .. } => format!(
                "the site was built for {url}: its canonical links, sitemap.xml and robots.txt name that address, not this one"
            ),
            Kind::HeadersNotSent => format!(
                "{} sends none of the site's headers: no HSTS, no protection against being framed (only a header can forbid it), no nosniff, Referrer-Policy or Permissions-Policy. Each page's <meta> Content-Security-Policy still limits its scripts, styles, images, connections and form posts to the site and Formspree",
                hosting.facts().name
            ),
        }
    }

    /// What to do, in the words of the hosting the site was built for.
    pub fn advice(&self, hosting: Hosting) -> Option<String> {
        let facts = hosting.facts();
        let advice = &facts.advice;
        let fix_url = || {
            format!(
                "set url in content/business.yaml to the site's address, build, and {}",
                facts.redeploy()
            )
        };
        Some(match self {
            Kind::NoHome | Kind::TooMany { .. } | Kind::Unreadable { .. } => return None,
            Kind::Unanswered { .. } => {
                "check that the site is up and reachable from here, then verify again".into()
            }
            Kind::TooLarge { .. } => format!(
                "look at the server's or proxy's error log; {}",
                facts.redeploy()
            ),
            Kind::Missing
            | Kind::OtherStatus { .. }
            | Kind::StalePage { .. }
            | Kind::OtherBytes { .. }
            | Kind::OtherForm { .. } => facts.redeploy(),
            Kind::CrossOriginRedirect { .. } => "if the site has moved there, verify that address; otherwise remove the redirect from the hosting's settings".into(),
            Kind::Redirected { .. } | Kind::NoRedirect { .. } => advice.redirects.into(),
            Kind::ServerError { .. } => "look at the server's error log (or the hosting's status page), then verify again".into(),
            Kind::NoHeader { .. }
            | Kind::OtherHeader { .. }
            | Kind::ShortAssetCache { .. }
            | Kind::LongCache { .. } => advice.send_headers.into(),
            Kind::StalePolicy => facts.stale_policy(),
            Kind::WrongType { .. } => advice.content_type.into(),
            Kind::SampleForm { .. } => format!(
                "set formspree_form_id in content/business.yaml to your form's id (formspree.io/f/<id>), build, and {}",
                facts.redeploy()
            ),
            Kind::UnknownAnswers { .. } | Kind::Other404Page => facts.not_found(),
            Kind::Internal { .. } => advice.hide.into(),
            Kind::SampleUrl { .. } => fix_url(),
            Kind::OtherUrl { given: true, .. } => {
                format!("if this is where the site lives, {}", fix_url())
            }
            Kind::OtherUrl { given: false, .. } => format!(
                "content/business.yaml names this address now: build, and {}",
                facts.redeploy()
            ),
            Kind::HeadersNotSent => headers_elsewhere(),
        })
    }
}

/// What a missing header leaves open, in a few words.
fn header_purpose(name: &str) -> &'static str {
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

/// The hostings that do send the site's headers, named.
fn headers_elsewhere() -> String {
    let others = Hosting::sending_headers();
    match others.split_last() {
        Some((last, [])) => format!("for those headers, build for and host on {last}"),
        Some((last, rest)) => format!(
            "for those headers, build for and host on {} or {last}",
            rest.join(", ")
        ),
        None => "no hosting this curbside knows sends them".into(),
    }
}

/// One kind found at one address (a path of the site).
#[derive(Debug, Clone)]
pub struct Found {
    pub kind: Kind,
    pub address: String,
}

impl Found {
    pub fn new(kind: Kind, address: &str) -> Found {
        Found {
            kind,
            address: address.to_string(),
        }
    }
}
