//! The current set as the manifest defines it, read strictly.

use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rustix::fs::AtFlags;
use rustix::io::Errno;

use super::cache::FileKey;
use super::error::{Result, StoreError};
use super::fsutil::{Links, OpenError, open_regular_at_io, read_capped, read_regular};
use super::record::MAX_RECORD_BYTES;
use super::{Record, Store, codec, index, manifest};

/// A record and the file that holds this version of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredRecord {
    pub file: String,
    pub record: Record,
}

/// The records in manifest order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemorySet {
    pub entries: Vec<StoredRecord>,
}

impl MemorySet {
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The first record named `name`. A hand edit can leave a name held by two files; to
    /// address a record, use [`MemorySet::require`], which refuses an ambiguous name.
    pub fn get(&self, name: &str) -> Option<&StoredRecord> {
        self.entries.iter().find(|e| e.record.name() == name)
    }

    /// The record `target` addresses: a listed file name (`<name>-<id>.md`), or a record name
    /// held by exactly one listed file. `NotFound` if none; `AmbiguousName` (naming every file
    /// that holds it) if several do.
    pub fn require(&self, target: &str) -> Result<&StoredRecord> {
        if let Some(entry) = self.entries.iter().find(|e| e.file == target) {
            return Ok(entry);
        }
        let mut named = self.entries.iter().filter(|e| e.record.name() == target);
        let first = named.next().ok_or_else(|| StoreError::NotFound {
            name: target.to_owned(),
        })?;
        let others: Vec<String> = named.map(|e| e.file.clone()).collect();
        if others.is_empty() {
            return Ok(first);
        }
        Err(StoreError::AmbiguousName {
            name: target.to_owned(),
            files: std::iter::once(first.file.clone()).chain(others).collect(),
        })
    }

    /// The records addressed, in that order; the first missing or ambiguous one is an error.
    pub fn require_all(&self, targets: &[String]) -> Result<Vec<StoredRecord>> {
        targets
            .iter()
            .map(|target| self.require(target).cloned())
            .collect()
    }

    /// Names held by more than one listed file, each with those files in manifest order.
    pub fn duplicate_names(&self) -> Vec<(&str, Vec<&str>)> {
        duplicate_names(
            self.entries
                .iter()
                .map(|e| (e.record.name(), e.file.as_str())),
        )
    }

    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.entries.iter().map(|e| &e.record)
    }

    pub fn files(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.file.clone()).collect()
    }

    /// The MEMORY.md this set derives.
    pub fn index_text(&self) -> String {
        index::render(self.entries.iter().map(|e| (e.file.as_str(), &e.record)))
    }
}

/// Names held by more than one file, each with its files in order, from `(name, file)` pairs.
pub(crate) fn duplicate_names<'a>(
    entries: impl Iterator<Item = (&'a str, &'a str)>,
) -> Vec<(&'a str, Vec<&'a str>)> {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (name, file) in entries {
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, files)) => files.push(file),
            None => groups.push((name, vec![file])),
        }
    }
    groups.retain(|(_, files)| files.len() > 1);
    groups
}

/// How often a read restarts when a listed file vanished under a concurrent commit.
const READ_ATTEMPTS: usize = 8;

impl Store {
    /// The set, failing like the reference on any invalid entry.
    pub fn read(&self) -> Result<MemorySet> {
        let Some(dir) = self.open_root()? else {
            return Ok(MemorySet::default());
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let Some(bytes) = self.read_manifest_bytes()? else {
                return Ok(MemorySet::default());
            };
            let loaded = match self.load_listed(&dir, &bytes) {
                Err(StoreError::RecordMissing { .. }) if attempt < READ_ATTEMPTS => {
                    if self.read_manifest_bytes()?.as_deref() != Some(&bytes[..]) {
                        continue;
                    }
                    self.load_listed(&dir, &bytes)
                }
                other => other,
            };
            // Files are read relative to `.memory` as opened above; check it again so that a
            // `.memory` swapped for a link during the read is still refused.
            self.check_root()?;
            return loaded;
        }
    }

    /// `manifest.json` as it is on disk (`None`: absent), at most [`manifest::MAX_MANIFEST_BYTES`];
    /// a link, FIFO, device or directory in its place is refused.
    pub(crate) fn read_manifest_bytes(&self) -> Result<Option<Vec<u8>>> {
        read_regular(
            &self.manifest_path(),
            manifest::MAX_MANIFEST_BYTES,
            Links::Refuse,
        )
    }

    /// The records alone, in manifest order.
    pub fn records(&self) -> Result<Vec<Record>> {
        Ok(self.read()?.entries.into_iter().map(|e| e.record).collect())
    }

    fn load_listed(&self, dir: &OwnedFd, manifest_bytes: &[u8]) -> Result<MemorySet> {
        let files = manifest::parse(manifest_bytes, self.options.max_index_lines).map_err(|e| {
            StoreError::ManifestInvalid {
                path: self.manifest_path(),
                rule: e.to_string(),
            }
        })?;
        let looked_at = SystemTime::now();
        let entries = files
            .into_iter()
            .map(|file| {
                let record = self.load_record_in(dir, &file, looked_at)?;
                Ok(StoredRecord { file, record })
            })
            .collect::<Result<Vec<_>>>()?;
        self.cache.retain_listed(&entries);
        Ok(MemorySet { entries })
    }

