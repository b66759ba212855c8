//! What a build tells its caller: the files written, the warnings, the time
//! each phase took; and the process's peak memory, for the benchmarks.

use std::time::Duration;

use crate::output::headers::InlineSources;

#[derive(Debug, Clone)]
pub struct BuildReport {
    pub files: usize,
    pub elapsed: Duration,
    /// What the owner should fix before publishing, though the site builds:
    /// printed by `build` and by the preview alike.
    pub warnings: Vec<String>,
    /// CSP sources of the inline stylesheet and script, for the security headers.
    pub inline: InlineSources,
    /// Where the time went, phase by phase, in order.
    pub phases: Vec<(&'static str, Duration)>,
}

impl BuildReport {
    /// `timings: load=3.1 render=8.0 … (ms)`, one line for benchmarks to read.
    pub fn timings_line(&self) -> String {
        let mut line = String::from("timings:");
        for (name, took) in &self.phases {
            line.push_str(&format!(" {name}={:.1}", took.as_secs_f64() * 1000.0));
        }
        line
    }
}

/// This process's peak resident memory in KiB, where the system tells it
/// (Linux: VmHWM in /proc/self/status).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Where each phase's time went. Pages go through render, place, compress
/// and write a batch at a time, so those are sums over the batches; node is
/// the time spent waiting for Node's side.
#[derive(Default)]
pub(super) struct Times {
    pub(super) load: Duration,
    pub(super) render: Duration,
    pub(super) pictures: Duration,
    pub(super) node: Duration,
    pub(super) place: Duration,
    pub(super) compress: Duration,
    pub(super) write: Duration,
}
