//! An agent session's plan on a `.memory` set: committed as one store transaction journaled as
//! `add` or `consolidate` (the store re-reads the set under its lock, so records other writers
//! added meanwhile are kept), or filed as a proposal in the set's `.memwb` (review mode).

use super::MemoryBackend;
use super::journal::{NewProposal, file, journaled_op};
use super::write::commit_warning;
use crate::change::Changed;
use crate::formats::{FormatError, Open, joined_warnings};
use crate::review::{Op, Origin, ReviewError};
use crate::session::{Committed, MemoryFolder, MemoryPlan, Plan};
use crate::store::{Commit, MemorySet, Record, Store, StoreError, StoredRecord};

impl MemoryBackend<'_> {
    pub(super) fn commit_session_plan(&self, plan: &MemoryPlan) -> Result<Committed, FormatError> {
        let mut made = None;
        let mut kept = |commit: Commit| -> Result<Commit, StoreError> {
            made = Some(commit.clone());
            Ok(commit)
        };
        let result = match plan.clone() {
            MemoryPlan::Extend { records } => {
                journaled_op(self.store, Op::Add, |s| kept(s.extend(records)?))
            }
            MemoryPlan::Consolidate {
                base,
                additions,
                source_names,
                replacements,
            } => journaled_op(self.store, Op::Consolidate, |s| {
                kept(s.apply_consolidation(&base, additions, &source_names, replacements)?)
            }),
        };
        // A change in place is written, and says what needs a look as every change does
        // (`journaled_written`): its journal mark failed (the next change records the
        // journal's intent), it lost its lock, or its directory sync failed.
        let (commit, not_journaled) = match (result, made) {
            (Ok(commit), _) => (commit, None),
            (Err(e @ ReviewError::NotJournaled { .. }), Some(commit)) => {
                (commit, Some(e.to_string()))
            }
            (Err(e), _) => return Err(e.into()),
        };
        Ok(Committed {
            warning: joined_warnings([not_journaled, commit_warning(&commit)]),
            changed: changed(commit),
        })
    }

    pub(super) fn propose_session_plan(
        &self,
        plan: &MemoryPlan,
        origin: &Origin,
        evidence: Option<String>,
    ) -> Result<String, FormatError> {
        let (plan, seen, additions) = match plan.clone() {
            MemoryPlan::Extend { records } => {
                (Plan::Extraction(records), MemorySet::default(), Vec::new())
            }
            MemoryPlan::Consolidate {
                base,
                additions,
                source_names,
                replacements,
            } => (
                Plan::Consolidation {
                    source_names,
                    records: replacements,
                },
                // The files that hold the base now (an extraction has no base to name).
                as_seen(&self.store.read()?, base),
                additions,
            ),
        };
        let filed = file(
            self.store,
            NewProposal {
                plan,
                origin: origin.clone(),
                seen,
                additions,
                evidence,
            },
        )?;
        Ok(filed.id)
    }
}

fn changed(commit: Commit) -> Changed {
    Changed {
        added: commit.added,
        changed: commit.changed,
        removed: commit.removed,
    }
}

/// The base records with the files that hold them now (empty when one changed since).
fn as_seen(current: &MemorySet, base: Vec<Record>) -> MemorySet {
    let entries = base
        .into_iter()
        .map(|record| StoredRecord {
            file: current
                .get(record.name())
                .filter(|e| e.record == record)
                .map(|e| e.file.clone())
                .unwrap_or_default(),
            record,
        })
        .collect();
    MemorySet { entries }
}

/// `MemorySession::new(store)`: a session on a `.memory` set.
impl From<Store> for Box<dyn MemoryFolder> {
    fn from(store: Store) -> Self {
        Box::new(Open::from(store))
    }
}
