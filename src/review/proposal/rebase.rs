//! What a rebase of a stale proposal returns, and whether a dedupe group is already filed.
//! Rebasing itself re-plans against a format's current memories, so each engine does it
//! (`formats::memory::journal::rebase`, `review::claude::rebase`).

use std::collections::BTreeSet;

use super::{Kind, Plan, Proposal, ProposalStatus};
use crate::store::MemorySet;

/// A rebased proposal and what the rebase changed in it, in the reviewer's words.
#[derive(Debug, Clone)]
pub struct Rebased {
    pub proposal: Proposal,
    pub changes: Vec<String>,
}

/// Whether a consolidation `plan` (a dedupe group's, made from `current`) is already filed: a
/// pending proposal replaces exactly the same records, or a rejected one would have replaced
/// them as they are now (a person decided against merging those records; once one of them is
/// changed, the group is proposed again). Returns that proposal, so that the caller can say
/// which.
pub fn already_filed<'a>(
    plan: &Plan,
    proposals: &'a [Proposal],
    current: &MemorySet,
) -> Option<&'a Proposal> {
    let names = |plan: &Plan| -> BTreeSet<String> { plan.source_names().iter().cloned().collect() };
    let wanted = names(plan);
    if wanted.is_empty() {
        return None;
    }
    proposals.iter().find(|p| {
        let blocks = match p.status {
            ProposalStatus::Pending => true,
            ProposalStatus::Rejected => p.base_is_current(current),
            ProposalStatus::Approved => false,
        };
        p.kind == Kind::Consolidation
            && blocks
            && p.plan().is_ok_and(|filed| names(&filed) == wanted)
    })
}
