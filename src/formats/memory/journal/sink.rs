//! Review mode on a `.memory` set: the session's plan filed as a proposal in the set's
//! `.memwb` instead of committed ([`ReviewPlans`], whose evidence is `review::sink`'s).

use crate::review::proposal::{self, NewProposal, Plan};
use crate::review::sink::{ReviewPlans, evidence};
use crate::session::history::Message;
use crate::session::{MemoryPlan, PlanError, PlanOutcome, PlanSink};
use crate::store::{MemorySet, Record, Store, StoredRecord};

impl PlanSink for ReviewPlans {
    fn apply(
        &self,
        store: &Store,
        plan: MemoryPlan,
        history: &[Message],
    ) -> Result<PlanOutcome, PlanError> {
        let (plan, seen, additions) = match plan {
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
                as_seen(&store.read()?, base),
                additions,
            ),
        };
        let filed = proposal::file(
            store,
            NewProposal {
                plan,
                origin: self.origin.clone(),
                seen,
                additions,
                evidence: evidence(history),
            },
        )?;
        Ok(PlanOutcome::Proposed { id: filed.id })
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
