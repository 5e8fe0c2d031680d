//! The record changes on a `.memory` set: each one store transaction, journaled.

use super::MemoryBackend;
use super::journal::journaled_op;
use crate::formats::{Edit, FormatError, Written, placed, set_summary, unchanged};
use crate::review::Op;
use crate::review::summary::commit_summary;
use crate::store::{Commit, Record, RecordInput};

impl MemoryBackend<'_> {
    pub(super) fn add_records(&self, inputs: &[RecordInput]) -> Result<Written, FormatError> {
        let records = validate_all(inputs)?;
        Ok(written(
            journaled_op(self.store, Op::Add, |s| s.extend(records))?,
            None,
        ))
    }

    pub(super) fn set_record(&self, name: &str, edit: &Edit) -> Result<Written, FormatError> {
        let current = self.store.read()?;
        let entry = current.require(name)?;
        let base = &entry.record;
        let input = RecordInput {
            name: edit.name.clone().unwrap_or_else(|| base.name().to_owned()),
            kind: edit
                .kind
                .clone()
                .unwrap_or_else(|| base.kind().as_str().to_owned()),
            description: edit
                .description
                .clone()
                .unwrap_or_else(|| base.description().to_owned()),
            body: edit.body.clone().unwrap_or_else(|| base.body().to_owned()),
        };
        let edited = Record::from_input(&input)?;
        if edited == *base {
            return Ok(Written::done(unchanged(base.name())));
        }
        let said = set_summary(base.name(), edited.name());
        let commit = journaled_op(self.store, Op::Set, |s| s.replace_entry(entry, edited))?;
        let said = (!commit.is_empty()).then_some(said);
        Ok(written(commit, said))
    }

    pub(super) fn rm_records(&self, names: &[String]) -> Result<Written, FormatError> {
        let current = self.store.read()?;
        let base = current.require_all(names)?;
        Ok(written(
            journaled_op(self.store, Op::Rm, |s| s.remove_entries(&base))?,
            None,
        ))
    }
}

/// Validates a batch; the first invalid item rejects the whole batch.
pub(super) fn validate_all(inputs: &[RecordInput]) -> Result<Vec<Record>, FormatError> {
    inputs
        .iter()
        .enumerate()
        .map(|(i, input)| placed(Record::from_input(input).map_err(Into::into), inputs, i))
        .collect()
}

/// What `commit` did ("added a; changed b; removed c", unless `said` says it better), and
/// a warning when it lost its lock while committing.
pub(super) fn written(commit: Commit, said: Option<String>) -> Written {
    Written {
        summary: said.unwrap_or_else(|| commit_summary(&commit)),
        // The change is in place, but it may have overwritten another writer's commit.
        warning: commit.lock_lost.as_ref().map(|reason| {
            format!(
                "committed, but possibly conflicting: {reason}; another writer may have committed at the same time (memwb check, memwb log)"
            )
        }),
    }
}
