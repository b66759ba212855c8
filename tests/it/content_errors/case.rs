//! What every case does: a copy of the project to break, a build that must
//! fail at a place with its message snapshotted, and the lock that builds
//! starting Node take.

use std::sync::{Mutex, MutexGuard};

use crate::support::fixture::Fixture;

/// Builds `$fixture`, checks that it fails at `$at` (see
/// `Fixture::build_fails_at`), and snapshots its stderr under the test's name.
macro_rules! fails_at {
    ($fixture:expr, $at:expr) => {{
        let stderr = $fixture.build_fails_at($at);
        insta::assert_snapshot!(stderr);
    }};
}
pub(super) use fails_at;

pub(super) fn project() -> Fixture {
    Fixture::copy_of_project()
}

/// Builds that start Node share the project's frontend/ (and its one-time
/// `npm ci`), so they run one at a time.
pub(super) fn node_build() -> MutexGuard<'static, ()> {
    static NODE: Mutex<()> = Mutex::new(());
    NODE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
