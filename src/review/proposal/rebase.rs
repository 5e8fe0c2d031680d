//! What a rebase of a stale proposal returns. Rebasing itself re-plans against a format's
//! current memories, and whether a dedupe group is already filed is asked of them, so each
//! backend does both (`formats/memory/journal/rebase.rs`, `formats/claude/journal/rebase.rs`).

use super::Proposal;

/// A rebased proposal and what the rebase changed in it, in the reviewer's words.
#[derive(Debug, Clone)]
pub struct Rebased {
    pub proposal: Proposal,
    pub changes: Vec<String>,
}
