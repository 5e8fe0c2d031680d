//! What one process coordinates among its own threads before and around the directory lock:
//! a queue per store (so threads of this process never race each other for `.lock`) and the
//! contention probe tests wait on. The exit gate a signal handler closes is every format's
//! (`crate::locks`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::store::error::{Result, StoreError};

// ---- contention probe ----------------------------------------------------------------

type BusyCounts = (Mutex<HashMap<PathBuf, u64>>, Condvar);

fn busy_counts() -> &'static BusyCounts {
    static BUSY: OnceLock<BusyCounts> = OnceLock::new();
    BUSY.get_or_init(Default::default)
}

/// Counted only on the path that then sleeps [`super::RETRY_INTERVAL`] anyway, so the uncontended
/// acquire pays nothing.
pub(super) fn count_busy_attempt(root: &Path) {
    let (counts, changed) = busy_counts();
    *counts
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .entry(root.to_owned())
        .or_default() += 1;
    changed.notify_all();
}

/// Waits until a writer on `root` (a store's `Store::root()`) has, in this process, tried the
/// directory lock and found it held at least `at_least` times, or `timeout` passed; returns the
/// count. A state probe for tests that must know a writer is really waiting rather than guess
/// with a sleep; not part of the supported API.
#[doc(hidden)]
pub fn wait_for_busy_attempts(root: &Path, at_least: u64, timeout: Duration) -> u64 {
    let (counts, changed) = busy_counts();
    let deadline = Instant::now() + timeout;
    let mut counts = counts.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        let seen = counts.get(root).copied().unwrap_or(0);
        let left = deadline.saturating_duration_since(Instant::now());
        if seen >= at_least || left.is_zero() {
            return seen;
        }
        counts = changed
            .wait_timeout(counts, left)
            .unwrap_or_else(|p| p.into_inner())
            .0;
    }
}

// ---- in-process queue ----------------------------------------------------------------

type Slot = Arc<(Mutex<bool>, Condvar)>;

fn slot_for(root: &Path) -> Slot {
    static SLOTS: OnceLock<Mutex<HashMap<PathBuf, Slot>>> = OnceLock::new();
    let mut slots = SLOTS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    slots.entry(root.to_owned()).or_default().clone()
}

pub(super) struct QueueTurn(Slot);

impl QueueTurn {
    pub(super) fn wait(root: &Path, started: Instant, deadline: Instant) -> Result<Self> {
        let slot = slot_for(root);
        {
            let (held, cvar) = &*slot;
            let mut held = held.lock().unwrap_or_else(|p| p.into_inner());
            while *held {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(StoreError::QueueTimeout {
                        path: root.to_owned(),
                        waited_ms: started.elapsed().as_millis(),
                    });
                }
                held = cvar
                    .wait_timeout(held, left)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
            *held = true;
        }
        Ok(Self(slot))
    }
}

impl Drop for QueueTurn {
    fn drop(&mut self) {
        let (held, cvar) = &*self.0;
        *held.lock().unwrap_or_else(|p| p.into_inner()) = false;
        cvar.notify_one();
    }
}
