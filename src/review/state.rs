//! memwb's own state under `.memory/.memwb`: the journal and the proposals.
//!
//! Every file here is opened relative to the verified `.memory` descriptor
//! (`Store::open_root`), one component at a time, with `O_NOFOLLOW`: a link anywhere under
//! `.memwb` (the directory itself, `journal.jsonl`, a proposal) is refused, so nothing is read
//! from or written to outside the folder. Files are opened with `O_NONBLOCK` and must be regular
//! (a FIFO or a device is refused, never waited on), and every read is capped. Everything made
//! here is private to the user (files 0600, directories 0700): it holds before images.

use std::any::Any;
use std::ffi::CString;
use std::fmt::Debug;
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;
use sha2::{Digest, Sha256};

use super::error::ReviewError;
use crate::fs::{FsError, IoHooks};
use crate::fs::{
    OpenError, PRIVATE_DIR, PRIVATE_FILE, create_private_dir_all, open_regular_at_io, read_capped,
    temp_name,
};

type Result<T, E = ReviewError> = std::result::Result<T, E>;

/// memwb's own folder inside `.memory`. The reference agents never scan the folder, and the
/// audit ignores dot-directories, so nothing here is mistaken for a record.
pub const MEMWB_DIR: &str = ".memwb";

/// The model reply cache's directory in a state directory (`memwb eval` keeps it; the
/// state audit scans it like the rest).
pub const CACHE_DIR: &str = "eval-cache";

/// The SHA-256 of the parts one after the other, hex: the keys memwb's state files are
/// named or matched by (an entry's intent, a cached model reply).
pub(crate) fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn c_name(name: &str, path: &Path) -> Result<CString> {
    CString::new(name).map_err(|e| FsError::io("open", path, e.into()).into())
}

fn io(op: &'static str, path: &Path, error: impl Into<io::Error>) -> ReviewError {
    FsError::io(op, path, error.into()).into()
}

/// The SHA-256 of a text, hex.
pub(crate) fn text_digest(text: &[u8]) -> String {
    sha256_hex(&[text])
}

/// Where a journal lives and the lock its format's engine writes under. Each backend
/// implements it for its own state (a `.memory` set's `.memwb`, a Claude Code folder's state
/// directory outside that folder) and names the journal's constructor (`Journal::of`,
/// `Journal::of_claude`), so the journal and the proposals as filed name no format.
pub trait JournalHome: Debug + Send + Sync {
    /// The directory the journal is in (it may not exist yet).
    fn dir(&self) -> PathBuf;
    /// That directory, if it exists.
    fn open_state(&self) -> Result<Option<StateDir>, ReviewError>;
    /// That directory, created if needed (the proposals live there too).
    fn create_state(&self) -> Result<StateDir, ReviewError>;
    fn hooks(&self) -> &IoHooks;
    /// Takes the format's write lock; it is held until the returned guard is dropped.
    fn lock(&self) -> Result<Box<dyn Any>, ReviewError>;
    /// The files the format keeps as an index rather than as one memory (none by default):
    /// an entry written before it listed its `indexes` is read with these.
    fn index_files(&self) -> &'static [&'static str] {
        &[]
    }
}

/// A directory under `.memory`, opened without following links.
#[derive(Debug)]
pub struct StateDir {
    fd: OwnedFd,
    path: PathBuf,
}

/// How a name in a state directory looks, without following it.
fn classify(dir: &impl AsFd, name: &str) -> Option<FileType> {
    rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
        .ok()
        .map(|s| FileType::from_raw_mode(s.st_mode))
}

fn open_dir_at(parent: &impl AsFd, name: &str, path: PathBuf) -> Result<Option<StateDir>> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat(
        parent,
        c_name(name, &path)?.as_c_str(),
        flags,
        Mode::empty(),
    ) {
        Ok(fd) => Ok(Some(StateDir { fd, path })),
        Err(Errno::NOENT) => Ok(None),
        Err(Errno::LOOP | Errno::NOTDIR) => Err(match classify(parent, name) {
            Some(FileType::Symlink) => ReviewError::StateEscapes { path },
            _ => ReviewError::StateNotADirectory { path },
        }),
        Err(e) => Err(io("open", &path, e)),
    }
}

impl StateDir {
    /// The directory `name` in `parent` (a descriptor of the directory at `parent_path`), if it
    /// exists; never through a link. A format's engine opens its state directory with it
    /// (`StateDir::open` on a `.memory` store).
    pub(crate) fn open_child(
        parent: &impl AsFd,
        parent_path: &Path,
        name: &str,
    ) -> Result<Option<Self>> {
        open_dir_at(parent, name, parent_path.join(name))
    }

