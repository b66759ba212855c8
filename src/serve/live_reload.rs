//! Live reload over server-sent events at `/__curbside/events`. Each open page
//! holds a stream: `event: reload` after a build that fully succeeded, `event:
//! error` (the diagnostic) after a failed one, so the page shows an overlay
//! over the last good site. Event ids carry the server's session and the
//! build's generation, so a page that reconnects having missed a good build
//! reloads at once.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub const EVENTS_PATH: &str = "/__curbside/events";

/// A comment this often notices a closed tab (the write fails), ending its thread.
const KEEPALIVE: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Pending,
    Built,
    /// As the terminal shows it.
    Failed(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Status {
    generation: u64,
    outcome: Outcome,
}

pub struct LiveReload {
    /// Tells this run's event ids from a previous run's.
    session: String,
    status: Mutex<Status>,
    changed: Condvar,
    closed: AtomicBool,
}

impl Default for LiveReload {
    fn default() -> LiveReload {
        let started = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        LiveReload {
            session: format!("{started:x}"),
            status: Mutex::new(Status {
                generation: 0,
                outcome: Outcome::Pending,
            }),
            changed: Condvar::new(),
            closed: AtomicBool::new(false),
        }
    }
}

impl LiveReload {
    pub fn built(&self) {
        self.finish(Outcome::Built);
    }

    pub fn failed(&self, message: impl Into<String>) {
        self.finish(Outcome::Failed(message.into()));
    }

    pub fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
        let _guard = self.lock();
        self.changed.notify_all();
    }

    fn finish(&self, outcome: Outcome) {
        let mut status = self.lock();
        status.generation += 1;
        status.outcome = outcome;
        self.changed.notify_all();
    }

    fn lock(&self) -> MutexGuard<'_, Status> {
        // Replaced whole, so a panic elsewhere cannot leave it half-written.
        self.status.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn snapshot(&self) -> Status {
        self.lock().clone()
    }

    /// Waits for a build after `seen`; `None` on timeout or close.
    fn wait_after(&self, seen: u64, timeout: Duration) -> Option<Status> {
        let status = self.lock();
        let (status, _) = self
            .changed
            .wait_timeout_while(status, timeout, |s| {
                s.generation == seen && !self.closed.load(Ordering::Relaxed)
            })
            .unwrap_or_else(PoisonError::into_inner);
        (status.generation != seen).then(|| status.clone())
    }

    fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    fn event_id(&self, generation: u64) -> String {
        format!("{}-{generation}", self.session)
    }

    /// The current state for a page that connects: an error while the build is
    /// broken, a reload if it missed a good build.
    fn greeting(&self, status: &Status, last_event_id: Option<&str>) -> String {
        let id = self.event_id(status.generation);
        let event = match &status.outcome {
            Outcome::Failed(message) => error_event(&id, message),
            Outcome::Built if last_event_id.is_some_and(|seen| seen != id) => reload_event(&id),
            // An id alone is not dispatched, but comes back on reconnecting.
            _ => format!("id: {id}\n\n"),
        };
        format!("retry: 1000\n{event}")
    }

    fn update(&self, status: &Status) -> Option<String> {
        let id = self.event_id(status.generation);
        match &status.outcome {
            Outcome::Pending => None,
            Outcome::Built => Some(reload_event(&id)),
            Outcome::Failed(message) => Some(error_event(&id, message)),
        }
    }
}

fn reload_event(id: &str) -> String {
    format!("id: {id}\nevent: reload\ndata: reload\n\n")
}

fn error_event(id: &str, message: &str) -> String {
    let mut event = format!("id: {id}\nevent: error\n");
    // A carriage return would end a stream line too.
    let message = message.replace("\r\n", "\n").replace('\r', "\n");
    let message = if message.trim().is_empty() {
        "the build failed"
    } else {
        message.trim_end()
    };
    for line in message.split('\n') {
        event.push_str("data: ");
        event.push_str(line);
        event.push('\n');
    }
    event.push('\n');
    event
}

/// Writes one page's event stream until the page goes or the server stops, on
/// its connection's thread.
pub fn stream(
    writer: &mut dyn Write,
    live: &LiveReload,
    headers: &str,
    last_event_id: Option<&str>,
    head_only: bool,
) {
    // By hand: tiny_http would buffer a streamed body.
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\nConnection: close\r\n{headers}\r\n"
    );
    let mut status = live.snapshot();
    let greeting = live.greeting(&status, last_event_id);
    let mut send = |text: &str| {
        writer
            .write_all(text.as_bytes())
            .and_then(|()| writer.flush())
            .is_ok()
    };
    if !send(&head) || head_only || !send(&greeting) {
        return;
    }
    while !live.is_closed() {
        let sent = match live.wait_after(status.generation, KEEPALIVE) {
            Some(next) => {
                status = next;
                live.update(&status).is_none_or(|event| send(&event))
            }
            None => send(": keepalive\n\n"),
        };
        if !sent {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn live() -> LiveReload {
        LiveReload {
            session: "s".into(),
            ..LiveReload::default()
        }
    }

    #[test]
    fn a_page_opened_while_broken_sees_the_error() {
        let live = live();
        live.built();
        live.failed("error: content/plans.yaml:4:10: bad price\n  help: fix it");
        assert_eq!(
            live.greeting(&live.snapshot(), None),
            "retry: 1000\nid: s-2\nevent: error\ndata: error: content/plans.yaml:4:10: bad price\ndata:   help: fix it\n\n"
        );
    }

    #[test]
    fn a_waiting_stream_wakes_for_the_next_build_only() {
        let live = std::sync::Arc::new(live());
        assert_eq!(live.wait_after(0, Duration::from_millis(10)), None);
        let builder = {
            let live = live.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                live.failed("x");
            })
        };
        let next = live.wait_after(0, Duration::from_secs(5)).unwrap();
        assert_eq!(next.outcome, Outcome::Failed("x".into()));
        builder.join().unwrap();
        live.close();
        assert_eq!(live.wait_after(1, Duration::from_secs(5)), None);
    }

    #[test]
    fn error_text_cannot_break_the_stream() {
        let event = error_event("i", "one\r\ntwo\rthree\n\n");
        assert_eq!(
            event,
            "id: i\nevent: error\ndata: one\ndata: two\ndata: three\n\n"
        );
        assert!(error_event("i", " ").contains("data: the build failed\n"));
    }
}
