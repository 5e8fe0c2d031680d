//! The record changes on a `.memory` set: each one store transaction, journaled.

use super::MemoryBackend;
use super::journal::journaled_op;
use crate::formats::{
    Edit, FormatError, Written, joined_warnings, not_durable, placed, set_summary, unchanged,
};
use crate::review::summary::commit_summary;
use crate::review::{Op, ReviewError};
use crate::store::{Commit, MemorySet, Record, RecordInput, Store, StoreError};

impl MemoryBackend<'_> {
    pub(super) fn add_records(&self, inputs: &[RecordInput]) -> Result<Written, FormatError> {
        let records = validate_all(inputs)?;
        journaled_written(self.store, Op::Add, |_| None, |s| s.extend(records))
    }

    pub(super) fn set_record(&self, name: &str, edit: &Edit) -> Result<Written, FormatError> {
        on_the_set_as_it_is(self.store, |current| {
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
            let said = |commit: &Commit| (!commit.is_empty()).then_some(said);
            journaled_written(self.store, Op::Set, said, |s| {
                s.replace_entry(entry, edited)
            })
        })
    }

    pub(super) fn rm_records(&self, names: &[String]) -> Result<Written, FormatError> {
        on_the_set_as_it_is(self.store, |current| {
            let base = current.require_all(names)?;
            journaled_written(self.store, Op::Rm, |_| None, |s| s.remove_entries(&base))
        })
    }
}

/// Runs `change`, planned on the set as read, and plans it again on the set as it is when
/// another writer changed what it read before it took the lock (the store's compare-and-swap
/// refused it): a parallel change is waited for, not refused, as on a Claude Code folder,
/// whose changes plan under the lock. Only a conflict over a set that did not move since is
/// reported (the change itself conflicts).
fn on_the_set_as_it_is(
    store: &Store,
    mut change: impl FnMut(&MemorySet) -> Result<Written, FormatError>,
) -> Result<Written, FormatError> {
    let mut read = store.read()?;
    loop {
        match change(&read) {
            Err(FormatError::Review(e)) if e.is_conflict() => {
                let now = store.read()?;
                if now == read {
                    return Err(FormatError::Review(e));
                }
                read = now;
            }
            done => return done,
        }
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

/// Runs `change` journaled as `op` and says what it did ([`written`]). A change that is in
/// the set but whose journal mark failed is written too: it says what it did, with the
/// journal's failure as its warning, as on every format.
pub(super) fn journaled_written(
    store: &Store,
    op: Op,
    said: impl FnOnce(&Commit) -> Option<String>,
    change: impl FnOnce(&Store) -> Result<Commit, StoreError>,
) -> Result<Written, FormatError> {
    let mut made = None;
    let result = journaled_op(store, op, |s| {
        let commit = change(s)?;
        made = Some(commit.clone());
        Ok(commit)
    });
    match (result, made) {
        (Ok(commit), _) => {
            let said = said(&commit);
            Ok(written(commit, said))
        }
        (Err(e @ ReviewError::NotJournaled { .. }), Some(commit)) => {
            let said = said(&commit);
            let mut done = written(commit, said);
            done.warning = joined_warnings([Some(e.to_string()), done.warning]);
            Ok(done)
        }
        (Err(e), _) => Err(e.into()),
    }
}

/// What `commit` did ("added a; changed b; removed c", unless `said` says it better), and
/// its warnings ([`commit_warning`]).
pub(super) fn written(commit: Commit, said: Option<String>) -> Written {
    Written {
        warning: commit_warning(&commit),
        summary: said.unwrap_or_else(|| commit_summary(&commit)),
    }
}

/// What about `commit`, which is in place, needs a look: it lost its lock while committing
/// (it may have overwritten another writer's commit), or its directory sync failed.
pub(super) fn commit_warning(commit: &Commit) -> Option<String> {
    let conflicting = commit.lock_lost.as_ref().map(|reason| {
        format!(
            "written, but possibly conflicting: {reason}; another writer may have written at the same time (memwb check, memwb log)"
        )
    });
    joined_warnings([conflicting, commit.not_durable.as_deref().map(not_durable)])
}
