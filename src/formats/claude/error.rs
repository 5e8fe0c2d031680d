//! The Claude Code engine's errors as the layers above ask about them: each answers for
//! itself ([`EngineFault`]: a conflict and the file's text now, another program's write that
//! raced the change) and travels as `FormatError::Engine` or `ReadError::Engine`, so that
//! nothing above the backend tells the engines apart by type.

use crate::claude::ClaudeError;
use crate::claude::edit::EditError;
use crate::formats::{FormatError, ReadError};
use crate::review::error::EngineFault;

impl EngineFault for ClaudeError {
    fn is_conflict(&self) -> bool {
        matches!(self, Self::Conflict { .. })
    }

    fn current_text(&self) -> Option<&str> {
        match self {
            Self::Conflict { current, .. } => current.as_deref(),
            _ => None,
        }
    }

    fn is_raced(&self) -> bool {
        matches!(self, Self::Conflict { raced: true, .. })
    }
}

/// A planned edit of a topic file that cannot be written: refused as it is, never a conflict.
impl EngineFault for EditError {
    fn is_conflict(&self) -> bool {
        false
    }
}

impl From<ClaudeError> for FormatError {
    fn from(error: ClaudeError) -> Self {
        Self::engine(error)
    }
}

impl From<EditError> for FormatError {
    fn from(error: EditError) -> Self {
        Self::engine(error)
    }
}

impl From<ClaudeError> for ReadError {
    fn from(error: ClaudeError) -> Self {
        Self::engine(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Cause, is_raced};

    type Reported = Box<dyn std::error::Error + Send + Sync>;

    fn raced() -> ClaudeError {
        ClaudeError::Conflict {
            path: "/m/a.md".into(),
            file: "a.md".into(),
            current: Some("theirs".into()),
            raced: true,
        }
    }

    #[test]
    fn a_raced_conflict_answers_for_itself_through_a_placed_format_error() {
        let error = FormatError::Placed {
            place: "record 2 (\"a\")".into(),
            error: Box::new(FormatError::from(raced())),
        };
        assert!(error.is_conflict());
        assert_eq!(error.current_text().as_deref(), Some("theirs"));
        let (places, cause) = error.cause();
        assert_eq!(places, ["record 2 (\"a\")"]);
        assert!(matches!(cause, Cause::Engine(_)), "{cause:?}");
        let reported: Reported = cause.into_error();
        assert!(is_raced(&*reported), "{reported}");
        let engine = reported.downcast_ref::<crate::review::error::EngineError>();
        let own = engine.and_then(|e| e.downcast_ref::<ClaudeError>());
        assert!(matches!(
            own,
            Some(ClaudeError::Conflict { raced: true, .. })
        ));
    }

    #[test]
    fn an_edit_refusal_is_no_conflict_and_keeps_its_words() {
        let refusal = EditError::FieldLines { key: "k".into() };
        let words = refusal.to_string();
        let error = FormatError::from(refusal);
        assert!(!error.is_conflict() && error.current_text().is_none());
        assert_eq!(error.to_string(), words);
        let reported: Reported = error.cause().1.into_error();
        assert!(!is_raced(&*reported));
    }
}
