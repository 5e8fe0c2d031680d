//! Where a set's evaluation lives: memwb's state directory for that set. For the `.memory`
//! format it is `.memory/.memwb/`; a backend whose folder memwb must not write into (Claude
//! Code's auto memory) passes a directory of its own, in the user's state directory.
//!
//! Files here are read as the engine reads untrusted files ([`read_regular`]: regular files
//! only, never through a final symbolic link, at most a fixed size) and replaced atomically.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::error::EvalError;
use crate::review::journal::MEMWB_DIR;
use crate::store::fsutil::{IoHooks, Links, atomic_replace, read_regular};
use crate::store::{Store, StoreError};

pub const CASES_FILE: &str = "evals.json";
pub const CACHE_DIR: &str = "eval-cache";

/// The directory that holds `evals.json` and the reply cache of one memory set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalState {
    dir: PathBuf,
}

impl EvalState {
    /// The `.memory` format's state: `.memory/.memwb/`.
    pub fn of(store: &Store) -> Self {
        Self::at(store.root().join(MEMWB_DIR))
    }

    /// State kept in `dir` (created on the first write).
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn cases_path(&self) -> PathBuf {
        self.dir.join(CASES_FILE)
    }

    pub fn cache_dir(&self) -> PathBuf {
        self.dir.join(CACHE_DIR)
    }
}

/// Reads `path` if it exists: a regular file of at most `max` bytes, not a symbolic link.
pub(crate) fn read_capped(path: &Path, max: usize) -> Result<Option<Vec<u8>>, EvalError> {
    match read_regular(path, max, Links::Refuse) {
        Err(StoreError::Io { error, .. })
            if error.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) =>
        {
            Err(EvalError::NotRegular {
                path: path.to_owned(),
                kind: "symbolic link",
            })
        }
        other => Ok(other?),
    }
}

/// Replaces `path` atomically, creating its directory first. Whatever sits at `path` must be a
/// regular file or nothing: a directory, FIFO or link there is refused, not replaced.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), EvalError> {
    if let Some(dir) = path.parent() {
        ensure_dir(dir)?;
    }
    match fs::symlink_metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(EvalError::NotRegular {
                path: path.to_owned(),
                kind: if meta.is_symlink() {
                    "symbolic link"
                } else if meta.is_dir() {
                    "directory"
                } else {
                    "special file"
                },
            });
        }
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            return Err(EvalError::io("stat", path, e));
        }
        _ => {}
    }
    Ok(atomic_replace(path, bytes, &IoHooks::default())?)
}

/// Creates `dir` and its parents as needed; what is there must be a real directory.
pub(crate) fn ensure_dir(dir: &Path) -> Result<(), EvalError> {
    fs::create_dir_all(dir).map_err(|e| EvalError::io("create", dir, e))?;
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(EvalError::NotDirectory {
            path: dir.to_owned(),
        }),
        Err(e) => Err(EvalError::io("stat", dir, e)),
    }
}
