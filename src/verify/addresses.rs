//! Addresses that are not files of the build: pages' `.html` and trailing-slash
//! forms, unknown addresses (the 404 page, status 404), and what must never be served.

use super::built::Built;
use super::client::{Answer, Failure, Origin};
use super::files::{limit_for, unanswered};
use super::finding::{Found, Kind};
use super::headers;
use super::pool::Job;
use crate::output::hosting::OtherAddresses;

#[derive(Debug, Clone)]
pub enum Expect {
    /// A permanent redirect within the origin; `or_same` also accepts the page
    /// itself (hosting whose redirects are its own).
    Redirect {
        to: String,
        or_same: Option<String>,
    },
    NotFound,
    /// Anything but a file: 4xx, or one of the site's pages.
    Hidden {
        what: &'static str,
    },
}

#[derive(Debug, Clone)]
pub struct Probe {
    pub path: String,
    pub expect: Expect,
}

impl Probe {
    /// Each may answer with a page (a `.html` form served as is, a catch-all
    /// rule): as large as the largest.
    pub fn job(&self, built: &Built) -> Job {
        let largest = built.pages().map(|page| page.size).max().unwrap_or(0);
        Job {
            path: self.path.clone(),
            limit: limit_for(largest.max(built.not_found.len() as u64)),
        }
    }
}

/// Files that tell an attacker how the site is built, or leak its sources, with their folder.
const INTERNAL: &[(&str, &str)] = &[
    ("/dist-server/nginx.conf", "dist-server/"),
    ("/dist-server/Caddyfile", "dist-server/"),
    ("/dist-server/build.json", "dist-server/"),
    ("/nginx.conf", "dist-server/"),
    ("/Caddyfile", "dist-server/"),
    ("/build.json", "dist-server/"),
    ("/.curbside-output", "dist-server/"),
    ("/.curbside/", ".curbside/"),
    ("/content/business.yaml", "the project's sources"),
    ("/layouts/base.html", "the project's sources"),
    ("/Cargo.toml", "the project's sources"),
    ("/dist/index.html", "the project's folder"),
];

pub fn probes(built: &Built) -> Vec<Probe> {
    let hosting = built.hosting;
    let mut probes = Vec::new();
    // The hosting's own redirects; some may answer the page itself.
    let strict = hosting.facts().other_addresses == OtherAddresses::Redirect;
    let pages: Vec<(String, String)> = built
        .pages()
        .filter(|page| page.address != "/")
        .take(3)
        .map(|page| (page.address.clone(), page.file.clone()))
        .collect();
    let same = |file: &str| (!strict).then(|| file.to_string());
    for (address, file) in &pages {
        probes.push(Probe {
            path: format!("{address}.html"),
            expect: Expect::Redirect {
                to: address.clone(),
                or_same: same(file),
            },
        });
        if strict {
            probes.push(Probe {
                path: format!("{address}/"),
                expect: Expect::Redirect {
                    to: address.clone(),
                    or_same: None,
                },
            });
        }
    }
    probes.push(Probe {
        path: "/index.html".into(),
        expect: Expect::Redirect {
            to: "/".into(),
            or_same: same("index.html"),
        },
    });
    for path in [
        "/curbside-verify-no-such-page",
        "/assets/curbside-verify-0123456789.js",
    ] {
        probes.push(Probe {
            path: path.into(),
            expect: Expect::NotFound,
        });
    }
    if hosting.facts().hides_404_address {
        probes.push(Probe {
            path: "/404".into(),
            expect: Expect::NotFound,
        });
    }
    let mut hidden: Vec<(&str, &'static str)> = INTERNAL.to_vec();
    hidden.push(("/_headers", "_headers"));
    hidden.push(("/_redirects", "_redirects"));
    if hosting.facts().precompressed {
        hidden.push(("/index.html.br", "the precompressed copies"));
        hidden.push(("/index.html.gz", "the precompressed copies"));
    }
    probes.extend(hidden.into_iter().map(|(path, what)| Probe {
        path: path.into(),
        expect: Expect::Hidden { what },
    }));
    probes
}

/// Everything about one probe's answer.
pub fn judge(
    probe: &Probe,
    answer: Result<Answer, Failure>,
    built: &Built,
    origin: &Origin,
) -> Vec<Found> {
    let path = probe.path.as_str();
    let hosting = built.hosting;
    let answer = match answer {
        Ok(answer) => answer,
        Err(failure) => return vec![unanswered(&failure, path)],
    };
    let mut found = Vec::new();
    match &probe.expect {
        Expect::Redirect { to, or_same } => {
            found.extend(headers::security(&answer, &built.record, hosting, path));
            let location = answer.header("location").unwrap_or_default();
            let permanent = matches!(answer.status, 301 | 308);
            let same_page = answer.status == 200
                && or_same
                    .as_ref()
                    .and_then(|file| std::fs::read(built.out.join(file)).ok())
                    .is_some_and(|bytes| bytes == answer.body);
            let kind = match origin.resolve(location) {
                _ if same_page => None,
                Err(to) if permanent || answer.status / 100 == 3 => {
                    Some(Kind::CrossOriginRedirect { to })
                }
                Ok(target) if permanent && target == *to => None,
                _ => Some(Kind::NoRedirect {
                    status: answer.status,
                    location: location.to_string(),
                    to: to.clone(),
                }),
            };
            found.extend(kind.map(|kind| Found::new(kind, path)));
        }
        Expect::NotFound => {
            found.extend(headers::security(&answer, &built.record, hosting, path));
            if answer.status != 404 {
                let status = answer.status;
                found.push(Found::new(Kind::UnknownAnswers { status }, path));
            } else if answer.body != built.not_found {
                found.push(Found::new(Kind::Other404Page, path));
            }
        }
        Expect::Hidden { what } => {
            // A catch-all answering with the home page is the 404 check's to report.
            let home = std::fs::read(built.out.join("index.html")).unwrap_or_default();
            let served = (200..300).contains(&answer.status)
                && answer.body != built.not_found
                && answer.body != home
                && !answer.body.is_empty();
            if served {
                let kind = Kind::Internal {
                    what,
                    status: answer.status,
                };
                found.push(Found::new(kind, path));
            }
        }
    }
    found
}

/// The built address against the verified one (canonical links, sitemap and
/// robots.txt name the built one): another address given may be a staging copy
/// (a warning); business.yaml's is where the site lives (an error: the build is older).
pub fn site_address(built: &Built, origin: &Origin, given: bool) -> Option<Found> {
    let record = &built.record;
    let url = record.url.clone();
    let kind = if record.samples.iter().any(|name| name == "url") {
        Kind::SampleUrl { url }
    } else if Origin::parse(&record.url).ok().as_ref() != Some(origin) {
        Kind::OtherUrl { url, given }
    } else {
        return None;
    };
    Some(Found::new(kind, "/"))
}
