//! The one way a record file is read: [`Store::read_entry_file`] for its bytes and
//! [`Store::load_entry`] for its record (cache, read, parse). `Store::read`, the audit
//! (`Store::inspect`), `Store::entry_bytes` (repair, the workbench's conflict checks),
//! `Store::stray_bytes` (unlisted and temp files) and `Store::load_record` all go through
//! them, so a rule about record files (no link out of the store, no wait on a FIFO, the size
//! budget, the cache's identity check) holds in one place.
//!
//! The fast path is `openat(.memory, name, O_NOFOLLOW | O_NONBLOCK)`, one `fstat` on that
//! descriptor (regular file? its size, its cache key) and one `read` into a buffer of that size.
//! A name that is a link, or anything unusual, takes the careful path instead: the realpath
//! must stay inside the store (as the reference checks it), then the file is opened as above.

use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rustix::fs::AtFlags;
use rustix::io::Errno;

use super::cache::FileKey;
use super::codec::{self, ParseError};
use super::error::{Result, StoreError};
use super::record::MAX_RECORD_BYTES;
use super::{Record, Store};
use crate::fs::{Links, OpenError, open_regular_with_stat, read_capped_sized, stat_len};

/// Why [`Store::load_entry`] gave no record.
#[derive(Debug)]
pub(crate) enum EntryFailure {
    /// The file was read but does not parse or validate; its bytes are kept for the audit.
    Invalid { error: ParseError, bytes: Vec<u8> },
    /// The file was not read: missing, a link out of the store, not a regular file, over the
    /// record budget, or an I/O error.
    Unread(StoreError),
}

impl Store {
    /// The bytes of the listed file `file`, and, when it was read through `dir` (the opened
    /// `.memory`) without following a link, the `fstat` key of the very descriptor read (what
    /// the record cache may key the parse by). `dir` is `None` when `.memory` could not be
    /// opened; then only the careful path is tried.
    pub(crate) fn read_entry_file(
        &self,
        dir: Option<&OwnedFd>,
        file: &str,
    ) -> Result<(Vec<u8>, Option<FileKey>)> {
        let path = || self.root.join(file);
        if let Some(dir) = dir.filter(|_| is_plain_name(file)) {
            match read_no_follow(dir, Path::new(file)) {
                Ok((bytes, key)) => return Ok((bytes, Some(key))),
                Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                    return Err(StoreError::RecordMissing { path: path() });
                }
                Err(ReadError::Refused(e)) => return Err(refused(e, path())),
                Err(ReadError::Io(_)) => {} // a link (ELOOP) or anything unusual
            }
        }
        Ok((read_contained(&self.root, &path())?, None))
    }

    /// The record in the listed file `file`: from the record cache when one `lstat` shows the
    /// very file it was parsed from, else read ([`Store::read_entry_file`]), parsed and
    /// validated, and cached when the file has settled. `looked_at` is a time taken before
    /// any `stat` of this read (see `cache.rs`).
    pub(crate) fn load_entry(
        &self,
        dir: Option<&OwnedFd>,
        file: &str,
        looked_at: SystemTime,
    ) -> std::result::Result<Record, EntryFailure> {
        if let Some(dir) = dir.filter(|_| is_plain_name(file))
            && let Some((key, record)) = self.cache.entry(file)
        {
            match rustix::fs::statat(dir, file, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(stat) if FileKey::of(&stat) == key => {
                    self.cache.hit();
                    return Ok(record);
                }
                Ok(_) => {} // changed: read it again
                Err(Errno::NOENT) => {
                    return Err(EntryFailure::Unread(StoreError::RecordMissing {
                        path: self.root.join(file),
                    }));
                }
                Err(_) => {} // the read decides
            }
        }
        let (bytes, key) = self
            .read_entry_file(dir, file)
            .map_err(EntryFailure::Unread)?;
        match codec::parse(&bytes) {
            Ok(record) => {
                if let Some(key) = key {
                    self.cache.insert(file, key, looked_at, &record);
                }
                Ok(record)
            }
            Err(error) => Err(EntryFailure::Invalid { error, bytes }),
        }
    }

    /// [`Store::load_entry`] as the strict reader reports it: an invalid file is
    /// [`StoreError::RecordInvalid`] naming its path.
    pub(crate) fn load_entry_strict(
        &self,
        dir: Option<&OwnedFd>,
        file: &str,
        looked_at: SystemTime,
    ) -> Result<Record> {
        self.load_entry(dir, file, looked_at)
            .map_err(|failure| match failure {
                EntryFailure::Invalid { error, .. } => StoreError::RecordInvalid {
                    path: self.root.join(file),
                    error,
                },
                EntryFailure::Unread(error) => error,
            })
    }

    /// The raw bytes of a listed entry, if it exists inside the store: what
    /// [`Store::repair_entry`] compares its `seen` argument with.
    pub fn entry_bytes(&self, file: &str) -> Option<Vec<u8>> {
        let dir = self.open_root().ok().flatten();
        self.read_entry_file(dir.as_ref(), file)
            .ok()
            .map(|(bytes, _)| bytes)
    }

    pub(crate) fn load_record(&self, file: &str) -> Result<Record> {
        let dir = self.open_root()?.ok_or_else(|| StoreError::RecordMissing {
            path: self.root.join(file),
        })?;
        self.load_entry_strict(Some(&dir), file, SystemTime::now())
    }
}

