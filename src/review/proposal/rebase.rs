//! Rebasing a stale proposal, written once ([`rebase`]): a proposal that is not stale is
//! refused; a stale one is re-planned against the memories as they are now, must then be
//! ready, and is rewritten in place (same id, so links to it keep working), with what changed
//! in a reviewer's words. The re-planning is each backend's ([`Replanning`]): a proposal is not
//! yet a change (a `.memory` plan's sources and records, a Claude Code folder's file images),
//! and whether a dedupe draft was edited is asked of the format's memories.

use super::{Proposal, State};
use crate::review::error::ReviewError;

/// A rebased proposal and what the rebase changed in it, in the reviewer's words.
#[derive(Debug, Clone)]
pub struct Rebased {
    pub proposal: Proposal,
    pub changes: Vec<String>,
}

/// What a format does for a rebase, under its engine's lock; the rest is [`rebase`].
pub(crate) trait Replanning {
    /// How `proposal` stands against the memories as read under the lock.
    fn state(&self, proposal: &Proposal) -> State;
    /// `proposal` re-planned against the memories now, each change told in `changes`;
    /// refused ([`refused`]) when its plan cannot hold.
    fn replan(
        &self,
        proposal: &Proposal,
        changes: &mut Vec<String>,
    ) -> Result<Proposal, ReviewError>;
    /// Writes `proposal` over the one filed with its id.
    fn rewrite(&self, proposal: &Proposal) -> Result<(), ReviewError>;
}

/// Re-plans the stale pending `proposal` through `format`; refused, and left as it was, when it
/// is not stale or the re-planned proposal is not ready.
pub(crate) fn rebase(format: &dyn Replanning, proposal: &Proposal) -> Result<Rebased, ReviewError> {
    let State::Stale(mut changes) = format.state(proposal) else {
        return Err(refused(
            &proposal.id,
            "it is not stale; approve or reject it as it is",
        ));
    };
    let rebased = format.replan(proposal, &mut changes)?;
    if let State::Stale(left) = format.state(&rebased) {
        return Err(refused(&proposal.id, &left.join("; ")));
    }
    format.rewrite(&rebased)?;
    Ok(Rebased {
        proposal: rebased,
        changes,
    })
}

/// The rebase of proposal `id` refused by `rule`; nothing was changed.
pub(crate) fn refused(id: &str, rule: &str) -> ReviewError {
    ReviewError::RebaseRefused {
        id: id.to_owned(),
        rule: rule.to_owned(),
    }
}

/// Why a dedupe proposal with one member left is not rebased.
pub(crate) const NOTHING_TO_MERGE: &str =
    "fewer than two of its near-duplicates are left: nothing to merge; reject it";

/// What a rebase tells of a dedupe draft nobody edited, on every format.
pub(crate) const DRAFT_RECOMPUTED: &str =
    "the merged draft was recomputed from the current memories";

/// What a rebase tells of a dedupe draft a reviewer edited, on every format.
pub(crate) const DRAFT_EDIT_KEPT: &str =
    "your edit of the merged draft is kept: check it against the memories it merges";
