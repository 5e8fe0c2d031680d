//! Evaluation errors: each names the file and the rule it broke.

use std::io;
use std::path::PathBuf;

use crate::fs::FsError;
use crate::review::ReviewError;

#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("eval cases {path} are invalid: {rule}")]
    CasesInvalid { path: PathBuf, rule: String },
    #[error("{path} is not a regular file (it is a {kind}); memwb neither reads nor replaces it")]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{path} is not a directory; memwb keeps its state only in a real directory")]
    NotDirectory { path: PathBuf },
    // The reason is part of the message, not a `source`, as in `FsError::Io`.
    #[error("{op} {path}: {error}")]
    Io {
        op: &'static str,
        path: PathBuf,
        error: io::Error,
    },
    #[error("no eval case {number}: there are {count} (numbered from 1, as `memwb eval ls` shows)")]
    NoSuchCase { number: usize, count: usize },
    #[error("invalid eval case: {rule}")]
    InvalidCase { rule: String },
    /// A state file that could not be read or replaced.
    #[error(transparent)]
    Fs(#[from] FsError),
    /// A backend's state place, lock or reading.
    #[error(transparent)]
    Format(#[from] crate::formats::FormatError),
    /// memwb's state folder refused (a link, not a directory, not a file).
    #[error(transparent)]
    Review(#[from] ReviewError),
}

impl EvalError {
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>, error: io::Error) -> Self {
        Self::Io {
            op,
            path: path.into(),
            error,
        }
    }
}
