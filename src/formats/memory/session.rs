//! An agent session's plan on a `.memory` set: committed as one store transaction journaled as
//! `add` or `consolidate` (the store re-reads the set under its lock, so records other writers
//! added meanwhile are kept), or filed as a proposal in the set's `.memwb` (review mode).

use super::MemoryBackend;
use super::journal::{NewProposal, file, journaled_op};
use crate::change::Changed;
use crate::formats::{FormatError, Open};
use crate::review::{Op, Origin, ReviewError};
use crate::session::{MemoryFolder, MemoryPlan, Plan};
use crate::store::{Commit, MemorySet, Record, Store, StoreError, StoredRecord};

impl MemoryBackend<'_> {
    pub(super) fn commit_session_plan(&self, plan: &MemoryPlan) -> Result<Changed, FormatError> {
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
        match (result, made) {
            (Ok(commit), _) => Ok(changed(commit)),
            // The change is in place; the next change records the journal's intent.
            (Err(e @ ReviewError::NotJournaled { .. }), Some(commit)) => {
                tracing::warn!(error = %e, "the session's change is written");
                Ok(changed(commit))
            }
            (Err(e), _) => Err(e.into()),
        }
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
