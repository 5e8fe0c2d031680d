//! The file operations a change to a Claude Code folder is made of, each relative to a
//! directory descriptor opened one component at a time without following links: read a file
//! as it is, replace it atomically (temp file in its own directory, fsync, rename, directory
//! fsync), remove it; or a change of many files in passes ([`super::batch::Batch`]). Every step passes the
//! folder's fault hooks.

use std::ffi::OsStr;
use std::fs::File;
use std::io::Write;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::super::error::{ClaudeError, Result};
use super::super::fsread::MAX_FILE_BYTES;
use super::batch::Batch;
use crate::fs::{IoHooks, IoOp, open_regular_at_stat, read_capped};

/// memwb's temp files in a Claude Code folder: a dot-name (Claude Code skips hidden files)
/// that does not end in `.md`, with a prefix no other tool uses, so recovery removes only its
/// own.
pub const TEMP_PREFIX: &str = ".memwb-";
pub const TEMP_SUFFIX: &str = ".tmp";

fn temp_name() -> String {
    format!(
        "{TEMP_PREFIX}{}{TEMP_SUFFIX}",
        uuid::Uuid::new_v4().simple()
    )
}

pub(crate) fn is_temp_name(name: &str) -> bool {
    name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)
}

pub(super) fn io(op: &'static str, path: &Path, e: impl Into<std::io::Error>) -> ClaudeError {
    ClaudeError::io(op, path, e.into())
}

pub(super) fn refused(path: PathBuf, rule: impl Into<String>) -> ClaudeError {
    ClaudeError::WriteRefused {
        path,
        rule: rule.into(),
    }
}

/// A directory of the folder, opened without following links.
pub(crate) struct Dir {
    fd: OwnedFd,
    pub(super) path: PathBuf,
}

/// The folder's root directory.
pub(crate) struct Root {
    dir: Dir,
    pub(super) hooks: IoHooks,
}

const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

impl Root {
    pub(crate) fn open(root: &Path, hooks: &IoHooks) -> Result<Self> {
        let fd = rustix::fs::openat(rustix::fs::CWD, root, DIR_FLAGS, Mode::empty())
            .map_err(|e| io("open", root, e))?;
        Ok(Self {
            dir: Dir {
                fd,
                path: root.to_owned(),
            },
            hooks: hooks.clone(),
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.dir.path
    }

    pub(crate) fn shown(&self, file: &str) -> PathBuf {
        self.dir.path.join(file)
    }

    /// The directory holding `file` (a checked relative name) and the file's last component;
    /// `None` when a directory on the way is missing and `create` is false. With `create`, a
    /// missing directory is made inside the folder (Claude Code's Write makes it too). A
    /// directory on the way that is a link is refused: memwb never writes through one.
    pub(super) fn dir_of<'f>(&self, file: &'f str, create: bool) -> Result<Option<(Dir, &'f str)>> {
        let (dirs, name) = match file.rsplit_once('/') {
            Some((dirs, name)) => (Some(dirs), name),
            None => (None, file),
        };
        let mut dir = Dir {
            fd: self
                .dir
                .fd
                .try_clone()
                .map_err(|e| io("open", self.path(), e))?,
            path: self.dir.path.clone(),
        };
        for part in dirs.into_iter().flat_map(|d| d.split('/')) {
            let path = dir.path.join(part);
            let mut opened = rustix::fs::openat(&dir.fd, part, DIR_FLAGS, Mode::empty());
            if matches!(opened, Err(Errno::NOENT)) {
                if !create {
                    return Ok(None);
                }
                match rustix::fs::mkdirat(&dir.fd, part, Mode::from_raw_mode(0o755)) {
                    Ok(()) | Err(Errno::EXIST) => {}
                    Err(e) => return Err(io("mkdir", &path, e)),
                }
                rustix::fs::fsync(&dir.fd).map_err(|e| io("fsync", &dir.path, e))?;
                // Opened again without following links: a link raced in is refused below.
                opened = rustix::fs::openat(&dir.fd, part, DIR_FLAGS, Mode::empty());
            }
            let fd = match opened {
                Ok(fd) => fd,
                Err(Errno::LOOP | Errno::NOTDIR) => {
                    return Err(refused(
                        self.shown(file),
                        format!(
                            "{} is not a real folder (a link or a file); memwb never writes through one",
                            path.display()
                        ),
                    ));
                }
                Err(e) => return Err(io("open", &path, e)),
            };
            dir = Dir { fd, path };
        }
        Ok(Some((dir, name)))
    }

    /// The status of `file`, a link at its end not followed; `None` when it or a folder on
    /// its way is missing or not a real folder. A file in the folder itself is looked up
    /// through the folder's own descriptor (no descriptor opened).
    pub(super) fn stat(&self, file: &str) -> Option<rustix::fs::Stat> {
        let nofollow = AtFlags::SYMLINK_NOFOLLOW;
        if !file.contains('/') {
            return rustix::fs::statat(&self.dir.fd, file, nofollow).ok();
        }
        let (dir, name) = self.dir_of(file, false).ok()??;
        rustix::fs::statat(&dir.fd, name, nofollow).ok()
    }

    /// The text of `file` as it is now (`None`: it does not exist, nor maybe its folder). A
    /// link, a FIFO, a device, a directory or a file that is not UTF-8 is refused, without
    /// blocking.
    pub(crate) fn read(&self, file: &str) -> Result<Option<String>> {
        match self.dir_of(file, false)? {
            Some((dir, name)) => dir.read(name),
            None => Ok(None),
        }
    }

    /// The text of `file` as [`Root::read`] gives it, and the file it was read from, kept
    /// open so that a write into it after the compare can be seen later
    /// ([`super::witness`]).
    pub(crate) fn read_open(&self, file: &str) -> Result<Option<(String, File)>> {
        Ok(self
            .read_open_stat(file)?
            .map(|(text, file, _)| (text, file)))
    }

    /// [`Root::read_open`], with the status the file was checked with when opened.
    pub(crate) fn read_open_stat(
        &self,
        file: &str,
    ) -> Result<Option<(String, File, rustix::fs::Stat)>> {
        match self.dir_of(file, false)? {
            Some((dir, name)) => dir.read_open(name),
            None => Ok(None),
        }
    }

    /// Replaces (or creates) `file` with `text`, and any folder on its way inside the
    /// folder: readers see the old or the new bytes.
    pub(crate) fn write(&self, file: &str, text: &str) -> Result<()> {
        self.write_bytes(file, text.as_bytes(), false)
    }

    /// [`Root::write`] of any bytes; with `new`, refused as a conflict when a file of that
    /// name appeared since it was read as absent.
    pub(crate) fn write_bytes(&self, file: &str, bytes: &[u8], new: bool) -> Result<()> {
        let mut batch = self.batch();
        batch.stage(file, bytes)?;
        batch.put(file, new)?;
        batch.sync()
    }

    /// Removes `file` (already gone, or its folder, is fine), durably.
    pub(crate) fn remove(&self, file: &str) -> Result<()> {
        let mut batch = self.batch();
        batch.remove(file)?;
        batch.sync()
    }

    /// A change of several files, made in three passes ([`Batch`]).
    pub(crate) fn batch(&self) -> Batch<'_> {
        Batch::new(self)
    }

