//! The review gate's errors: proposals, the journal and undo, in their own words. The engine's
//! errors pass through unchanged, so a message never borrows another layer's wording.

use std::path::PathBuf;

use crate::claude::ClaudeError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The engine refused or failed. Written by hand rather than `#[from]`: a refusal the
    /// journal made from inside a transaction comes back wrapped as `StoreError::Observer`,
    /// and is unwrapped here into the review error it was.
    #[error(transparent)]
    Store(StoreError),
    /// The Claude Code backend refused or failed (a conflict, a consolidation running, a
    /// refused name); unwrapped like [`ReviewError::Store`].
    #[error(transparent)]
    Claude(ClaudeError),
    #[error("{what} {path} is invalid: {rule}")]
    DataInvalid {
        what: &'static str,
        path: PathBuf,
        rule: String,
    },
    #[error("no proposal {id}")]
    ProposalNotFound { id: String },
    #[error("proposal {id} was already {status}")]
    ProposalDecided { id: String, status: &'static str },
    #[error("proposal {id} is stale: {detail}; nothing was applied")]
    ProposalStale { id: String, detail: String },
    #[error("proposal {id} was edited by someone else since it was opened; reopen it")]
    ProposalEdited { id: String },
    /// A plan that does not parse: a tampered proposal file, or an edit that left no records.
    #[error("proposal {id} has an invalid plan: {rule}; nothing was applied")]
    PlanInvalid { id: String, rule: String },
    /// A stale proposal that cannot be re-planned against the current set.
    #[error("proposal {id} cannot be rebased: {rule}; it is unchanged")]
    RebaseRefused { id: String, rule: String },
    /// A proposal that cannot be filed as it is.
    #[error("invalid proposal: {rule}; nothing was filed")]
    ProposalInvalid { rule: String },
    /// A link where memwb's state belongs (`.memwb`, `proposals`, the journal, a proposal):
    /// never followed, since it could lead outside the workspace.
    #[error(
        "{path} is a symbolic link; memwb's state must be a real file inside .memory (remove the link); nothing was read or written through it"
    )]
    StateEscapes { path: PathBuf },
    #[error("{path} is not a directory; move it aside so that memwb can keep its state there")]
    StateNotADirectory { path: PathBuf },
    /// The change is in the set, but the mark after its commit point could not be written:
    /// the entry waits as an intent that recovery decides.
    #[error(
        "written, but not journaled: {detail}; the entry waits in {path} as an intent that `memwb check` reports and the next change records"
    )]
    NotJournaled { path: PathBuf, detail: String },
    /// `memwb accept` of a code no record can carry.
    #[error("{code:?} is not a finding a record can carry; one of: {known}")]
    FindingCodeUnknown { code: String, known: String },
    /// `accept secret NAME` on a record that holds no credential now.
    #[error("{name:?} holds no {code} finding to accept")]
    NothingToAccept { code: String, name: String },
    #[error("no journal entry {id}")]
    EntryNotFound { id: u64 },
    #[error("cannot undo entry {id}: it was a {op}, which changed no records")]
    NothingToUndo { id: u64, op: &'static str },
    #[error("cannot undo entry {id}: {detail}; nothing was changed")]
    UndoBlocked { id: u64, detail: String },
    /// Every change of the entry was a redaction: the secrets it replaced are kept nowhere.
    #[error(
        "cannot undo entry {id}: it redacted credentials, and a redacted secret is not restored (memwb keeps no copy of it anywhere); nothing was changed"
    )]
    RedactionNotRestorable { id: u64 },
}

pub type Result<T, E = ReviewError> = std::result::Result<T, E>;

/// What an undo found where a memory its entry wrote should be: said alike on every format,
/// by the memory's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FoundSince {
    Changed,
    Removed,
    /// A removal's undo, while a memory of that name is there again.
    AddedAgain,
}

impl ReviewError {
    /// The undo of entry `id` refused because memory `name` is not as the entry left it.
    pub(crate) fn undo_found(id: u64, name: &str, found: FoundSince) -> Self {
        let how = match found {
            FoundSince::Changed => "changed",
            FoundSince::Removed => "removed",
            FoundSince::AddedAgain => "added again",
        };
        Self::UndoBlocked {
            id,
            detail: format!("{name:?} was {how} since #{id}"),
        }
    }
}

impl From<crate::fs::FsError> for ReviewError {
    fn from(error: crate::fs::FsError) -> Self {
        Self::Store(error.into())
    }
}

impl From<StoreError> for ReviewError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Observer(inner) => match inner.downcast::<ReviewError>() {
                Ok(review) => *review,
                Err(other) => Self::Store(StoreError::Observer(other)),
            },
            other => Self::Store(other),
        }
    }
}

/// What the journal hands the engine from inside a transaction (see `CommitObserver`).
impl From<ReviewError> for StoreError {
    fn from(error: ReviewError) -> Self {
        match error {
            ReviewError::Store(store) => store,
            review => StoreError::Observer(Box::new(review)),
        }
    }
}

impl ReviewError {
    /// The thing changed since it was read: reload and look again.
    pub fn is_conflict(&self) -> bool {
        matches!(
            self,
            Self::Store(StoreError::Conflict { .. })
                | Self::Claude(ClaudeError::Conflict { .. })
                | Self::ProposalEdited { .. }
        )
    }

    /// Whether retrying later could succeed without anything being changed by hand.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Store(store) if store.is_transient())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_error_survives_the_trip_through_the_engine() {
        let refused: StoreError = ReviewError::ProposalDecided {
            id: "abc".into(),
            status: "approved",
        }
        .into();
        assert!(matches!(refused, StoreError::Observer(_)), "{refused:?}");
        let back = ReviewError::from(refused);
        assert!(
            matches!(back, ReviewError::ProposalDecided { ref id, .. } if id == "abc"),
            "{back:?}"
        );
        let engine: StoreError = ReviewError::Store(StoreError::NothingToRemove).into();
        assert!(matches!(engine, StoreError::NothingToRemove), "{engine:?}");
    }
}
