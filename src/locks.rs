//! What every format's write lock shares, whatever its protocol: the notice a writer gives
//! while it waits for a lock another process holds ([`LockWait`], told to a [`WaitNotice`]),
//! and the process's exit gate every held lock counts in ([`close_for_exit`]). A leaf: it
//! knows no format, so the trait layer (`formats`) and every engine's lock take these from
//! here (the `.memory` store's `store::lock` re-exports them, as part of that contract's API).

use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

/// How long a writer waits for a lock held by another process before it says so.
pub const WAIT_NOTICE_AFTER: Duration = Duration::from_secs(1);

/// A writer has been waiting [`WAIT_NOTICE_AFTER`] for a lock another process holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LockWait {
    /// When the holder last refreshed the lock (or when we first found it held), Unix ms.
    pub held_since_ms: i64,
    pub waited: Duration,
}

impl LockWait {
    /// When the holder last refreshed the lock as a clock time (`HH:MM:SS`, UTC), and how many
    /// whole seconds ago that was: what a person waiting is told.
    pub fn held_since(&self) -> (String, i64) {
        let since = crate::time::format_ms(self.held_since_ms);
        let clock = since.get(11..19).unwrap_or(&since).to_owned();
        let ago = (crate::time::now_ms() - self.held_since_ms).max(0) / 1000;
        (clock, ago)
    }
}

/// Told once per acquisition, from the waiting thread (a `.memory` store's
/// `StoreOptions::on_lock_wait`, a Claude Code folder's `LockWaitPolicy::notice`).
pub type WaitNotice = std::sync::Arc<dyn Fn(LockWait) + Send + Sync>;

/// How many locks this process holds, of any format, and whether it is about to exit: a
/// signal handler waits for the transactions in progress to finish (commit or roll back,
/// releasing their locks) and keeps new ones from starting, then exits (see `memwb`'s signal
/// handling).
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

/// Keeps any new lock from being taken in this process and waits until every lock held now
/// is released: after it returns, the process may exit without leaving a lock behind or a
/// transaction half done. Meant for a signal handler's thread, right before exit.
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

/// A count in the exit gate, given back when dropped (after the lock itself is released).
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
