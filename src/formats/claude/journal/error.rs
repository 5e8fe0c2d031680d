//! How the Claude Code write engine's errors and the review layer's pass into each other: a
//! refusal the journal makes from inside a change comes back from the engine wrapped as
//! `ClaudeError::Observer` and is unwrapped into the review error it was, as the store's
//! `StoreError::Observer` is in `formats/memory/journal/error.rs`; the engine's own errors
//! travel as `ReviewError::Engine`, answering what the review layer asks of them
//! (`formats/claude/error.rs`).

use crate::claude::ClaudeError;
use crate::review::ReviewError;

impl From<ClaudeError> for ReviewError {
    fn from(error: ClaudeError) -> Self {
        match error {
            ClaudeError::Observer(inner) => Self::from_observer(inner, ClaudeError::Observer),
            ClaudeError::Fs(file) => Self::Fs(file),
            other => Self::engine(other),
        }
    }
}

/// What the journal hands the Claude Code write engine from inside a change.
impl From<ReviewError> for ClaudeError {
    fn from(error: ReviewError) -> Self {
        error.into_engine(ClaudeError::Observer)
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
        let engine: ClaudeError = ReviewError::from(ClaudeError::NoHome).into();
        assert!(matches!(engine, ClaudeError::NoHome), "{engine:?}");
    }

    #[test]
    fn the_claude_engine_answers_for_its_conflicts() {
        let raced = ReviewError::from(ClaudeError::Conflict {
            path: "/m/alpha.md".into(),
            file: "alpha.md".into(),
            current: Some("theirs".into()),
            raced: true,
        });
        assert!(raced.is_conflict() && raced.is_raced() && !raced.is_transient());
        assert_eq!(raced.current_text(), Some("theirs"));
        let gone = ReviewError::from(ClaudeError::Conflict {
            path: "/m/beta.md".into(),
            file: "beta.md".into(),
            current: None,
            raced: false,
        });
        assert!(gone.is_conflict() && !gone.is_raced());
        assert_eq!(gone.current_text(), None);
        assert_eq!(
            gone.to_string(),
            "/m/beta.md changed since it was read; nothing was written"
        );
        let busy = ReviewError::from(ClaudeError::NoHome);
        assert!(!busy.is_conflict() && busy.current_text().is_none());
    }
}
