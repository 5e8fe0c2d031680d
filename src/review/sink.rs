//! Review mode for an embedding agent: `complete()` files its plan as a proposal instead of
//! committing it, so a person decides. Filing it is the format's: the session's folder files
//! it ([`MemoryFolder::propose`], on memwb's folders through `Backend::propose_plan`).

use crate::session::history::Message;
use crate::session::{MemoryFolder, MemoryPlan, PlanError, PlanOutcome, PlanSink};

use super::proposal::Origin;

/// Files every plan as a proposal with `origin`, and the end of the turn's history as evidence.
#[derive(Debug, Clone)]
pub struct ReviewPlans {
    pub origin: Origin,
}

/// Files every plan as a proposal in the session's folder, with the end of the turn's history
/// as evidence.
impl PlanSink for ReviewPlans {
    fn apply(
        &self,
        folder: &dyn MemoryFolder,
        plan: MemoryPlan,
        history: &[Message],
    ) -> Result<PlanOutcome, PlanError> {
        let id = folder.propose(&plan, &self.origin, evidence(history))?;
        Ok(PlanOutcome::Proposed { id })
    }
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