/// A manifest's names have no separators (`manifest::parse` checks them); anything else (a
/// name from a lenient parse, in the audit) takes the careful path alone.
fn is_plain_name(file: &str) -> bool {
    !(file.contains('/') || file == ".." || file == ".")
}

/// Reads a listed file after checking that its realpath stays inside the store.
fn read_contained(root: &Path, path: &Path) -> Result<Vec<u8>> {
    // `path` is `<root>/<safe file name>` (no separators, no `..`) and `root` is already its
    // own realpath, so only a link in the last component can lead outside. Opening with
    // O_NOFOLLOW refuses exactly that case, which then goes through realpath; a plain file is
    // read with one open instead of resolving every component.
    let missing = || StoreError::RecordMissing {
        path: path.to_owned(),
    };
    if path.parent() == Some(root) {
        match read_record_file(rustix::fs::CWD, path, Links::Refuse) {
            Ok(bytes) => return Ok(bytes),
            Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => return Err(missing()),
            Err(ReadError::Refused(e)) => return Err(refused(e, path.to_owned())),
            Err(ReadError::Io(_)) => {} // a link (ELOOP) or anything unusual: the careful path below decides
        }
    }
    let real = resolve(path)?;
    if !real.starts_with(root) || real == root {
        return Err(StoreError::RecordEscapes {
            path: path.to_owned(),
        });
    }
    match read_record_file(rustix::fs::CWD, &real, Links::Follow) {
        Ok(bytes) => Ok(bytes),
        Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => Err(missing()),
        Err(ReadError::Refused(e)) => Err(refused(e, path.to_owned())),
        Err(ReadError::Io(e)) => Err(StoreError::io("read", path, e)),
    }
}

/// Why a record file was not read.
enum ReadError {
    /// Opened, but not a regular file, or larger than a record may be: final, not retried
    /// through another path.
    Refused(StoreError),
    Io(io::Error),
}

impl From<OpenError> for ReadError {
    fn from(e: OpenError) -> Self {
        match e {
            OpenError::Io(e) => ReadError::Io(e),
            not_a_file => ReadError::Refused(not_a_file.into_fs(Path::new("")).into()),
        }
    }
}

/// A refusal named after the record's path; "too large" reads as the record budget's own
/// error, as it did when the whole file was read.
fn refused(error: StoreError, path: PathBuf) -> StoreError {
    match error {
        StoreError::NotAFile { kind, .. } => StoreError::NotAFile { path, kind },
        StoreError::TooLarge { .. } => {
            let size = fs::symlink_metadata(&path)
                .map_or(0, |m| usize::try_from(m.len()).unwrap_or(usize::MAX))
                .max(MAX_RECORD_BYTES + 1);
            StoreError::RecordInvalid {
                path,
                error: ParseError::Invalid {
                    error: super::record::RecordError::TooManyBytes(size),
                    line: None,
                },
            }
        }
        other => other,
    }
}

/// A record file, at most [`MAX_RECORD_BYTES`] of it (one byte more is refused as too large).
fn read_record_file<Fd: std::os::fd::AsFd>(
    dir: Fd,
    path: &Path,
    links: Links,
) -> std::result::Result<Vec<u8>, ReadError> {
    let (file, stat) = open_regular_with_stat(dir, path, links)?;
    read_capped_sized(file, stat_len(&stat), MAX_RECORD_BYTES, path)
        .map_err(|e| ReadError::Refused(e.into()))
}

/// Reads `name` in `dir` if it is a regular file and not a symbolic link, with the key of the
/// `fstat` taken on the descriptor before the read.
fn read_no_follow(
    dir: &OwnedFd,
    name: &Path,
) -> std::result::Result<(Vec<u8>, FileKey), ReadError> {
    let (file, stat) = open_regular_with_stat(dir, name, Links::Refuse)?;
    let bytes = read_capped_sized(file, stat_len(&stat), MAX_RECORD_BYTES, name)
        .map_err(|e| ReadError::Refused(e.into()))?;
    Ok((bytes, FileKey::of(&stat)))
}

