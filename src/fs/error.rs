//! The one error of the file layer: each variant names the path and what was being done to it.

use std::io;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum FsError {
    // The reason is part of the message and deliberately not a `source`: printers that walk
    // the chain (anyhow's `{:#}`, the session's error detail) would say it twice.
    #[error("{op} {path}: {error}")]
    Io {
        op: &'static str,
        path: PathBuf,
        error: io::Error,
    },
    #[error("{path} is not a regular file (it is a {kind}); nothing was read from it")]
    NotAFile { path: PathBuf, kind: &'static str },
    #[error("{path} is larger than {max} bytes; nothing was read from it")]
    TooLarge { path: PathBuf, max: usize },
    #[error("{path} did not read back as written")]
    ReadBackMismatch { path: PathBuf },
}

pub(crate) type Result<T, E = FsError> = std::result::Result<T, E>;

impl FsError {
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>, error: io::Error) -> Self {
        Self::Io {
            op,
            path: path.into(),
            error,
        }
    }

    /// The path the failed operation concerned.
    pub fn path(&self) -> &std::path::Path {
        match self {
            Self::Io { path, .. }
            | Self::NotAFile { path, .. }
            | Self::TooLarge { path, .. }
            | Self::ReadBackMismatch { path } => path,
        }
    }
}
