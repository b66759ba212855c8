//! What a build tells its caller, and the peak memory, for benchmarks.

use std::time::Duration;

use crate::output::headers::InlineSources;

#[derive(Debug, Clone)]
pub struct BuildReport {
    pub files: usize,
    pub elapsed: Duration,
    /// Printed by `build` and the preview alike.
    pub warnings: Vec<String>,
    /// For the security headers.
    pub inline: InlineSources,
    /// In order.
    pub phases: Vec<(&'static str, Duration)>,
}

impl BuildReport {
    /// `timings: load=3.1 render=8.0 … (ms)` for benchmarks.
    pub fn timings_line(&self) -> String {
        let mut line = String::from("timings:");
        for (name, took) in &self.phases {
            line.push_str(&format!(" {name}={:.1}", took.as_secs_f64() * 1000.0));
        }
        line
    }
}

/// Peak resident memory in KiB, where the system tells it (Linux's VmHWM).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Time per phase; render, place, compress and write are sums over batches,
/// node the wait for Node's side.
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
