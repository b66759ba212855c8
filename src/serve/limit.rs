//! A count of things in use at once (connections, streams, form posts),
//! with a ceiling.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Limit {
    running: Arc<AtomicUsize>,
    max: usize,
}

/// One taken place in a [`Limit`], given back when dropped.
pub struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Limit {
    pub fn new(max: usize) -> Limit {
        Limit {
            running: Arc::new(AtomicUsize::new(0)),
            max,
        }
    }

    /// A place, if fewer than the ceiling are taken.
    pub fn take(&self) -> Option<Slot> {
        if self.running.fetch_add(1, Ordering::AcqRel) >= self.max {
            self.running.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(Slot(self.running.clone()))
    }
}
