//! Why the workbench could not start or had to stop. Each reason is part of the message, not a
//! `source`, so a printer that walks the chain says it once (as `StoreError::Io` does).

use std::io;
use std::path::PathBuf;

use crate::watch::WatchError;

#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    #[error("cannot start the async runtime: {0}")]
    Runtime(io::Error),
    #[error(transparent)]
    Watch(#[from] WatchError),
    #[error("cannot open the terminal: {0}")]
    Terminal(io::Error),
    #[error("cannot draw the workbench: {0}")]
    Draw(io::Error),
    #[error("terminal input failed: {0}")]
    Input(String),
    #[error("the editor task failed: {0}")]
    EditorTask(tokio::task::JoinError),
    #[error("cannot {op} {path} for the demo: {error}")]
    Demo {
        op: &'static str,
        path: PathBuf,
        error: io::Error,
    },
}
