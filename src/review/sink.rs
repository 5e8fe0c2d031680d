//! Review mode for an embedding agent: `complete()` files its plan as a proposal instead of
//! committing it, so a person decides.

use crate::session::history::Message;
use crate::session::{MemoryPlan, PlanError, PlanOutcome, PlanSink};
use crate::store::{MemorySet, Record, Store, StoredRecord};

use super::proposal::{self, NewProposal, Origin, Plan};

/// Files every plan as a proposal with `origin`, and the end of the turn's history as evidence.
#[derive(Debug, Clone)]
pub struct ReviewPlans {
    pub origin: Origin,
}

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

const EVIDENCE_MESSAGES: usize = 4;
const EVIDENCE_CHARS_PER_MESSAGE: usize = 600;

/// The last user and assistant messages of a history, each shortened: what the proposal came
/// from, for the reviewer.
pub fn evidence(history: &[Message]) -> Option<String> {
    let lines: Vec<String> = history
        .iter()
        .filter(|m| matches!(m.role(), "user" | "assistant"))
        .filter(|m| !m.content().trim().is_empty())
        .rev()
        .take(EVIDENCE_MESSAGES)
        .map(|m| {
            let text: String = m
                .content()
                .chars()
                .take(EVIDENCE_CHARS_PER_MESSAGE)
                .collect();
            let cut = if text.len() < m.content().len() {
                "…"
            } else {
                ""
            };
            format!("{}: {text}{cut}", m.role())
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    Some(lines.into_iter().rev().collect::<Vec<_>>().join("\n"))
}
