//! Journaled changes to the files in `.memory` outside the set (unlisted `.md` files, leftover
//! temp files): adopting one into the set, deleting one (its bytes kept in `.memwb/dropped/`,
//! exact but for credentials, which are kept redacted as `repair --drop` keeps them), and
//! undoing either, so that nothing memwb deletes or takes in is lost.

use super::observer::journaled;
use crate::redact::records::is_copy_of;
use crate::redact::redact_bytes;
use crate::review::ReviewError;
use crate::review::intent::{Expect, Intent};
use crate::review::journal::{
    DROPPED_DIR, Entry, EntryMeta, Journal, JournalRecord, Op, StrayAction, StrayChange,
};
use crate::review::state::StateDir;
use crate::store::record::MAX_RECORD_BYTES;
use crate::store::{Commit, Store, StoreError, StoredRecord, codec};
use crate::time::now_ms;

/// Lists the unlisted record file `file` in the set as it is, if it still holds `seen`;
/// journaled so that undo makes it an unlisted file again, byte for byte.
pub fn adopt(store: &Store, file: &str, seen: &[u8]) -> Result<Commit, ReviewError> {
    let meta = EntryMeta {
        op: Some(Op::Add),
        stray: Some(change(file, StrayAction::Adopted, None)),
        ..EntryMeta::default()
    };
    Ok(journaled(store, meta, None, |s| s.adopt(file, seen))?.0)
}

/// Deletes the unlisted or temp file `file` if it still holds `seen`, keeping its bytes in
/// `.memwb/dropped/` and journaling the deletion, so that undo puts it back: byte for byte,
/// unless it held credentials, which memwb never keeps whole (they come back redacted).
pub fn delete(store: &Store, file: &str, seen: &[u8]) -> Result<Entry, ReviewError> {
    let _lock = store.lock_for_write()?;
    let journal = Journal::of(store);
    journal.recover(store)?;
    store.check_stray(file, seen)?;
    let id = journal.next_id()?;
    let kept = format!("{id}-{file}");
    let (copy, redacted) = kept_copy(seen);
    let dropped = StateDir::create(store)?.create_subdir(DROPPED_DIR)?;
    dropped.create_exclusive(&kept, &copy)?;
    let mut stray = change(file, StrayAction::Deleted, Some(kept.clone()));
    stray.redacted = redacted;
    let meta = EntryMeta {
        op: Some(Op::Rm),
        stray: Some(stray),
        ..EntryMeta::default()
    };
    let entry = journal_step(&journal, id, meta, false, || store.delete_stray_file(file));
    if entry.is_err() && store.root().join(file).exists() {
        dropped.remove(&kept);
    }
    entry
}

/// Undoes an entry that adopted, unlisted, deleted or restored a stray file.
pub(crate) fn undo(
    store: &Store,
    entry: &Entry,
    stray: &StrayChange,
) -> Result<(Commit, Option<Entry>), ReviewError> {
    let since = entry.id;
    let meta = |action: StrayAction| EntryMeta {
        op: Some(Op::Undo),
        undoes: Some(since),
        stray: Some(StrayChange {
            redacted: stray.redacted,
            ..change(&stray.file, action, stray.kept.clone())
        }),
        ..EntryMeta::default()
    };
    let blocked = |e: ReviewError| match e.into_engine_error::<StoreError>() {
        Ok(StoreError::Conflict { detail }) => ReviewError::UndoBlocked { id: since, detail },
        Ok(other) => other.into(),
        Err(other) => other,
    };
    match stray.action {
        StrayAction::Adopted => {
            let base = listed_as_written(store, &entry.after, &stray.file, since)?;
            journaled(store, meta(StrayAction::Unlisted), None, |s| {
                s.unlist(&base)
            })
            .map_err(blocked)
        }
        StrayAction::Unlisted => {
            let bytes = store
                .stray_bytes(&stray.file)
                .map_err(|e| gone(since, &stray.file, e))?;
            let same = codec::parse(&bytes)
                .ok()
                .zip(entry.before.first())
                .is_some_and(|(record, was)| is_copy_of(&was.record, &record));
            if !same {
                return Err(ReviewError::UndoBlocked {
                    id: since,
                    detail: format!("{} changed since #{since}", stray.file),
                });
            }
            journaled(store, meta(StrayAction::Adopted), None, |s| {
                s.adopt(&stray.file, &bytes)
            })
            .map_err(blocked)
        }
        StrayAction::Deleted => {
            let bytes = kept_bytes(store, stray, since)?;
            let _lock = store.lock_for_write()?;
            let journal = Journal::of(store);
            journal.recover(store)?;
            let id = journal.next_id()?;
            let entry = journal_step(&journal, id, meta(StrayAction::Restored), true, || {
                store.put_back_stray(&stray.file, &bytes)
            })
            .map_err(blocked)?;
            Ok((unchanged_set(store)?, Some(entry)))
        }
        StrayAction::Restored => {
            let bytes = kept_bytes(store, stray, since)?;
            let _lock = store.lock_for_write()?;
            let journal = Journal::of(store);
            journal.recover(store)?;
            store
                .check_stray(&stray.file, &bytes)
                .map_err(|e| blocked(e.into()))?;
            let id = journal.next_id()?;
            let entry = journal_step(&journal, id, meta(StrayAction::Deleted), false, || {
                store.delete_stray_file(&stray.file)
            })?;
            Ok((unchanged_set(store)?, Some(entry)))
        }
    }
}

