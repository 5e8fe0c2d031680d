//! What every format's journal observer does around its engine's commit point, written once:
//! the intent is written before the first byte changes, marked committed after the commit
//! point (or aborted when the change failed before it), and a mark that could not be written
//! is kept to be reported as [`ReviewError::NotJournaled`]. Only what the engine tells the
//! observer differs by format; the fault hooks here therefore cover every format alike.

use std::sync::{Mutex, MutexGuard};

use super::entry::Entry;
use super::error::ReviewError;
use super::intent::Intent;
use super::journal::Journal;
use super::summary::entry_did;

/// The marks of one journaled change's intent, shared by the formats' observers.
#[derive(Debug)]
pub(crate) struct EntryMarking {
    journal: Journal,
    pending: Mutex<Option<Intent>>,
    appended: Mutex<Option<Entry>>,
    /// Why the last commit's mark could not be written, and its entry (the intent stays for
    /// recovery).
    unjournaled: Mutex<Option<(String, String)>>,
}

/// A poisoned lock only means another thread panicked while holding it: the value inside is
/// still the last one written.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl EntryMarking {
    pub(crate) fn new(journal: Journal) -> Self {
        Self {
            journal,
            pending: Mutex::new(None),
            appended: Mutex::new(None),
            unjournaled: Mutex::new(None),
        }
    }

    pub(crate) fn journal(&self) -> &Journal {
        &self.journal
    }

    /// Before the commit point: writes (and syncs) the intent, and keeps it to mark.
    pub(crate) fn prepared(&self, intent: Intent) -> Result<(), ReviewError> {
        self.journal.write_intent(&intent)?;
        *lock(&self.pending) = Some(intent);
        Ok(())
    }

    /// After the commit point: `amend` may re-journal the intent first (a `.memory` commit
    /// that lost its lock takes a new id), then the intent is marked committed. A mark that
    /// fails leaves the intent for the next change to decide, and is kept for [`Self::finish`].
    pub(crate) fn committed(&self, amend: impl FnOnce(&Journal, &mut Intent)) {
        let Some(mut intent) = lock(&self.pending).take() else {
            return;
        };
        amend(&self.journal, &mut intent);
        crash_point_for_tests();
        match fail_mark_for_tests(&self.journal).map_or_else(|| self.journal.finish(&intent), Err) {
            Ok(()) => *lock(&self.appended) = Some(intent.entry),
            Err(e) => {
                tracing::error!(error = %e, "committed, but the journal entry is still pending");
                let detail = format!(
                    "entry #{} ({}): {e}",
                    intent.entry.id,
                    intent.entry.op.as_str()
                );
                *lock(&self.unjournaled) = Some((detail, entry_did(&intent.entry)));
            }
        }
    }

    /// The change failed before its commit point: its intent is marked aborted.
    pub(crate) fn aborted(&self) {
        if let Some(intent) = lock(&self.pending).take() {
            self.journal.abort(&intent);
        }
    }

    /// The entry written for the last committed change.
    pub(crate) fn entry(&self) -> Option<Entry> {
        lock(&self.appended).clone()
    }

    /// The entry of the change that ran, or [`ReviewError::NotJournaled`] when it committed
    /// but its mark could not be written: the folder changed, and the entry waits as an
    /// intent that `check` reports and the next change records.
    pub(crate) fn finish(&self) -> Result<Option<Entry>, ReviewError> {
        match lock(&self.unjournaled).take() {
            Some((detail, did)) => Err(ReviewError::NotJournaled {
                path: self.journal.path(),
                detail,
                did,
            }),
            None => Ok(self.entry()),
        }
    }
}

/// With the `fault-injection` feature only (tests): `MEMWB_TEST_KILL_AFTER_COMMIT=1` makes the
/// process SIGKILL itself right after a commit point and before its journal entry is marked,
/// so tests can check recovery.
fn crash_point_for_tests() {
    #[cfg(feature = "fault-injection")]
    if std::env::var_os("MEMWB_TEST_KILL_AFTER_COMMIT").is_some() {
        // A signal a process sends itself is delivered before kill(2) returns; abort() only
        // if the kernel refused it.
        let _ =
            rustix::process::kill_process(rustix::process::getpid(), rustix::process::Signal::KILL);
        std::process::abort();
    }
}

/// With the `fault-injection` feature only (tests): `MEMWB_TEST_FAIL_JOURNAL_MARK=1` makes the
/// step after a commit point (marking its journal intent committed) fail, as a full disk would.
#[cfg_attr(not(feature = "fault-injection"), allow(unused_variables))]
fn fail_mark_for_tests(journal: &Journal) -> Option<ReviewError> {
    #[cfg(feature = "fault-injection")]
    if std::env::var_os("MEMWB_TEST_FAIL_JOURNAL_MARK").is_some() {
        return Some(
            crate::fs::FsError::io(
                "append to",
                journal.path(),
                std::io::Error::other("MEMWB_TEST_FAIL_JOURNAL_MARK is set"),
            )
            .into(),
        );
    }
    None
}
