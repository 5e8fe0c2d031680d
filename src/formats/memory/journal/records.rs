//! `.memory` records and commits as the neutral change model keeps them: a record in a
//! journal entry (`review::journal::JournalRecord`) with its credentials redacted, as memwb's
//! files keep every record (see docs/audit.md), so that undoing a change restores the
//! redacted text (and says so); and what a commit did, by memory name.

use crate::change::Changed;
use crate::redact::records::redact_input;
use crate::review::journal::{JournalRecord, RedactedImage, Side};
use crate::store::{Commit, StoredRecord};

impl From<&StoredRecord> for JournalRecord {
    fn from(entry: &StoredRecord) -> Self {
        Self {
            file: entry.file.clone(),
            record: redact_input(&entry.record.to_input()),
        }
    }
}

/// The records of one side of a change as a journal entry keeps them, and a mark for each
/// one the redaction changed (so that an undo writing it back says so).
pub(super) fn kept_records<'a>(
    entries: impl Iterator<Item = &'a StoredRecord>,
    side: Side,
) -> (Vec<JournalRecord>, Vec<RedactedImage>) {
    let mut marks = Vec::new();
    let records = entries
        .map(|entry| {
            let input = entry.record.to_input();
            let record = redact_input(&input);
            if record != input {
                marks.push(RedactedImage {
                    file: entry.file.clone(),
                    side,
                });
            }
            JournalRecord {
                file: entry.file.clone(),
                record,
            }
        })
        .collect();
    (records, marks)
}

impl From<&Commit> for Changed {
    fn from(commit: &Commit) -> Self {
        Self {
            added: commit.added.clone(),
            changed: commit.changed.clone(),
            removed: commit.removed.clone(),
        }
    }
}
