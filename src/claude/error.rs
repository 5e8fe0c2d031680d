//! Errors of the Claude Code backend: each names the path it concerns and the rule broken.

use std::io;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ClaudeError {
    #[error("{op} {path}: {error}")]
    Io {
        op: &'static str,
        path: PathBuf,
        error: io::Error,
    },
    /// A file read refused by the engine's rules (not a regular file, too large, I/O).
    #[error(transparent)]
    Read(#[from] crate::store::StoreError),
    #[error("memory folder {path} is not a directory")]
    NotADirectory { path: PathBuf },
    #[error("no Claude Code auto memory for {project}: looked for {looked}")]
    NotFound { project: PathBuf, looked: PathBuf },
    #[error(
        "the slug of {project} is longer than 200 characters and Claude Code shortens it with a hash; candidates in {projects}: {candidates}"
    )]
    AmbiguousSlug {
        project: PathBuf,
        projects: PathBuf,
        candidates: String,
    },
    #[error("settings file {path} is invalid: {rule}")]
    SettingsInvalid { path: PathBuf, rule: String },
    #[error("no home directory: set HOME or CLAUDE_CONFIG_DIR")]
    NoHome,
    #[error("no memory named {name:?} in {folder}")]
    NotFoundName { name: String, folder: PathBuf },
}

pub type Result<T, E = ClaudeError> = std::result::Result<T, E>;

impl ClaudeError {
    pub(crate) fn io(op: &'static str, path: impl Into<PathBuf>, error: io::Error) -> Self {
        Self::Io {
            op,
            path: path.into(),
            error,
        }
    }
}