fn resolve(path: &Path) -> Result<PathBuf> {
    match fs::canonicalize(path) {
        Ok(real) => Ok(real),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(StoreError::RecordMissing {
            path: path.to_owned(),
        }),
        Err(e) => Err(StoreError::io("resolve", path, e)),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::io::{self, Read};
    use std::path::Path;

    use super::*;
    use crate::store::inspect::EntryState;
    use crate::store::{MemoryType, StoreOptions};

    /// A reader that counts its `read` calls.
    struct Counting<'a> {
        bytes: &'a [u8],
        calls: usize,
    }

    impl Read for &mut Counting<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.calls += 1;
            let n = buf.len().min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_file_of_known_size_is_read_in_one_call_and_the_cap_still_holds() {
        let text = vec![b'x'; 300];
        let mut reader = Counting {
            bytes: &text,
            calls: 0,
        };
        let read = read_capped_sized(&mut reader, 300, 4096, Path::new("r.md")).expect("read");
        assert_eq!(read, text);
        assert_eq!(
            reader.calls, 1,
            "the bytes, and one fewer than asked for: the end"
        );
        // A file that shrank since its fstat is read to its end, as it is now.
        let shrunk = vec![b'x'; 200];
        let mut reader = Counting {
            bytes: &shrunk,
            calls: 0,
        };
        let read = read_capped_sized(&mut reader, 300, 4096, Path::new("r.md")).expect("read");
        assert_eq!(read, shrunk);
        assert_eq!(reader.calls, 2, "the bytes, then the end");
        // One that grew by less than the cap is read whole.
        let grown = vec![b'x'; 1000];
        let mut reader = Counting {
            bytes: &grown,
            calls: 0,
        };
        let read = read_capped_sized(&mut reader, 300, 4096, Path::new("r.md")).expect("read");
        assert_eq!(read, grown);
        // A file that grew since its fstat is still refused past the cap.
        let grown = vec![b'x'; 5000];
        let mut reader = Counting {
            bytes: &grown,
            calls: 0,
        };
        let refused = read_capped_sized(&mut reader, 300, 4096, Path::new("r.md"));
        assert!(matches!(
            refused,
            Err(crate::fs::FsError::TooLarge { max: 4096, .. })
        ));
    }

    /// `Store::read`, `Store::inspect` and `Store::entry_bytes` read record files one way, so
    /// they agree on every kind of entry.
    #[test]
    fn every_reader_agrees_on_every_kind_of_entry() {
        let ws = tempfile::tempdir().expect("temp dir");
        let store = Store::open(ws.path(), StoreOptions::default()).expect("open");
        let record = |name: &str| Record::new(name, MemoryType::Project, "a fact", "body").unwrap();
        let commit = store
            .extend(vec![
                record("fine"),
                record("spoilt"),
                record("piped"),
                record("linked"),
            ])
            .expect("extend");
        let file = |i: usize| store.root().join(&commit.set.entries[i].file);
        let fine = fs::read(file(0)).expect("read");
        fs::write(file(1), "not a record\n").expect("spoil");
        fs::remove_file(file(2)).expect("rm");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            file(2),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        let outside = ws.path().join("outside.md");
        fs::write(&outside, &fine).expect("write");
        fs::remove_file(file(3)).expect("rm");
        std::os::unix::fs::symlink(&outside, file(3)).expect("link");

        let states: Vec<EntryState> = store
            .inspect()
            .entries
            .into_iter()
            .map(|e| e.state)
            .collect();
        assert!(matches!(&states[0], EntryState::Valid(r) if r.name() == "fine"));
        assert!(matches!(&states[1], EntryState::Invalid { raw, .. } if raw == "not a record\n"));
        assert_eq!(states[2], EntryState::NotAFile { kind: "FIFO" });
        assert_eq!(states[3], EntryState::Escapes);

        let names = |i: usize| commit.set.entries[i].file.clone();
        assert_eq!(store.entry_bytes(&names(0)), Some(fine));
        assert_eq!(
            store.entry_bytes(&names(1)).as_deref(),
            Some(&b"not a record\n"[..])
        );
        assert_eq!(store.entry_bytes(&names(2)), None);
        assert_eq!(store.entry_bytes(&names(3)), None);

        let strict = |i: usize| store.load_record(&names(i));
        assert_eq!(strict(0).expect("valid").name(), "fine");
        assert!(matches!(strict(1), Err(StoreError::RecordInvalid { .. })));
        assert!(matches!(
            strict(2),
            Err(StoreError::NotAFile { kind: "FIFO", .. })
        ));
        assert!(matches!(strict(3), Err(StoreError::RecordEscapes { .. })));
        assert!(matches!(
            store.read(),
            Err(StoreError::RecordInvalid { .. })
        ));
    }
}