    /// The raw bytes of a listed entry, if it exists inside the store: what
    /// [`Store::repair_entry`] compares its `seen` argument with.
    pub fn entry_bytes(&self, file: &str) -> Option<Vec<u8>> {
        read_contained(&self.root, &self.root.join(file)).ok()
    }

    pub(crate) fn load_record(&self, file: &str) -> Result<Record> {
        let dir = self.open_root()?.ok_or_else(|| StoreError::RecordMissing {
            path: self.root.join(file),
        })?;
        self.load_record_in(&dir, file, SystemTime::now())
    }

    /// One listed record: from the cache if one `lstat` shows the very file it was parsed from,
    /// otherwise read (without following a link; a link goes through [`read_contained`]),
    /// parsed and validated. `looked_at` is a time taken before any of this read's `stat`s.
    fn load_record_in(&self, dir: &OwnedFd, file: &str, looked_at: SystemTime) -> Result<Record> {
        let path = || self.root.join(file);
        // A manifest's names have no separators (`manifest::parse` checked them); anything
        // else takes the careful path alone.
        if file.contains('/') || file == ".." || file == "." {
            let path = path();
            let bytes = read_contained(&self.root, &path)?;
            return codec::parse(&bytes).map_err(|error| StoreError::RecordInvalid { path, error });
        }
        if let Some((key, record)) = self.cache.entry(file) {
            match rustix::fs::statat(dir, file, AtFlags::SYMLINK_NOFOLLOW) {
                Ok(stat) if FileKey::of(&stat) == key => {
                    self.cache.hit();
                    return Ok(record);
                }
                Ok(_) => {} // changed: read it again
                Err(Errno::NOENT) => return Err(StoreError::RecordMissing { path: path() }),
                Err(_) => {} // the read below decides
            }
        }
        let (bytes, key) = match read_no_follow_at(dir, file) {
            Ok((bytes, key)) => (bytes, Some(key)),
            Err(ReadError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                return Err(StoreError::RecordMissing { path: path() });
            }
            Err(ReadError::Refused(e)) => return Err(refused(e, path())),
            // A link (ELOOP) or anything unusual: the careful path decides, and nothing is cached.
            Err(ReadError::Io(_)) => (read_contained(&self.root, &path())?, None),
        };
        let record = codec::parse(&bytes).map_err(|error| StoreError::RecordInvalid {
            path: path(),
            error,
        })?;
        if let Some(key) = key {
            self.cache.insert(file, key, looked_at, &record);
        }
        Ok(record)
    }
}

/// Reads a listed file after checking that its realpath stays inside the store.
pub(crate) fn read_contained(root: &Path, path: &Path) -> Result<Vec<u8>> {
    // `path` is `<root>/<safe file name>` (no separators, no `..`) and `root` is already its
    // own realpath, so only a link in the last component can lead outside. Opening with
    // O_NOFOLLOW refuses exactly that case, which then goes through realpath; a plain file is
    // read with one open instead of resolving every component (most of a load's time).
    let missing = || StoreError::RecordMissing {
        path: path.to_owned(),
    };
    if path.parent() == Some(root) {
        match read_record_file(path, Links::Refuse) {
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
    match read_record_file(&real, Links::Follow) {
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
            not_a_file => ReadError::Refused(not_a_file.into_store(Path::new(""))),
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
                error: codec::ParseError::Invalid {
                    error: super::record::RecordError::TooManyBytes(size),
                    line: None,
                },
            }
        }
        other => other,
    }
}

/// A record file, at most [`MAX_RECORD_BYTES`] of it (one byte more is refused as too large).
fn read_record_file(path: &Path, links: Links) -> Result<Vec<u8>, ReadError> {
    let file = open_regular_at_io(rustix::fs::CWD, path, links)?;
    read_capped(file, MAX_RECORD_BYTES, path).map_err(ReadError::Refused)
}

/// Reads `file` in `dir` if it is a regular file and not a symbolic link, with the `fstat`
/// taken before the read.
fn read_no_follow_at(dir: &OwnedFd, file: &str) -> Result<(Vec<u8>, FileKey), ReadError> {
    let opened = open_regular_at_io(dir, Path::new(file), Links::Refuse)?;
    let key = FileKey::of(&rustix::fs::fstat(&opened).map_err(|e| ReadError::Io(e.into()))?);
    let bytes =
        read_capped(opened, MAX_RECORD_BYTES, Path::new(file)).map_err(ReadError::Refused)?;
    Ok((bytes, key))
}

fn resolve(path: &Path) -> Result<std::path::PathBuf> {
    match fs::canonicalize(path) {
        Ok(real) => Ok(real),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(StoreError::RecordMissing {
            path: path.to_owned(),
        }),
        Err(e) => Err(StoreError::io("resolve", path, e)),
    }
}
