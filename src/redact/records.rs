//! Redaction at the level of records: what memwb's journal and proposal files keep instead of
//! a record that holds a credential, and how a redacted copy is matched back to the record it
//! was made from.

use super::redact;
use crate::store::{MemorySet, Record, RecordInput};

/// The record's fields with every credential replaced by `[REDACTED]`.
pub(crate) fn redact_input(input: &RecordInput) -> RecordInput {
    RecordInput {
        name: input.name.clone(),
        kind: input.kind.clone(),
        description: redact(&input.description).into_owned(),
        body: redact(&input.body).into_owned(),
    }
}

/// The record with its credentials redacted, when that is still a valid record (the
/// placeholder can make a record outgrow its budget; then `None`).
pub fn redact_record(record: &Record) -> Option<Record> {
    Record::from_input(&redact_input(&record.to_input())).ok()
}

/// Whether `stored` (as memwb's files keep it) is `current`, or `current` redacted.
pub(crate) fn is_copy_of(stored: &RecordInput, current: &Record) -> bool {
    let current = current.to_input();
    *stored == current || *stored == redact_input(&current)
}

/// The records a change is based on, as they are in `current`: a stored copy that is the
/// redacted form of the current record stands for that record (the base check then runs
/// against the real text, under the lock); anything else is kept, and found stale.
pub(crate) fn as_current(current: &MemorySet, stored: Vec<Record>) -> Vec<Record> {
    stored
        .into_iter()
        .map(|record| match current.get(record.name()) {
            Some(entry)
                if entry.record != record && is_copy_of(&record.to_input(), &entry.record) =>
            {
                entry.record.clone()
            }
            _ => record,
        })
        .collect()
}
