//! Undoing a `.memory` journal entry: the neutral undo (`review::undo`) over the records
//! engine. A stray file's entry is undone by `strays`; a repair's by putting the dropped file
//! back where it was listed; every other entry by exchanging the records it wrote for those it
//! replaced, each in the place of the one that replaced it. Those are this format's facts
//! (positions in the manifest, the repair's dropped file, strays); what an undo checks and says
//! is written once above. Above the observer (it runs the inverse through [`journaled`]) and
//! the strays.

use super::observer::journaled;
use super::strays;
use crate::change::{Change, Version};
use crate::redact::records::is_copy_of;
use crate::review::ReviewError;
use crate::review::journal::{DROPPED_DIR, Entry, EntryMeta, JournalRecord, Op};
use crate::review::state::StateDir;
use crate::review::undo::{self, Blocked, Held, Reverted, UndoEngine};
use crate::store::{Commit, MemorySet, Record, Store, StoreError, StoredRecord};

/// The listed entry that holds what `written` wrote: its own file, or (once a later change and
/// its undo rewrote the same record into a new file, as a rename and its undo do) the one
/// entry of that name whose record is the same. Either must hold the written record or its
/// redacted copy; `None` leaves the base check to report what changed.
fn holder_of<'a>(set: &'a MemorySet, written: &JournalRecord) -> Option<&'a StoredRecord> {
    let same = |e: &&StoredRecord| is_copy_of(&written.record, &e.record);
    if let Some(own) = set.entries.iter().find(|e| e.file == written.file) {
        return Some(own).filter(same);
    }
    let mut named = set
        .entries
        .iter()
        .filter(|e| e.record.name() == written.record.name);
    match (named.next(), named.next()) {
        (Some(only), None) => Some(only).filter(same),
        _ => None,
    }
}

/// What holds the place of the record `written` now, as the journal keeps it: its own file,
/// else a record of its name; the written record itself when that one is (a copy of) it.
fn written_now(set: &MemorySet, written: &JournalRecord) -> Option<Version> {
    let there = set
        .entries
        .iter()
        .find(|e| e.file == written.file)
        .or_else(|| set.get(&written.record.name))?;
    Some(if is_copy_of(&written.record, &there.record) {
        written.version()
    } else {
        JournalRecord::from(there).version()
    })
}

/// Reverts one entry as a new, base-checked transaction (`review::undo::undo`).
pub fn undo(store: &Store, entry: &Entry) -> Result<(Commit, Option<Entry>), ReviewError> {
    revert(store, entry).map(|reverted| reverted.undone)
}

/// [`undo`], answering the inverse it wrote too (what the undo's notes are said from).
pub(crate) fn revert(
    store: &Store,
    entry: &Entry,
) -> Result<Reverted<(Commit, Option<Entry>)>, ReviewError> {
    if let Some(stray) = &entry.stray {
        return Ok(Reverted {
            undone: strays::undo(store, entry, stray)?,
            inverse: entry.change().inverse(),
        });
    }
    undo::revert(&RecordsUndo { store }, entry)
}

/// The records engine as an [`UndoEngine`].
struct RecordsUndo<'a> {
    store: &'a Store,
}

impl RecordsUndo<'_> {
    /// The bytes of the file a repair dropped, as the state directory kept them.
    fn dropped_bytes(&self, file: &str) -> Result<Vec<u8>, Blocked> {
        let kept = StateDir::open(self.store)?
            .and_then(|state| state.subdir(DROPPED_DIR).transpose())
            .transpose()?;
        let bytes = match kept {
            Some(dir) => dir.read(file, crate::store::record::MAX_RECORD_BYTES)?,
            None => None,
        };
        bytes.ok_or_else(|| {
            Blocked::Conflict(format!("the dropped bytes of {file} are no longer kept"))
        })
    }
}

impl UndoEngine for RecordsUndo<'_> {
    type Undone = (Commit, Option<Entry>);

    fn write_inverse(
        &self,
        entry: &Entry,
        inverse: &Change,
        check: &dyn Fn(&[Held]) -> Result<(), ReviewError>,
    ) -> Result<Self::Undone, Blocked> {
        let store = self.store;
        let to_records = |records: &[JournalRecord]| -> Result<Vec<Record>, Blocked> {
            records
                .iter()
                .map(|r| Record::from_input(&r.record).map_err(|e| StoreError::from(e).into()))
                .collect::<Result<_, ReviewError>>()
                .map_err(Blocked::Failed)
        };
        // The files the entry wrote, addressed by file: exact even when a name is held twice.
        // A stored copy is redacted where the record holds a secret: the file's current record
        // stands for it when it is that copy (the compare then runs on the real text).
        let current = store.read().ok();
        let base: Vec<StoredRecord> = to_records(&entry.after)?
            .into_iter()
            .zip(&entry.after)
            .map(|(record, written)| {
                current
                    .as_ref()
                    .and_then(|set| holder_of(set, written))
                    .map_or(
                        StoredRecord {
                            file: written.file.clone(),
                            record,
                        },
                        |e| e.clone(),
                    )
            })
            .collect();
        let restore = to_records(&entry.before)?;
        let dropped = match &entry.dropped {
            Some(dropped) => Some((dropped, self.dropped_bytes(&dropped.file)?)),
            None => None,
        };
        // Read before the transaction (whose compare-and-swap is the guard): a set that does
        // not read is left for the transaction to refuse.
        if let Some(current) = &current {
            let held: Vec<Held> = inverse
                .touched
                .iter()
                // A repair's undo puts back its dropped file, not the records it let go.
                .filter(|t| dropped.is_none() || t.before.is_some())
                .map(|t| Held {
                    now: match (&t.before, &t.after) {
                        (Some(_), _) => entry
                            .after
                            .iter()
                            .find(|w| w.file == t.file)
                            .and_then(|w| written_now(current, w))
                            .map(|now| now.kept),
                        // A name the entry freed, held now by a record the undo does not take
                        // out.
                        (None, back) => back.as_ref().and_then(|back| {
                            current
                                .entries
                                .iter()
                                .filter(|e| base.iter().all(|b| b.file != e.file))
                                .find(|e| Some(e.record.name()) == back.memory.as_deref())
                                .map(|e| JournalRecord::from(e).version().kept)
                        }),
                    },
                    touched: t.clone(),
                })
                .collect();
            check(&held)?;
        }
        let meta = EntryMeta {
            op: Some(Op::Undo),
            undoes: Some(entry.id),
            ..EntryMeta::default()
        };
        let written = match dropped {
            Some((dropped, bytes)) => journaled(store, meta, None, |s| {
                s.restore_entry(&dropped.file, &bytes, dropped.position, &base)
            }),
            None => journaled(store, meta, None, |s| s.exchange_entries(&base, restore)),
        };
        written.map_err(|e| match e.into_engine_error::<StoreError>() {
            Ok(StoreError::Conflict { detail }) => Blocked::Conflict(detail),
            Ok(StoreError::DuplicateName { name }) => Blocked::Found {
                name,
                found: crate::review::error::FoundSince::AddedAgain,
            },
            Ok(other) => Blocked::Failed(other.into()),
            Err(other) => Blocked::Failed(other),
        })
    }
}
