//! What one process coordinates among its own threads before and around the directory lock:
//! a queue per store (so threads of this process never race each other for `.lock`), the exit
//! gate a signal handler closes, and the contention probe tests wait on.

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

// ---- exit gate ------------------------------------------------------------------------

/// How many store locks this process holds, and whether it is about to exit: a signal handler
/// waits for the transactions in progress to finish (commit or roll back, releasing their
/// locks) and keeps new ones from starting, then exits (see `memwb`'s signal handling).
struct ExitGate {
    held: usize,
    closing: bool,
}

fn exit_gate() -> &'static (Mutex<ExitGate>, Condvar) {
    static GATE: OnceLock<(Mutex<ExitGate>, Condvar)> = OnceLock::new();
    GATE.get_or_init(|| {
        (
            Mutex::new(ExitGate {
                held: 0,
                closing: false,
            }),
            Condvar::new(),
        )
    })
}

/// Keeps any new store lock from being taken in this process and waits until every lock
/// held now is released: after it returns, the process may exit without leaving a `.lock`
/// behind or a transaction half done. Meant for a signal handler's thread, right before exit.
#[cfg(feature = "cli")]
pub(crate) fn close_for_exit() {
    let (gate, changed) = exit_gate();
    let mut state = gate.lock().unwrap_or_else(|p| p.into_inner());
    state.closing = true;
    while state.held > 0 {
        state = changed.wait(state).unwrap_or_else(|p| p.into_inner());
    }
}

/// Counts a lock about to be taken; blocks for good once the process is closing (it is about
/// to exit, and must not start a transaction it could not finish).
fn enter_gate() {
    let (gate, changed) = exit_gate();
    let mut state = gate.lock().unwrap_or_else(|p| p.into_inner());
    while state.closing {
        state = changed.wait(state).unwrap_or_else(|p| p.into_inner());
    }
    state.held += 1;
}

fn leave_gate() {
    let (gate, changed) = exit_gate();
    let mut state = gate.lock().unwrap_or_else(|p| p.into_inner());
    state.held = state.held.saturating_sub(1);
    changed.notify_all();
}

/// A count in the exit gate, given back when dropped (after the lock directory is released).
pub(crate) struct GateTurn;

impl GateTurn {
    pub(crate) fn enter() -> Self {
        enter_gate();
        GateTurn
    }
}

impl Drop for GateTurn {
    fn drop(&mut self) {
        leave_gate();
    }
}