    /// [`StateDir::open_child`], created if needed; a new one is made durable (its parent is
    /// synced by path, so `parent` may be an `O_PATH` descriptor).
    pub(crate) fn create_child(parent: &impl AsFd, parent_path: &Path, name: &str) -> Result<Self> {
        if let Some(dir) = Self::open_child(parent, parent_path, name)? {
            return Ok(dir);
        }
        let path = parent_path.join(name);
        make_dir_at(parent, name, &path)?;
        sync_path(parent_path)?;
        Self::open_child(parent, parent_path, name)?
            .ok_or_else(|| io("open", &path, io::ErrorKind::NotFound))
    }

    /// The state directory at the absolute `path` (a Claude Code folder's, outside that
    /// folder), created with its parents if needed. The path's last component is opened
    /// without following a link; the parents are the user's own state directory.
    pub fn at(path: &Path) -> Result<Self> {
        let (Some(parent), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str()))
        else {
            return Err(ReviewError::StateNotADirectory {
                path: path.to_owned(),
            });
        };
        if !path.is_absolute() {
            return Err(ReviewError::DataInvalid {
                what: "state directory",
                path: path.to_owned(),
                rule: "it must be an absolute path".into(),
            });
        }
        create_private_dir_all(parent).map_err(|e| io("create", parent, e))?;
        let parent_fd = rustix::fs::openat(
            rustix::fs::CWD,
            parent,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|e| io("open", parent, e))?;
        if let Some(dir) = open_dir_at(&parent_fd, name, path.to_owned())? {
            return Ok(dir);
        }
        make_dir_at(&parent_fd, name, path)?;
        rustix::fs::fsync(&parent_fd).map_err(|e| io("fsync", parent, e))?;
        open_dir_at(&parent_fd, name, path.to_owned())?
            .ok_or_else(|| io("open", path, io::ErrorKind::NotFound))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn file_path(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// A directory inside this one, if it exists.
    pub fn subdir(&self, name: &str) -> Result<Option<StateDir>> {
        open_dir_at(&self.fd, name, self.file_path(name))
    }

    /// A directory inside this one, created (durably) if needed.
    pub fn create_subdir(&self, name: &str) -> Result<StateDir> {
        if let Some(dir) = self.subdir(name)? {
            return Ok(dir);
        }
        let path = self.file_path(name);
        make_dir_at(&self.fd, name, &path)?;
        self.sync()?;
        self.subdir(name)?
            .ok_or_else(|| io("open", &path, io::ErrorKind::NotFound))
    }

    /// Opens `name` for reading: `None` when it does not exist; refused unless it is a regular
    /// file (never through a link, never waiting on a FIFO).
    pub fn open_file(&self, name: &str) -> Result<Option<File>> {
        let path = self.file_path(name);
        match open_regular_at_io(&self.fd, Path::new(name), crate::fs::Links::Refuse) {
            Ok(file) => Ok(Some(file)),
            Err(OpenError::Io(e)) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(OpenError::Io(e)) if e.raw_os_error() == Some(Errno::LOOP.raw_os_error()) => {
                Err(ReviewError::StateEscapes { path })
            }
            Err(e) => Err(e.into_fs(&path).into()),
        }
    }

    /// Opens `name` for writing with `flags`, never through a link or onto a FIFO.
    fn open_for_write(&self, name: &str, flags: OFlags) -> Result<Option<File>> {
        let path = self.file_path(name);
        let flags = flags | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY;
        let mode = Mode::from_raw_mode(PRIVATE_FILE);
        let fd = match rustix::fs::openat(&self.fd, c_name(name, &path)?.as_c_str(), flags, mode) {
            Ok(fd) => fd,
            Err(Errno::NOENT) => return Ok(None),
            Err(Errno::LOOP) => return Err(ReviewError::StateEscapes { path }),
            Err(Errno::ISDIR) => {
                return Err(FsError::NotAFile {
                    path,
                    kind: "directory",
                }
                .into());
            }
            Err(Errno::NXIO) => {
                return Err(FsError::NotAFile { path, kind: "FIFO" }.into());
            }
            Err(e) => return Err(io("open", &path, e)),
        };
        let stat = rustix::fs::fstat(&fd).map_err(|e| io("stat", &path, e))?;
        if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
            return Err(FsError::NotAFile {
                path,
                kind: "special file",
            }
            .into());
        }
        Ok(Some(File::from(fd)))
    }

    /// The whole of `name`, at most `max` bytes (more is refused); `None` when it is absent.
    pub fn read(&self, name: &str, max: usize) -> Result<Option<Vec<u8>>> {
        let Some(file) = self.open_file(name)? else {
            return Ok(None);
        };
        Ok(Some(read_capped(file, max, &self.file_path(name))?))
    }

