//! When memwb's journal says it wrote a `.memory` record file as it reads now: the evidence of
//! when a relative date was written that comes after the file's own dates and before its
//! mtime (which a clone or a copy resets). A file changed since memwb last wrote it has none.
//! A Claude Code topic file needs no journal: every write, memwb's and Claude Code's, stamps
//! its `modified` field, which is better evidence and says the same.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::time::{Duration, SystemTime};

use crate::memory::Memory;
use crate::review::journal::Journal;
use crate::review::journal::{Entry, JournalRecord};
use crate::store::{MemoryType, Store, StoredRecord};

/// Sets [`Memory::journaled`] on the memories of a `.memory` set (`memories[i]` is
/// `entries[i]`'s) that memwb's journal wrote as they read now.
pub(super) fn stamp_store(store: &Store, entries: &[StoredRecord], memories: &mut [Memory]) {
    // What each file must read as, in the journal's redacted form, for an entry to have
    // written it.
    let wanted: HashMap<String, JournalRecord> = entries
        .iter()
        .zip(memories.iter())
        .filter(|(_, memory)| dated(memory))
        .map(|(entry, _)| (entry.file.clone(), JournalRecord::from(entry)))
        .collect();
    stamp(&Journal::of(store), wanted, memories);
}

/// Only the memories whose relative dates are checked need the journal read.
fn dated(memory: &Memory) -> bool {
    matches!(
        memory.kind.as_deref().and_then(|kind| kind.parse().ok()),
        Some(MemoryType::Project | MemoryType::Feedback)
    )
}

/// Reads the journal from its end: the newest entry that wrote a wanted file decides it (its
/// time when it wrote the file as it reads now, none otherwise).
fn stamp(journal: &Journal, mut wanted: HashMap<String, JournalRecord>, memories: &mut [Memory]) {
    if wanted.is_empty() {
        return;
    }
    let mut written: HashMap<String, SystemTime> = HashMap::new();
    let read = journal.newest_first(|entry| {
        for (file, matches) in writes(&entry, &wanted) {
            wanted.remove(&file);
            if matches {
                written.insert(file, time_of(&entry));
            }
        }
        if wanted.is_empty() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if let Err(e) = read {
        tracing::warn!(error = %e, "journal not read for relative-date evidence");
        return;
    }
    for memory in memories {
        if let Some(time) = written.get(&memory.file) {
            memory.journaled = Some(*time);
        }
    }
}

/// The wanted files `entry` wrote, each with whether it wrote what the file reads now.
fn writes(entry: &Entry, wanted: &HashMap<String, JournalRecord>) -> Vec<(String, bool)> {
    entry
        .after
        .iter()
        .filter_map(|after| Some((after.file.clone(), wanted.get(&after.file)? == after)))
        .collect()
}

fn time_of(entry: &Entry) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(u64::try_from(entry.at).unwrap_or(0))
}
