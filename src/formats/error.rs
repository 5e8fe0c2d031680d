//! What opening a folder or changing it through a backend refuses, or what failed under it.
//!
//! A typed error rather than `anyhow`: the library below the command line has no `anyhow`
//! (it is the CLI's edge type), and a front end must be able to tell a lock wait, a race or a
//! change that is written but not journaled from a refusal. An engine's error is carried
//! whole, as an [`EngineError`] that answers for itself (each backend implements
//! [`EngineFault`] for its engine's errors and converts them, in `src/formats/<name>/error.rs`),
//! so nothing here names an engine; [`FormatError::cause`] hands the CLI the engine's own error.

use crate::review::ReviewError;
use crate::review::error::{EngineError, EngineFault};

use super::ReadError;

/// Where a name that is not found can be looked up, on every format.
pub(crate) const LS_LISTS: &str = "memwb ls lists the memories";

#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// A format's engine refused or failed (a conflict, a lock held too long, a record that
    /// does not read), in its own words: callers ask [`FormatError::is_conflict`] and the
    /// like, never which engine it was.
    #[error(transparent)]
    Engine(EngineError),
    #[error(transparent)]
    Review(#[from] ReviewError),
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The folder's watch could not start.
    #[cfg(feature = "watch")]
    #[error(transparent)]
    Watch(#[from] crate::watch::WatchError),
    /// Refused before anything was read or written, in the words a person reads.
    #[error("{0}")]
    Refused(String),
    /// A file step failed: what was being done, and the system's error.
    #[error("{what}: {error}")]
    Io { what: String, error: std::io::Error },
    /// What an editor opened changed since (the engine's conflict, carried whole), with the
    /// memory's text as it is now (`None`: it is gone), which the editor's conflict flow shows
    /// and re-applies the edit on.
    #[error("{error}")]
    Conflicted {
        error: Box<FormatError>,
        current: Option<String>,
    },
    /// The memory of a batch the error is about (`record 2 ("name")`).
    #[error("{place}: {error}")]
    Placed {
        place: String,
        error: Box<FormatError>,
    },
}

impl FormatError {
    /// An engine's error as it is: how a backend converts its engine's errors.
    pub(crate) fn engine(error: impl EngineFault) -> Self {
        Self::Engine(EngineError::new(error))
    }

    pub(crate) fn refused(why: impl Into<String>) -> Self {
        Self::Refused(why.into())
    }

    pub(crate) fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Self::Io {
            what: what.into(),
            error: source,
        }
    }

    /// The error under the batch placement, and the places (outermost first): a front end
    /// reports the engine's own error, whose kind it can tell, with the places as context.
    pub fn cause(self) -> (Vec<String>, Cause) {
        let mut places = Vec::new();
        let mut error = self;
        loop {
            error = match error {
                Self::Placed { place, error } => {
                    places.push(place);
                    *error
                }
                Self::Conflicted { error, .. } => *error,
                Self::Engine(e) | Self::Read(ReadError::Engine(e)) => {
                    return (places, Cause::Engine(e));
                }
                Self::Review(e) => return (places, Cause::Review(e)),
                other => return (places, Cause::Other(other)),
            }
        }
    }
}

impl ReadError {
    /// An engine's error as it is: how a backend converts its engine's read errors.
    pub(crate) fn engine(error: impl EngineFault) -> Self {
        Self::Engine(EngineError::new(error))
    }
}

/// Whether `error` is another program's write that landed inside a change and was kept: the
/// change was not made and nothing is lost (a conflict, not a failure).
pub fn is_raced(error: &(dyn std::error::Error + 'static)) -> bool {
    error
        .downcast_ref::<EngineError>()
        .is_some_and(EngineError::is_raced)
        || error
            .downcast_ref::<ReviewError>()
            .is_some_and(ReviewError::is_raced)
}

/// An engine's own error, or this module's.
#[derive(Debug)]
pub enum Cause {
    Engine(EngineError),
    Review(ReviewError),
    Other(FormatError),
}

impl Cause {
    /// The error itself, as an error type that takes each engine's own (the command line's
    /// `anyhow::Error`), so that whoever reads it can still tell the engine's errors apart.
    pub fn into_error<E>(self) -> E
    where
        E: From<EngineError> + From<ReviewError> + From<FormatError>,
    {
        match self {
            Self::Engine(e) => e.into(),
            Self::Review(e) => e.into(),
            Self::Other(e) => e.into(),
        }
    }
}

/// The way out of `cause` when a backend or its engine raised it, as the command line's
/// `hint:` lines (empty when there is none known); `None` for any other error.
#[cfg(feature = "cli")]
pub(crate) fn engine_hints(cause: &(dyn std::error::Error + 'static)) -> Option<Vec<String>> {
    if let Some(FormatError::Read(super::ReadError::NotFound { .. })) = cause.downcast_ref() {
        return Some(vec![LS_LISTS.into()]);
    }
    let engine = match cause.downcast_ref::<ReviewError>() {
        Some(review) => review.engine_fault(),
        None => cause.downcast_ref::<EngineError>(),
    };
    engine.map(EngineError::hints)
}
