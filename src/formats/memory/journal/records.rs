//! `.memory` records and commits as the neutral change model keeps them: a record in a
//! journal entry (`review::journal::JournalRecord`) with its credentials redacted, as memwb's
//! files keep every record (see docs/audit.md), so that undoing a change restores the
//! redacted text; and what a commit did, by memory name.

use crate::change::Changed;
use crate::redact::records::redact_input;
use crate::review::journal::JournalRecord;
use crate::store::{Commit, StoredRecord};

impl From<&StoredRecord> for JournalRecord {
    fn from(entry: &StoredRecord) -> Self {
        Self {
            file: entry.file.clone(),
            record: redact_input(&entry.record.to_input()),
        }
    }
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
