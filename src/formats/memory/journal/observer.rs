//! The observer that journals every transaction of one operation, and the operations built
//! on it (`journaled`, `journaled_op`); undoing an entry is `undo.rs`, above it.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use super::records::kept_records;
use super::took_effect::listed_files;
use crate::review::ReviewError;
use crate::review::intent::{Expect, Intent, manifest_change};
use crate::review::journal::{DROPPED_DIR, DroppedFile, Entry, EntryMeta, Journal, Op, Side};
use crate::review::marking::EntryMarking;
use crate::review::proposal::{self as filed, Deciding};
use crate::review::state::{StateDir, text_digest};
use crate::store::{Commit, CommitObserver, MemorySet, Store, StoreError};
use crate::time::now_ms;

/// The observer that journals every transaction of one operation.
pub struct JournalObserver {
    marking: EntryMarking,
    meta: EntryMeta,
    decision: Option<Deciding>,
    /// The listed file a repair drops, whose bytes [`CommitObserver::keep_dropped`] kept.
    dropped: Mutex<Option<DroppedFile>>,
}

impl JournalObserver {
    pub fn new(store: &Store, meta: EntryMeta, decision: Option<Deciding>) -> Arc<Self> {
        Arc::new(Self {
            marking: EntryMarking::new(Journal::of(store)),
            meta,
            decision,
            dropped: Mutex::new(None),
        })
    }

    /// The entry written for the last committed transaction.
    pub fn entry(&self) -> Option<Entry> {
        self.marking.entry()
    }

    fn journal(&self) -> &Journal {
        self.marking.journal()
    }
}

impl CommitObserver for JournalObserver {
    fn keep_dropped(
        &self,
        store: &Store,
        file: &str,
        position: usize,
        bytes: &[u8],
    ) -> Result<bool, StoreError> {
        let kept = StateDir::create(store).and_then(|state| state.create_subdir(DROPPED_DIR))?;
        let redacted = crate::redact::redact_bytes(bytes);
        let bytes = redacted.as_deref().unwrap_or(bytes);
        match kept.read(file, bytes.len() + 1)? {
            Some(there) if there == bytes => {}
            Some(_) => {
                return Err(StoreError::Conflict {
                    detail: format!("{}/{file} already holds other bytes", kept.path().display()),
                });
            }
            None => kept.create_exclusive(file, bytes)?,
        }
        *self.dropped.lock().unwrap_or_else(|p| p.into_inner()) = Some(DroppedFile {
            file: file.to_owned(),
            position,
            redacted: redacted.is_some(),
        });
        Ok(true)
    }

    fn recover(&self, store: &Store) -> Result<(), StoreError> {
        self.journal().recover(store)?;
        match &self.decision {
            Some(deciding) => Ok(filed::check_as_read(store, &deciding.read_as)?),
            None => Ok(()),
        }
    }

    fn prepare(
        &self,
        store: &Store,
        before: &MemorySet,
        after: &MemorySet,
    ) -> Result<(), StoreError> {
        let after_files: HashSet<&str> = after.entries.iter().map(|e| e.file.as_str()).collect();
        let before_files: HashSet<&str> = before.entries.iter().map(|e| e.file.as_str()).collect();
        let (removed, mut redacted) = kept_records(
            before
                .entries
                .iter()
                .filter(|e| !after_files.contains(e.file.as_str())),
            Side::Before,
        );
        let (written, written_redacted) = kept_records(
            after
                .entries
                .iter()
                .filter(|e| !before_files.contains(e.file.as_str())),
            Side::After,
        );
        redacted.extend(written_redacted);
        // What the caller kept redacted before the change reached the journal.
        redacted.extend(self.meta.redacted.iter().cloned());
        let op = self
            .meta
            .op
            .unwrap_or(match (removed.is_empty(), written.is_empty()) {
                (true, true) => Op::RebuildIndex,
                (true, false) => Op::Add,
                (false, true) => Op::Rm,
                (false, false) => Op::Set,
            });
        let expect = if op == Op::RebuildIndex {
            Expect::IndexDigest {
                digest: text_digest(after.index_text().as_bytes()),
            }
        } else {
            // The manifest as it is on disk, not `before`: a repair's `before` leaves out the
            // entry it fixes, and recovery must see that entry go.
            manifest_change(&listed_files(store)?, &after.files())
        };
        let pending = Intent {
            entry: Entry {
                before: removed,
                after: written,
                redacted,
                dropped: self
                    .dropped
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .clone(),
                ..Entry::new(self.journal().next_id()?, now_ms(), op, &self.meta)
            },
            expect,
            decision: self.decision.as_ref().map(|d| d.decision.clone()),
        };
        Ok(self.marking.prepared(pending)?)
    }

    fn committed(&self, _store: &Store, commit: &Commit) {
        self.marking.committed(|journal, pending| {
            if let Some(reason) = &commit.lock_lost {
                renumber_after_lost_lock(journal, pending, reason);
            }
        });
    }

    fn aborted(&self, _store: &Store) {
        self.marking.aborted();
    }
}

/// Another writer may have decided our intent (aborted: the manifest had not moved yet) and
/// reused its id: the commit is journaled afresh, under a new id, saying so.
fn renumber_after_lost_lock(journal: &Journal, pending: &mut Intent, reason: &str) {
    journal.abort(pending);
    pending.entry.conflict = Some(format!(
        "the store lock was lost during this commit ({reason}): it may have overwritten another writer's commit"
    ));
    // Past every committed entry: the mark just written frees our old id, which the other
    // writer may have committed under already.
    let committed_max = journal
        .scan()
        .map(|scan| scan.entries.iter().map(|e| e.id).max().unwrap_or(0))
        .unwrap_or(pending.entry.id);
    match journal.next_id() {
        Ok(id) => pending.entry.id = id.max(committed_max + 1),
        Err(e) => tracing::error!(error = %e, "could not renumber a conflicting commit"),
    }
    if let Err(e) = journal.write_intent(pending) {
        tracing::error!(error = %e, "could not journal a conflicting commit");
    }
}

/// Runs one journaled operation on `store`. A change that committed but whose journal mark
/// could not be written is an error ([`ReviewError::NotJournaled`]): the set changed, and the
/// entry waits as an intent that `check` reports and the next change records.
pub fn journaled<T>(
    store: &Store,
    meta: EntryMeta,
    decision: Option<Deciding>,
    op: impl FnOnce(&Store) -> Result<T, StoreError>,
) -> Result<(T, Option<Entry>), ReviewError> {
    let observer = JournalObserver::new(store, meta, decision);
    let observed = store.with_observer(observer.clone());
    let value = op(&observed)?;
    Ok((value, observer.marking.finish()?))
}

/// Runs one change of the set with its journal entry, the way every command and the workbench
/// do: `op` names the change, and the commit is returned.
pub fn journaled_op(
    store: &Store,
    op: Op,
    change: impl FnOnce(&Store) -> Result<Commit, StoreError>,
) -> Result<Commit, ReviewError> {
    let meta = EntryMeta {
        op: Some(op),
        ..EntryMeta::default()
    };
    Ok(journaled(store, meta, None, change)?.0)
}