    /// `name` opened for appending, created if missing; whether it was created.
    pub fn open_append(&self, name: &str) -> Result<(File, bool)> {
        if let Some(file) = self.open_for_write(name, OFlags::WRONLY | OFlags::APPEND)? {
            return Ok((file, false));
        }
        let flags = OFlags::WRONLY | OFlags::APPEND | OFlags::CREATE | OFlags::EXCL;
        match self.open_for_write(name, flags)? {
            Some(file) => Ok((file, true)),
            None => Err(io("create", &self.file_path(name), io::ErrorKind::NotFound)),
        }
    }

    /// Writes `bytes` to a new temp file here, fsynced; returns its name.
    pub fn write_temp(&self, bytes: &[u8]) -> Result<String> {
        let name = temp_name();
        let path = self.file_path(&name);
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL;
        let written = (|| {
            let mut file = self
                .open_for_write(&name, flags)?
                .ok_or_else(|| io("create", &path, io::ErrorKind::NotFound))?;
            file.write_all(bytes).map_err(|e| io("write", &path, e))?;
            file.sync_all().map_err(|e| io("fsync", &path, e))
        })();
        if written.is_err() {
            self.remove(&name);
        }
        written.map(|()| name)
    }

    /// Replaces `name` atomically with `bytes` (temp, fsync, rename, directory fsync).
    pub fn replace(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let temp = self.write_temp(bytes)?;
        let path = self.file_path(name);
        let renamed = rustix::fs::renameat(
            &self.fd,
            c_name(&temp, &path)?.as_c_str(),
            &self.fd,
            c_name(name, &path)?.as_c_str(),
        );
        if let Err(e) = renamed {
            self.remove(&temp);
            return Err(io("rename", &path, e));
        }
        self.sync()
    }

    /// Writes `name` atomically and exclusively: a temp file, fsync, then a hard link that
    /// fails if the name exists, then a directory fsync.
    pub fn create_exclusive(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let temp = self.write_temp(bytes)?;
        let path = self.file_path(name);
        let linked = rustix::fs::linkat(
            &self.fd,
            c_name(&temp, &path)?.as_c_str(),
            &self.fd,
            c_name(name, &path)?.as_c_str(),
            AtFlags::empty(),
        );
        self.remove(&temp);
        linked.map_err(|e| io("create", &path, e))?;
        self.sync()
    }

    /// Renames `from` to `to` inside this directory (no fsync: callers decide).
    pub fn rename(&self, from: &str, to: &str) -> Result<()> {
        let path = self.file_path(to);
        rustix::fs::renameat(
            &self.fd,
            c_name(from, &path)?.as_c_str(),
            &self.fd,
            c_name(to, &path)?.as_c_str(),
        )
        .map_err(|e| io("rename", &path, e))
    }

    /// Removes `name`, if it is there; a failure is logged, not returned.
    pub fn remove(&self, name: &str) {
        let path = self.file_path(name);
        let Ok(c) = c_name(name, &path) else { return };
        match rustix::fs::unlinkat(&self.fd, c.as_c_str(), AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => {}
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "could not remove a memwb state file")
            }
        }
    }

    pub fn exists(&self, name: &str) -> bool {
        classify(&self.fd, name).is_some()
    }

    /// The type of `name`, without following it.
    pub fn file_type(&self, name: &str) -> Option<FileType> {
        classify(&self.fd, name)
    }

    pub fn sync(&self) -> Result<()> {
        rustix::fs::fsync(&self.fd).map_err(|e| io("fsync", &self.path, e))
    }

    /// The names in this directory, sorted (`.` and `..` left out).
    pub fn names(&self) -> Result<Vec<String>> {
        let dir = rustix::fs::Dir::read_from(&self.fd).map_err(|e| io("list", &self.path, e))?;
        let mut names: Vec<String> = dir
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().to_str().ok().map(str::to_owned))
            .filter(|n| n != "." && n != "..")
            .collect();
        names.sort();
        Ok(names)
    }
}

fn make_dir_at(parent: &impl AsFd, name: &str, path: &Path) -> Result<()> {
    match rustix::fs::mkdirat(
        parent,
        c_name(name, path)?.as_c_str(),
        Mode::from_raw_mode(PRIVATE_DIR),
    ) {
        Ok(()) | Err(Errno::EXIST) => Ok(()),
        Err(e) => Err(io("create", path, e)),
    }
}

fn sync_path(dir: &Path) -> Result<()> {
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io("fsync", dir, e))
}
