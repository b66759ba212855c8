//! What `verify` found, one message per cause however many addresses share it,
//! for the terminal (as every other message, through the diagnostics) or
//! (`--json`) a deploy pipeline.

use std::collections::HashMap;

use serde::Serialize;

use super::finding::{Cause, Found, Kind};
use crate::diagnostics::{Diagnostic, Level, Location};
use crate::output::hosting::Hosting;

/// Every address shown in the terminal beyond the first, at most.
const ALSO_SHOWN: usize = 3;

#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    #[serde(rename = "severity")]
    pub level: Level,
    /// The kind's name and facts, for a pipeline to act on.
    #[serde(flatten)]
    pub kind: Kind,
    pub what: String,
    /// In the order seen.
    #[serde(rename = "where")]
    pub addresses: Vec<String>,
    /// For this hosting.
    pub fix: Option<String>,
}

impl Problem {
    /// In the format of `check` and `build`: the first address, then the others.
    pub fn diagnostic(&self, origin: &str) -> Diagnostic {
        let mut diagnostic = Diagnostic::new(self.what.clone()).level(self.level);
        if let Some(first) = self.addresses.first() {
            diagnostic = diagnostic.at(Location::address(&format!("{origin}{first}")));
        }
        let rest = self.addresses.get(1..).unwrap_or_default();
        if !rest.is_empty() {
            let shown: Vec<&str> = rest.iter().take(ALSO_SHOWN).map(String::as_str).collect();
            let more = match rest.len() - shown.len() {
                0 => String::new(),
                more => format!(" and {more} more"),
            };
            diagnostic = diagnostic.more(format!("also at: {}{more}", shown.join(", ")));
        }
        match &self.fix {
            Some(fix) => diagnostic.help(fix.clone()),
            None => diagnostic,
        }
    }
}

/// Problems by cause: a cause's first message kept, every address added.
#[derive(Debug)]
pub struct Findings {
    hosting: Hosting,
    allow_samples: bool,
    by_cause: HashMap<Cause, usize>,
    problems: Vec<Problem>,
}

impl Findings {
    /// Worded for `hosting`; with `allow_samples`, a sample value left in only warns.
    pub fn new(hosting: Hosting, allow_samples: bool) -> Findings {
        Findings {
            hosting,
            allow_samples,
            by_cause: HashMap::new(),
            problems: Vec::new(),
        }
    }

    pub fn push(&mut self, found: Found) {
        let cause = found.kind.cause();
        if let Some(&at) = self.by_cause.get(&cause) {
            self.problems[at].addresses.push(found.address);
            return;
        }
        self.by_cause.insert(cause, self.problems.len());
        self.problems.push(Problem {
            level: found.kind.level(self.allow_samples),
            what: found.kind.what(self.hosting),
            fix: found.kind.advice(self.hosting),
            kind: found.kind,
            addresses: vec![found.address],
        });
    }

    pub fn extend(&mut self, found: impl IntoIterator<Item = Found>) {
        for one in found {
            self.push(one);
        }
    }

    /// Errors, warnings, notes, each in the order found.
    pub fn into_sorted(mut self) -> Vec<Problem> {
        self.problems.sort_by_key(|problem| problem.level);
        self.problems
    }
}

#[derive(Debug, Serialize)]
pub struct Report<'a> {
    pub url: &'a str,
    pub hosting: &'a str,
    pub ok: bool,
    /// Retries not counted.
    pub addresses: usize,
    pub problems: &'a [Problem],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_cause_is_one_message_with_every_address_and_its_hostings_advice() {
        let mut findings = Findings::new(Hosting::Netlify, false);
        for address in ["/", "/a", "/b", "/c", "/d"] {
            let kind = Kind::NoHeader {
                name: "Strict-Transport-Security".into(),
            };
            findings.push(Found::new(kind, address));
        }
        findings.push(Found::new(Kind::HeadersNotSent, "/"));
        let problems = findings.into_sorted();
        assert_eq!(problems.len(), 2);
        let shown = problems[0].diagnostic("https://a.test").to_string();
        assert!(
            shown.starts_with("error: https://a.test/: no Strict-Transport-Security header is sent: browsers may reach the site over plain http\n  also at: /a, /b, /c and 1 more\n  help: "),
            "{shown}"
        );
        assert!(
            shown.ends_with(Hosting::Netlify.facts().advice.send_headers),
            "{shown}"
        );
        assert_eq!(problems[1].level, Level::Note);
    }

    #[test]
    fn a_sample_left_in_only_warns_when_samples_are_allowed() {
        let sample = || {
            Found::new(
                Kind::SampleUrl {
                    url: "https://example.com".into(),
                },
                "/",
            )
        };
        for (allowed, level) in [(false, Level::Error), (true, Level::Warning)] {
            let mut findings = Findings::new(Hosting::Nginx, allowed);
            findings.push(sample());
            assert_eq!(findings.into_sorted()[0].level, level);
        }
    }
}
