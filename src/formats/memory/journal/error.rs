//! How the `.memory` engine's errors and the review layer's pass into each other: a refusal
//! the journal makes from inside a transaction comes back from the engine wrapped as
//! `StoreError::Observer` and is unwrapped into the review error it was; the engine's own
//! errors travel as `ReviewError::Engine`, answering what the review layer asks of them
//! (`formats/memory/error.rs`).

use crate::review::ReviewError;
use crate::store::StoreError;

impl From<StoreError> for ReviewError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::Observer(inner) => Self::from_observer(inner, StoreError::Observer),
            other => Self::engine(other),
        }
    }
}

/// What the journal hands the engine from inside a transaction (see `CommitObserver`).
impl From<ReviewError> for StoreError {
    fn from(error: ReviewError) -> Self {
        error.into_engine(StoreError::Observer)
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
        let engine: StoreError = ReviewError::from(StoreError::NothingToRemove).into();
        assert!(matches!(engine, StoreError::NothingToRemove), "{engine:?}");
    }

    #[test]
    fn the_engine_answers_for_its_errors_with_their_words() {
        let conflict = ReviewError::from(StoreError::Conflict {
            detail: "x changed".into(),
        });
        assert!(conflict.is_conflict() && conflict.is_transient());
        assert_eq!(conflict.to_string(), "memory collection changed: x changed");
        let duplicate = ReviewError::from(StoreError::DuplicateName { name: "a".into() });
        assert!(!duplicate.is_conflict() && !duplicate.is_transient());
        assert!(matches!(
            duplicate.engine_error::<StoreError>(),
            Some(StoreError::DuplicateName { .. })
        ));
    }
}
