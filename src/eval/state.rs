//! Where a set's evaluation lives: memwb's state directory for that set. For the `.memory`
//! format it is `.memory/.memwb/`, read and written through the review gate's
//! [`StateDir`](crate::review::state::StateDir) like the journal and the proposals (opened
//! relative to the checked `.memory`, never through a link, regular files only, capped reads,
//! atomic replace). A backend whose folder memwb must not write into (Claude Code's auto
//! memory) passes a directory of its own in the user's state directory ([`EvalState::at`]),
//! read with the engine's `fs::read_regular` and replaced atomically.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::error::EvalError;
use crate::formats::{Backend, StatePlace};
use crate::fs::{IoHooks, Links, atomic_replace_private, create_private_dir_all, read_regular};
use crate::review::state::CACHE_DIR;

pub const CASES_FILE: &str = "evals.json";

/// The directory that holds `evals.json` and the reply cache of one memory set.
#[derive(Debug, Clone)]
pub struct EvalState {
    location: StatePlace,
}

impl EvalState {
    /// State where a backend keeps it ([`crate::formats::Backend::state_place`]).
    pub fn in_place(place: StatePlace) -> Self {
        Self { location: place }
    }

    /// State where `folder`'s backend keeps it.
    pub fn of(folder: &dyn Backend) -> Result<Self, EvalError> {
        Ok(Self::in_place(folder.state_place()?))
    }

    /// State kept in `dir` (created with its parents on the first write).
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self::in_place(StatePlace::Dir(dir.into()))
    }

    pub fn dir(&self) -> PathBuf {
        match &self.location {
            StatePlace::InSet(home) => home.dir(),
            StatePlace::Dir(dir) => dir.clone(),
        }
    }

    pub fn cases_path(&self) -> PathBuf {
        self.dir().join(CASES_FILE)
    }

    pub fn cache_dir(&self) -> PathBuf {
        self.dir().join(CACHE_DIR)
    }

    /// `name` (in the cache folder when `cached`), at most `max` bytes; `None` when absent.
    pub(crate) fn read(
        &self,
        cached: bool,
        name: &str,
        max: usize,
    ) -> Result<Option<Vec<u8>>, EvalError> {
        match &self.location {
            StatePlace::InSet(home) => {
                let Some(dir) = home.open_state()? else {
                    return Ok(None);
                };
                let dir = if cached {
                    match dir.subdir(CACHE_DIR)? {
                        Some(sub) => sub,
                        None => return Ok(None),
                    }
                } else {
                    dir
                };
                Ok(dir.read(name, max)?)
            }
            StatePlace::Dir(_) => {
                let path = self.path_of(cached, name);
                match read_regular(&path, max, Links::Refuse) {
                    Err(crate::fs::FsError::Io { error, .. })
                        if error.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) =>
                    {
                        Err(EvalError::NotRegular {
                            path,
                            kind: "symbolic link",
                        })
                    }
                    other => Ok(other?),
                }
            }
        }
    }

    /// Replaces `name` (in the cache folder when `cached`) atomically with `bytes`.
    pub(crate) fn replace(&self, cached: bool, name: &str, bytes: &[u8]) -> Result<(), EvalError> {
        match &self.location {
            StatePlace::InSet(home) => {
                let dir = home.create_state()?;
                let dir = if cached {
                    dir.create_subdir(CACHE_DIR)?
                } else {
                    dir
                };
                if let Some(kind) = dir.file_type(name).and_then(not_a_file) {
                    return Err(EvalError::NotRegular {
                        path: dir.file_path(name),
                        kind,
                    });
                }
                Ok(dir.replace(name, bytes)?)
            }
            StatePlace::Dir(_) => {
                let path = self.path_of(cached, name);
                if let Some(dir) = path.parent() {
                    ensure_dir(dir)?;
                }
                match fs::symlink_metadata(&path) {
                    Ok(meta) if !meta.is_file() => {
                        return Err(EvalError::NotRegular {
                            path,
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
                        return Err(EvalError::io("stat", &path, e));
                    }
                    _ => {}
                }
                Ok(atomic_replace_private(&path, bytes, &IoHooks::default())?)
            }
        }
    }

    fn path_of(&self, cached: bool, name: &str) -> PathBuf {
        if cached {
            self.cache_dir().join(name)
        } else {
            self.dir().join(name)
        }
    }
}

/// What a rename would silently replace that is not a file: refused instead.
fn not_a_file(kind: rustix::fs::FileType) -> Option<&'static str> {
    use rustix::fs::FileType;
    match kind {
        FileType::RegularFile => None,
        FileType::Symlink => Some("symbolic link"),
        FileType::Directory => Some("directory"),
        FileType::Fifo => Some("FIFO"),
        _ => Some("special file"),
    }
}

/// Creates `dir` and its parents as needed; what is there must be a real directory.
fn ensure_dir(dir: &Path) -> Result<(), EvalError> {
    create_private_dir_all(dir).map_err(|e| EvalError::io("create", dir, e))?;
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(EvalError::NotDirectory {
            path: dir.to_owned(),
        }),
        Err(e) => Err(EvalError::io("stat", dir, e)),
    }
}
