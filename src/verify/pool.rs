//! Many addresses, a bounded number at a time, each answer judged as it arrives
//! so only a few bodies are held.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::client::{Answer, Client, Failure};

/// Enough to hide latency, few enough that no host takes it for an attack.
pub const CONCURRENCY: usize = 8;

/// With the largest body it may send.
#[derive(Debug, Clone)]
pub struct Job {
    pub path: String,
    pub limit: u64,
}

/// On a terminal only, never a pipe or a log.
pub struct Progress {
    shown: bool,
    done: AtomicUsize,
    total: AtomicUsize,
}

impl Progress {
    pub fn new(quiet: bool) -> Progress {
        Progress {
            shown: !quiet && std::io::stderr().is_terminal(),
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
        }
    }

    pub fn expect(&self, more: usize) {
        self.total.fetch_add(more, Ordering::Relaxed);
    }

    pub fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if self.shown {
            let total = self.total.load(Ordering::Relaxed);
            eprint!("\rverifying: {done}/{total} addresses");
            let _ = std::io::stderr().flush();
        }
    }

    pub fn requests(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Before the findings are printed.
    pub fn finish(&self) {
        if self.shown {
            eprint!("\r\x1b[2K");
        }
    }
}

/// Threads of their own: each mostly waits on the network, which the
/// build's pool, one thread a core, would leave idle. Made once a run;
/// `None` (no threads to be had) asks on the build's pool.
pub fn threads() -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(CONCURRENCY)
        .build()
        .ok()
}

/// What `judge` made of each answer, in the order of `jobs`: `CONCURRENCY`
/// requests at a time, each answer judged (and its body let go) as it comes.
pub fn each<T: Send>(
    threads: Option<&rayon::ThreadPool>,
    client: &Client,
    jobs: &[Job],
    progress: &Progress,
    judge: impl Fn(usize, Result<Answer, Failure>) -> T + Sync,
) -> Vec<T> {
    progress.expect(jobs.len());
    let run = || -> Vec<T> {
        jobs.par_iter()
            .enumerate()
            .map(|(at, job)| {
                let judged = judge(at, client.get(&job.path, job.limit));
                progress.tick();
                judged
            })
            .collect()
    };
    match threads {
        Some(threads) => threads.install(run),
        None => run(),
    }
}
