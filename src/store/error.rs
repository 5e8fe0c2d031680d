//! Engine errors: each names the path it concerns and the rule that was broken.

use std::io;
use std::path::PathBuf;

use super::codec::ParseError;
use super::record::RecordError;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("workspace {path} is not a directory")]
    WorkspaceNotADirectory { path: PathBuf },
    #[error("memory root escapes workspace: {path} must be a real directory inside the workspace")]
    RootEscapes { path: PathBuf },
    #[error("memory manifest {path} is invalid: {rule}")]
    ManifestInvalid { path: PathBuf, rule: String },
    #[error("memory record {path} escapes the store")]
    RecordEscapes { path: PathBuf },
    #[error("memory record {path} is invalid: {error}")]
    RecordInvalid { path: PathBuf, error: ParseError },
    #[error("memory record {path} is listed in the manifest but missing")]
    RecordMissing { path: PathBuf },
    // The reason is part of the message and deliberately not a `source`: printers that walk
    // the chain (anyhow's `{:#}`, the session's error detail) would say it twice.
    #[error("{op} {path}: {error}")]
    Io {
        op: &'static str,
        path: PathBuf,
        error: io::Error,
    },
    #[error(
        "memory store {path} is locked by another process since {since}; gave up after {waited_ms} ms"
    )]
    LockTimeout {
        path: PathBuf,
        since: String,
        waited_ms: u128,
    },
    #[error(
        "memory store {path} is busy with another transaction of this process; gave up after {waited_ms} ms"
    )]
    QueueTimeout { path: PathBuf, waited_ms: u128 },
    #[error(
        "lock {path} is {what}, not the empty directory the lock protocol makes, so no writer can break it; once no agent is writing, remove it by hand (rm -r {path})"
    )]
    LockBlocked { path: PathBuf, what: &'static str },
    #[error("lock {path} was compromised: {reason}; nothing was committed")]
    LockCompromised { path: PathBuf, reason: String },
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error("a memory named {name:?} exists")]
    DuplicateName { name: String },
    #[error("memory name {name:?} is twice in this batch")]
    DuplicateInBatch { name: String },
    #[error(
        "memory name {name:?} is ambiguous: it is held by {}; address one of them by its file, or repair one",
        files.join(" and ")
    )]
    AmbiguousName { name: String, files: Vec<String> },
    #[error("memory collection changed: {detail}")]
    Conflict { detail: String },
    #[error("no memory named {name:?}")]
    NotFound { name: String },
    #[error("{file} is not listed in the manifest")]
    NotListed { file: String },
    /// An unlisted or temp file in `.memory` that cannot be adopted or deleted as asked.
    #[error("{file}: {rule}; nothing was changed")]
    StrayRefused { file: String, rule: String },
    #[error("nothing to repair: {file} is a valid record; edit it instead (memwb set)")]
    NotBroken { file: String },
    #[error("nothing to remove")]
    NothingToRemove,
    #[error("invalid consolidation: {rule}")]
    InvalidPlan { rule: String },
    #[error(
        "memory index would exceed its budget: {lines} lines (max {max_lines}), {bytes} bytes (max {max_bytes}); nothing was changed"
    )]
    IndexBudget {
        lines: usize,
        bytes: usize,
        max_lines: usize,
        max_bytes: usize,
    },
    #[error(
        "memory set would hold {count} records, more than the limit of {max}; nothing was changed"
    )]
    TooManyRecords { count: usize, max: usize },
    #[error("{path} is not a regular file (it is a {kind}); nothing was read from it")]
    NotAFile { path: PathBuf, kind: &'static str },
    #[error("{path} is larger than {max} bytes; nothing was read from it")]
    TooLarge { path: PathBuf, max: usize },
    #[error("memory record {path} did not read back as written")]
    ReadBackMismatch { path: PathBuf },
    /// The transaction's [`CommitObserver`](super::CommitObserver) refused it, in its own
    /// words (the review gate's error, which it takes back out).
    #[error(transparent)]
    Observer(Box<dyn std::error::Error + Send + Sync + 'static>),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// The file layer's errors, as the store has always named them.
impl From<crate::fs::FsError> for StoreError {
    fn from(error: crate::fs::FsError) -> Self {
        use crate::fs::FsError;
        match error {
            FsError::Io { op, path, error } => Self::Io { op, path, error },
            FsError::NotAFile { path, kind } => Self::NotAFile { path, kind },
            FsError::TooLarge { path, max } => Self::TooLarge { path, max },
            FsError::ReadBackMismatch { path } => Self::ReadBackMismatch { path },
        }
    }
}

impl StoreError {
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>, error: io::Error) -> Self {
        Self::Io {
            op,
            path: path.into(),
            error,
        }
    }

    /// Whether retrying later could succeed without anything being changed by hand.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::LockTimeout { .. } | Self::QueueTimeout { .. } | Self::Conflict { .. }
        )
    }
}
