//! Deciding a proposal: it must still be pending and as the decider read it; the decision is
//! recorded on the proposal idempotently, so crash recovery may repeat it.

use super::files::{load, load_in, rewrite_in};
use super::{Decision, Proposal, ProposalStatus};
use crate::review::error::ReviewError;
use crate::review::state::{JournalHome, StateDir};
use crate::review::who::Who;
use crate::time::now_ms;

/// Fails unless `proposal` is still pending.
pub(crate) fn pending(proposal: &Proposal) -> Result<(), ReviewError> {
    match proposal.status {
        ProposalStatus::Pending => Ok(()),
        status => Err(ReviewError::ProposalDecided {
            id: proposal.id.clone(),
            status: if status == ProposalStatus::Approved {
                "approved"
            } else {
                "rejected"
            },
        }),
    }
}

/// Under the lock: the proposal must still be pending and exactly as the decider read it.
pub(crate) fn check_as_read(home: &dyn JournalHome, read_as: &Proposal) -> Result<(), ReviewError> {
    still_as_read(load(home, &read_as.id)?, read_as)
}

/// [`check_as_read`] in the state directory `state`.
pub(crate) fn check_as_read_in(state: &StateDir, read_as: &Proposal) -> Result<(), ReviewError> {
    still_as_read(load_in(state, &read_as.id)?, read_as)
}

fn still_as_read(now: Proposal, read_as: &Proposal) -> Result<(), ReviewError> {
    pending(&now)?;
    if now != *read_as {
        return Err(ReviewError::ProposalStale {
            id: read_as.id.clone(),
            detail: "it was edited since it was read; look at it again".into(),
        });
    }
    Ok(())
}

/// Marks the proposal decided in the state directory `state`; idempotent, so that crash
/// recovery may repeat it.
pub(crate) fn record_decision_in(
    state: &StateDir,
    decision: &Decision,
    entry: u64,
) -> Result<(), ReviewError> {
    let proposal = load_in(state, &decision.proposal)?;
    match decided(proposal, decision, entry) {
        Some(proposal) => rewrite_in(state, &proposal),
        None => Ok(()),
    }
}

/// The proposal with `decision` recorded, unless it was decided already.
fn decided(mut proposal: Proposal, decision: &Decision, entry: u64) -> Option<Proposal> {
    if proposal.status != ProposalStatus::Pending {
        return None;
    }
    proposal.status = decision.status;
    proposal.decided_at = Some(decision.at);
    proposal.decided_by = Some(decision.by.clone());
    proposal.reason = decision.reason.clone();
    proposal.journal_entry = Some(entry);
    Some(proposal)
}

pub(crate) fn decision(id: &str, status: ProposalStatus, reason: Option<String>) -> Decision {
    Decision {
        proposal: id.to_owned(),
        status,
        reason,
        by: Who::current(),
        at: now_ms(),
    }
}
