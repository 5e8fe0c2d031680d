//! Errors of the Claude Code backend: each names the path it concerns and the rule broken.

use std::io;
use std::path::PathBuf;

pub use crate::fs::FsError;

#[derive(Debug, thiserror::Error)]
pub enum ClaudeError {
    #[error("{op} {path}: {error}")]
    Io {
        op: &'static str,
        path: PathBuf,
        error: io::Error,
    },
    /// A file operation that failed or that the file layer's rules refuse (not a regular
    /// file, too large, a failed create, write, sync or rename); it names the path and what was
    /// being done to it.
    #[error(transparent)]
    Fs(#[from] FsError),
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
    /// Neither `$MEMWB_STATE_DIR` nor a home directory to put memwb's state under.
    #[error(
        "no state directory for memwb's files about Claude Code folders: set MEMWB_STATE_DIR or HOME"
    )]
    NoStateDir,
    /// Another memwb process held the folder's state lock for the whole wait.
    #[error(
        "memory folder {folder} is locked by another memwb process ({path}); gave up after {waited_ms} ms; nothing was written"
    )]
    LockTimeout {
        folder: PathBuf,
        path: PathBuf,
        waited_ms: u128,
    },
    /// `.consolidate-lock` names a running process: auto dream is rewriting the folder.
    #[error(
        "Claude Code is consolidating this folder; try again when it finishes ({path} names running process {pid}); nothing was written"
    )]
    Consolidating { path: PathBuf, pid: String },
    /// A file is not what the change was based on: someone (Claude Code, most likely) wrote
    /// it since it was read. `current` is its text now (`None`: it does not exist), so that
    /// the caller can show the difference. `raced`: the other write landed while memwb was
    /// replacing the file (after its compare, before its rename); it was kept and the whole
    /// change put back.
    #[error(
        "{path} changed since it was read{}; nothing was written",
        if *raced { " (another program wrote it while memwb was replacing it: its write was kept and this change put back)" } else { "" }
    )]
    Conflict {
        path: PathBuf,
        file: String,
        current: Option<String>,
        raced: bool,
    },
    /// A write the engine's rules refuse (a name outside the folder, not `*.md`, a link ...).
    #[error("cannot write {path}: {rule}; nothing was written")]
    WriteRefused { path: PathBuf, rule: String },
    /// The change's observer (the journal) refused or failed, in its own words.
    #[error(transparent)]
    Observer(Box<dyn std::error::Error + Send + Sync + 'static>),
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