    /// Puts `file` in the state `text` says (`None`: absent).
    pub(crate) fn set(&self, file: &str, text: Option<&str>) -> Result<()> {
        match text {
            Some(text) => self.write(file, text),
            None => self.remove(file),
        }
    }

    /// Removes memwb's temp files left in the directory of `file` by a crash.
    pub(crate) fn remove_temps_beside(&self, file: &str) -> Result<()> {
        match self.dir_of(file, false) {
            Ok(Some((dir, _))) => dir.remove_temps(),
            // A folder that is gone or not real holds no temp file of ours.
            Ok(None) | Err(ClaudeError::WriteRefused { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }
}

impl Dir {
    fn kind(&self, name: &str) -> Option<FileType> {
        rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)
            .ok()
            .map(|s| FileType::from_raw_mode(s.st_mode))
    }

    fn read(&self, name: &str) -> Result<Option<String>> {
        Ok(self.read_open(name)?.map(|(text, ..)| text))
    }

    /// The text of `name` and the file it was read from, still open, with its status.
    fn read_open(&self, name: &str) -> Result<Option<(String, File, rustix::fs::Stat)>> {
        let path = self.path.join(name);
        if self.kind(name) == Some(FileType::Symlink) {
            return Err(refused(
                path,
                "it is a symbolic link; memwb never reads or writes through one",
            ));
        }
        let Some((file, stat)) =
            open_regular_at_stat(&self.fd, Path::new(name), crate::fs::Links::Refuse, &path)?
        else {
            return Ok(None);
        };
        let bytes = read_capped(&file, MAX_FILE_BYTES, &path)?;
        let text = String::from_utf8(bytes).map_err(|e| {
            refused(
                path,
                format!(
                    "it is not valid UTF-8 (first bad byte at offset {}); memwb does not rewrite it",
                    e.utf8_error().valid_up_to()
                ),
            )
        })?;
        Ok(Some((text, file, stat)))
    }

    /// Writes `bytes` to a new temp file beside `name` (with `name`'s permissions when it is a
    /// regular file), not yet synced ([`sync_all`]); returns the temp file's name and the file,
    /// open. Nothing is left on failure.
    pub(super) fn write_temp(
        &self,
        name: &str,
        bytes: &[u8],
        hooks: &IoHooks,
    ) -> Result<(String, File)> {
        let temp = temp_name();
        let temp_path = self.path.join(&temp);
        // A replaced file keeps its permissions.
        let mode = rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)
            .ok()
            .filter(|s| FileType::from_raw_mode(s.st_mode) == FileType::RegularFile)
            .map(|s| Mode::from_raw_mode(s.st_mode & 0o7777));
        let written = (|| {
            hooks.step(IoOp::WriteTemp, "write", &temp_path)?;
            let flags =
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(&self.fd, temp.as_str(), flags, Mode::from_raw_mode(0o644))
                .map_err(|e| io("create", &temp_path, e))?;
            if let Some(mode) = mode {
                rustix::fs::fchmod(&fd, mode).map_err(|e| io("chmod", &temp_path, e))?;
            }
            let mut file = File::from(fd);
            file.write_all(bytes)
                .map_err(|e| io("write", &temp_path, e))?;
            Ok(file)
        })();
        match written {
            Ok(file) => Ok((temp, file)),
            Err(e) => {
                self.discard(&temp);
                Err(e)
            }
        }
    }

    /// Removes a temp file of ours that will not be renamed into place.
    pub(super) fn discard(&self, temp: &str) {
        let _ = rustix::fs::unlinkat(&self.fd, temp, AtFlags::empty());
    }

    pub(super) fn rename_into_place(&self, temp: &str, name: &str, new: bool) -> Result<()> {
        let target = self.path.join(name);
        if new {
            match rustix::fs::renameat_with(
                &self.fd,
                temp,
                &self.fd,
                name,
                rustix::fs::RenameFlags::NOREPLACE,
            ) {
                Ok(()) => return Ok(()),
                Err(Errno::EXIST) => {
                    return Err(ClaudeError::Conflict {
                        path: target,
                        file: String::new(),
                        current: None,
                        raced: true,
                    });
                }
                // A file system without RENAME_NOREPLACE: the plain rename below.
                Err(Errno::INVAL | Errno::NOSYS | Errno::OPNOTSUPP) => {}
                Err(e) => return Err(io("rename", &target, e)),
            }
        }
        rustix::fs::renameat(&self.fd, temp, &self.fd, name).map_err(|e| io("rename", &target, e))
    }

    /// Unlinks `name` (already gone is fine); not durable until [`Dir::sync`].
    pub(super) fn unlink(&self, name: &str, hooks: &IoHooks) -> Result<()> {
        let path = self.path.join(name);
        hooks.step(IoOp::RemoveReplaced, "remove", &path)?;
        match rustix::fs::unlinkat(&self.fd, name, AtFlags::empty()) {
            Ok(()) | Err(Errno::NOENT) => Ok(()),
            Err(e) => Err(io("remove", &path, e)),
        }
    }

    pub(super) fn sync(&self, hooks: &IoHooks) -> Result<()> {
        hooks.step(IoOp::SyncDir, "fsync", &self.path)?;
        rustix::fs::fsync(&self.fd).map_err(|e| io("fsync", &self.path, e))
    }

    fn remove_temps(&self) -> Result<()> {
        let names = rustix::fs::Dir::read_from(&self.fd).map_err(|e| io("list", &self.path, e))?;
        let mut removed = false;
        for entry in names.filter_map(std::result::Result::ok) {
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            let Some(name) = name.to_str().filter(|n| is_temp_name(n)) else {
                continue;
            };
            match rustix::fs::unlinkat(&self.fd, name, AtFlags::empty()) {
                Ok(()) => removed = true,
                Err(Errno::NOENT) => {}
                Err(e) => return Err(io("remove", &self.path.join(name), e)),
            }
            tracing::info!(file = %self.path.join(name).display(), "removed a temp file an interrupted write left");
        }
        if removed {
            rustix::fs::fsync(&self.fd).map_err(|e| io("fsync", &self.path, e))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::fs::{FaultHook, FsError};

    /// Fails the one step it is given, as a full disk or a read-only folder would.
    struct FailAt(IoOp);

    impl FaultHook for FailAt {
        fn before(&self, op: IoOp, _path: &Path) -> std::io::Result<()> {
            if op == self.0 {
                Err(std::io::Error::other("injected failure"))
            } else {
                Ok(())
            }
        }
    }

    /// A failed write of a Claude Code folder is a write error naming the file written, not
    /// a read error (as it was while the file layer's errors were the store's).
    #[test]
    fn a_failed_write_reads_as_a_write_error_naming_the_path() {
        let folder = tempfile::tempdir().expect("temp dir");
        for (op, verb) in [
            (IoOp::WriteTemp, "write"),
            (IoOp::SyncTemp, "fsync"),
            (IoOp::Rename, "rename"),
        ] {
            let root = Root::open(folder.path(), &IoHooks::new(Arc::new(FailAt(op))))
                .expect("open the folder");
            let error = root
                .write("topic.md", "text\n")
                .expect_err("the write fails");
            match &error {
                ClaudeError::Fs(FsError::Io { op, path, .. }) => {
                    assert_eq!(*op, verb);
                    assert_eq!(path.parent(), Some(folder.path()), "{error}");
                }
                other => panic!("{op:?}: a write error expected, got {other:?}"),
            }
            let message = error.to_string();
            assert!(
                message.starts_with(&format!("{verb} {}", folder.path().display())),
                "{message}"
            );
            assert!(!folder.path().join("topic.md").exists());
        }
    }
}
