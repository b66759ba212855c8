//! What `verify` found, one message per cause however many addresses share it,
//! for the terminal or (`--json`) a deploy pipeline.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Visitors turned away, or not this build: verify fails.
    Error,
    /// Worth fixing; the site works as built.
    Warning,
    /// Nothing to fix (what the hosting cannot do).
    Note,
}

#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    pub severity: Severity,
    pub what: String,
    /// In the order seen.
    #[serde(rename = "where")]
    pub addresses: Vec<String>,
    /// For this hosting.
    pub fix: Option<String>,
}

/// One finding at one address; `key` names its cause.
#[derive(Debug, Clone)]
pub struct Found {
    pub key: String,
    pub severity: Severity,
    pub address: String,
    pub what: String,
    pub fix: Option<String>,
    /// About a sample value left in: only a warning with `--allow-samples`.
    pub sample: bool,
}

impl Found {
    pub fn error(key: impl Into<String>, address: &str, what: impl Into<String>) -> Found {
        Found {
            key: key.into(),
            severity: Severity::Error,
            address: address.to_string(),
            what: what.into(),
            fix: None,
            sample: false,
        }
    }

    pub fn warning(key: impl Into<String>, address: &str, what: impl Into<String>) -> Found {
        Found {
            severity: Severity::Warning,
            ..Found::error(key, address, what)
        }
    }

    pub fn note(key: impl Into<String>, address: &str, what: impl Into<String>) -> Found {
        Found {
            severity: Severity::Note,
            ..Found::error(key, address, what)
        }
    }

    pub fn fix(mut self, fix: impl Into<String>) -> Found {
        self.fix = Some(fix.into());
        self
    }

    /// Marks it as about a sample value left in.
    pub fn of_a_sample(mut self) -> Found {
        self.sample = true;
        self
    }
}

/// Problems by cause: a key's first message kept, every address added.
#[derive(Debug, Default)]
pub struct Findings {
    by_key: BTreeMap<String, usize>,
    problems: Vec<Problem>,
}

impl Findings {
    pub fn add(
        &mut self,
        key: &str,
        severity: Severity,
        address: &str,
        what: impl Into<String>,
        fix: Option<String>,
    ) {
        match self.by_key.get(key) {
            Some(&at) => self.problems[at].addresses.push(address.to_string()),
            None => {
                self.by_key.insert(key.to_string(), self.problems.len());
                self.problems.push(Problem {
                    severity,
                    what: what.into(),
                    addresses: vec![address.to_string()],
                    fix,
                });
            }
        }
    }

    pub fn push(&mut self, found: Found) {
        self.add(
            &found.key,
            found.severity,
            &found.address,
            found.what,
            found.fix,
        );
    }

    pub fn extend(&mut self, found: impl IntoIterator<Item = Found>) {
        for one in found {
            self.push(one);
        }
    }

    /// Errors, warnings, notes, each in the order found.
    pub fn into_sorted(mut self) -> Vec<Problem> {
        self.problems.sort_by_key(|problem| problem.severity);
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

/// In the format of `check` and `build`.
pub fn render(problem: &Problem, origin: &str) -> String {
    let label = match problem.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let mut out = match problem.addresses.first() {
        Some(first) => format!("{label}: {origin}{first}: {}", problem.what),
        None => format!("{label}: {}", problem.what),
    };
    let rest = &problem.addresses[problem.addresses.len().min(1)..];
    if !rest.is_empty() {
        let shown: Vec<&str> = rest.iter().take(3).map(String::as_str).collect();
        let more = rest.len() - shown.len();
        let _ = write!(out, "\n  also at: {}", shown.join(", "));
        if more > 0 {
            let _ = write!(out, " and {more} more");
        }
    }
    if let Some(fix) = &problem.fix {
        let _ = write!(out, "\n  help: {fix}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_cause_is_one_message_with_every_address() {
        let mut findings = Findings::default();
        for address in ["/", "/a", "/b", "/c", "/d"] {
            findings.add(
                "hsts",
                Severity::Error,
                address,
                "no HSTS",
                Some("fix".into()),
            );
        }
        findings.add("note", Severity::Note, "/", "a note", None);
        let problems = findings.into_sorted();
        assert_eq!(problems.len(), 2);
        assert_eq!(
            render(&problems[0], "https://a.test"),
            "error: https://a.test/: no HSTS\n  also at: /a, /b, /c and 1 more\n  help: fix"
        );
    }
}
