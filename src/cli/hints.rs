//! The way out of an error: `hint:` lines printed under the `error:` line.

use crate::formats::engine_hints;
use crate::review::ReviewError;

/// What to run next, for the errors that have a known way out.
pub(super) fn for_error(error: &anyhow::Error) -> Vec<String> {
    for cause in error.chain() {
        // A backend's or its engine's error: the backend knows the way out.
        if let Some(hints) = engine_hints(cause) {
            return hints;
        }
        if let Some(review) = cause.downcast_ref::<ReviewError>() {
            return match review {
                ReviewError::ProposalNotFound { .. } => {
                    vec!["memwb proposals --all lists every proposal".into()]
                }
                ReviewError::EntryNotFound { .. } => {
                    vec!["memwb log lists the journal entries".into()]
                }
                _ => Vec::new(),
            };
        }
    }
    Vec::new()
}
