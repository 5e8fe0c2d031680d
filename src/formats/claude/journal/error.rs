//! How the Claude Code write engine's errors and the review layer's pass into each other: a
//! refusal the journal makes from inside a change comes back from the engine wrapped as
//! `ClaudeError::Observer` and is unwrapped into the review error it was, as the store's
//! `StoreError::Observer` is in `review::error`.

use crate::claude::ClaudeError;
use crate::review::ReviewError;

impl From<ClaudeError> for ReviewError {
    fn from(error: ClaudeError) -> Self {
        match error {
            ClaudeError::Observer(inner) => match inner.downcast::<ReviewError>() {
                Ok(review) => *review,
                Err(other) => Self::Claude(ClaudeError::Observer(other)),
            },
            ClaudeError::Fs(file) => Self::from(file),
            other => Self::Claude(other),
        }
    }
}

/// What the journal hands the Claude Code write engine from inside a change.
impl From<ReviewError> for ClaudeError {
    fn from(error: ReviewError) -> Self {
        match error {
            ReviewError::Claude(claude) => claude,
            review => ClaudeError::Observer(Box::new(review)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_error_survives_the_trip_through_the_claude_engine() {
        let refused: ClaudeError = ReviewError::ProposalDecided {
            id: "abc".into(),
            status: "approved",
        }
        .into();
        assert!(matches!(refused, ClaudeError::Observer(_)), "{refused:?}");
        let back = ReviewError::from(refused);
        assert!(
            matches!(back, ReviewError::ProposalDecided { ref id, .. } if id == "abc"),
            "{back:?}"
        );
        let engine: ClaudeError = ReviewError::Claude(ClaudeError::NoHome).into();
        assert!(matches!(engine, ClaudeError::NoHome), "{engine:?}");
    }
}