fn change(file: &str, action: StrayAction, kept: Option<String>) -> StrayChange {
    StrayChange {
        file: file.to_owned(),
        action,
        kept,
        redacted: false,
    }
}

/// What a deletion keeps of `seen`: its exact bytes, or, when it holds a credential, its text
/// with the credentials redacted (and `true`). A file that is not UTF-8 is scanned as its lossy
/// text; one with a credential is then kept as that text, redacted: never the secret whole.
fn kept_copy(seen: &[u8]) -> (Vec<u8>, bool) {
    match redact_bytes(seen) {
        Some(redacted) => (redacted, true),
        None => (seen.to_vec(), false),
    }
}

/// Journals `step`, a change to a stray file that is not a set transaction, under the caller's
/// lock: the intent first (recovery decides it by whether the file is there, `present`), then
/// the step, then the mark.
fn journal_step(
    journal: &Journal,
    id: u64,
    meta: EntryMeta,
    present: bool,
    step: impl FnOnce() -> Result<(), StoreError>,
) -> Result<Entry, ReviewError> {
    let stray = meta.stray.clone().ok_or_else(|| {
        ReviewError::from(StoreError::InvalidPlan {
            rule: "a stray change names its file".into(),
        })
    })?;
    let intent = Intent {
        entry: Entry {
            proposal: None,
            ..Entry::new(id, now_ms(), meta.op.unwrap_or(Op::Rm), &meta)
        },
        expect: Expect::Stray {
            file: stray.file,
            present,
        },
        decision: None,
    };
    journal.write_intent(&intent)?;
    if let Err(e) = step() {
        journal.abort(&intent);
        return Err(e.into());
    }
    journal.finish(&intent)?;
    Ok(intent.entry)
}

/// The bytes a deletion kept (exact, or with its credentials redacted: `StrayChange::redacted`).
fn kept_bytes(store: &Store, stray: &StrayChange, since: u64) -> Result<Vec<u8>, ReviewError> {
    let kept = stray.kept.as_deref().unwrap_or(&stray.file);
    StateDir::open(store)?
        .and_then(|state| state.subdir(DROPPED_DIR).transpose())
        .transpose()?
        .map(|dir| dir.read(kept, MAX_RECORD_BYTES))
        .transpose()?
        .flatten()
        .ok_or_else(|| ReviewError::UndoBlocked {
            id: since,
            detail: format!("the deleted bytes of {} are no longer kept", stray.file),
        })
}

/// The listed entry holding the record an adoption listed, as it was written.
fn listed_as_written(
    store: &Store,
    written: &[JournalRecord],
    file: &str,
    since: u64,
) -> Result<StoredRecord, ReviewError> {
    let set = store.read()?;
    set.entries
        .iter()
        .find(|e| e.file == file)
        .filter(|e| written.iter().any(|w| is_copy_of(&w.record, &e.record)))
        .cloned()
        .ok_or_else(|| ReviewError::UndoBlocked {
            id: since,
            detail: format!("{file} was changed or removed since #{since}"),
        })
}

fn gone(since: u64, file: &str, error: StoreError) -> ReviewError {
    ReviewError::UndoBlocked {
        id: since,
        detail: format!("{file} cannot be read now ({error})"),
    }
}

/// The set as it is: a stray change leaves it as it was.
fn unchanged_set(store: &Store) -> Result<Commit, ReviewError> {
    Ok(Commit {
        set: store.read()?,
        ..Commit::default()
    })
}
