//! Undoing a `.memory` journal entry: the inverse change, base-checked like any other, and
//! journaled. A stray file's entry is undone by `strays`; a repair's by putting the dropped
//! file back; every other entry by exchanging the records it wrote for those it replaced.
//! Above the observer (it runs the inverse through [`journaled`]) and the strays.

use super::observer::journaled;
use super::strays;
use crate::redact::records::is_copy_of;
use crate::review::ReviewError;
use crate::review::error::FoundSince;
use crate::review::journal::{DROPPED_DIR, Entry, EntryMeta, JournalRecord, Op};
use crate::review::state::StateDir;
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

/// Reverts one entry as a new, base-checked transaction: the files it wrote must still be
/// listed, unchanged; they are replaced by the records it removed, each in the place of the
/// one that replaced it.
pub fn undo(store: &Store, entry: &Entry) -> Result<(Commit, Option<Entry>), ReviewError> {
    if let Some(stray) = &entry.stray {
        return strays::undo(store, entry, stray);
    }
    if let Some(refused) = entry.undo_refusal() {
        return Err(refused);
    }
    let to_records = |records: &[JournalRecord]| -> Result<Vec<Record>, StoreError> {
        records
            .iter()
            .map(|r| Record::from_input(&r.record).map_err(StoreError::from))
            .collect()
    };
    // The files the entry wrote, addressed by file: exact even when a name is held twice. A
    // stored copy is redacted where the record holds a secret: the file's current record
    // stands for it when it is that copy (the base check then runs on the real text).
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
    let meta = EntryMeta {
        op: Some(Op::Undo),
        undoes: Some(entry.id),
        ..EntryMeta::default()
    };
    let since = entry.id;
    if let Some(dropped) = &entry.dropped {
        // A repair: put the dropped file back, exactly, where it was listed.
        let kept = StateDir::open(store)?
            .and_then(|state| state.subdir(DROPPED_DIR).transpose())
            .transpose()?;
        let bytes = match kept {
            Some(dir) => dir.read(&dropped.file, crate::store::record::MAX_RECORD_BYTES)?,
            None => None,
        }
        .ok_or_else(|| ReviewError::UndoBlocked {
            id: since,
            detail: format!("the dropped bytes of {} are no longer kept", dropped.file),
        })?;
        return journaled(store, meta, None, |s| {
            s.restore_entry(&dropped.file, &bytes, dropped.position, &base)
        })
        .map_err(|e| match e.into_engine_error::<StoreError>() {
            Ok(StoreError::Conflict { detail }) => ReviewError::UndoBlocked { id: since, detail },
            Ok(other) => other.into(),
            Err(other) => other,
        });
    }
    journaled(store, meta, None, |s| s.exchange_entries(&base, restore)).map_err(|e| {
        match e.into_engine_error::<StoreError>() {
            Ok(StoreError::Conflict { detail }) => ReviewError::UndoBlocked {
                id: since,
                detail: detail.replace("since it was read", &format!("since #{since}")),
            },
            Ok(StoreError::DuplicateName { name }) => {
                ReviewError::undo_found(since, &name, FoundSince::AddedAgain)
            }
            Ok(other) => other.into(),
            Err(other) => other,
        }
    })
}
