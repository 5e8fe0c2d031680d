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

// Why a rebase is refused, said once for every format (docs/review.md, "A memory that does
// not read, a rebase that cannot hold"): the memory by its name, as `State` says what made a
// proposal stale, and the same way out on every format.

/// A memory the proposal would write exists now (another took its name, or its file), so
/// approving it would replace that memory: renaming that one frees the name on every format.
pub(crate) fn name_taken(name: &str) -> String {
    format!(
        "{} and the proposal would replace it: rename that memory first, or reject the proposal",
        State::exists_now(name)
    )
}

/// The memories `names` the proposal replaces or edits were removed since it was filed: there
/// is nothing left for it to change.
pub(crate) fn removed(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("{name:?}")).collect();
    let (gone, verb) = match quoted.split_last() {
        Some((last, [])) => (last.clone(), "was"),
        Some((last, rest)) => (format!("{} and {last}", rest.join(", ")), "were"),
        None => ("its memories".to_owned(), "were"),
    };
    format!("{gone} {verb} removed: nothing is left for the proposal to change; reject it")
}

/// The memories are already as the proposal would leave them (someone made the same change).
pub(crate) const ALREADY_APPLIED: &str = "the memories are already as the proposal would leave them: nothing is left for it to change; reject it";

/// The proposal, or the proposal as re-planned, does not validate for the reason `why`.
pub(crate) fn plan_invalid(why: &str) -> String {
    format!("{}; reject it", State::plan_invalid(why))
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

#[cfg(test)]
mod tests {
    use super::removed;

    #[test]
    fn the_removed_memories_are_each_named() {
        assert_eq!(
            removed(&["alpha".into()]),
            "\"alpha\" was removed: nothing is left for the proposal to change; reject it"
        );
        assert_eq!(
            removed(&["a".into(), "b".into(), "c".into()]),
            "\"a\", \"b\" and \"c\" were removed: nothing is left for the proposal to change; reject it"
        );
    }
}
