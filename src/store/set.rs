//! The current set as the manifest defines it, read strictly.

use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::time::SystemTime;

use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

use super::cache::FileKey;
use super::error::{Result, StoreError};
use super::fsutil::read_optional;
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

    pub fn get(&self, name: &str) -> Option<&StoredRecord> {
        self.entries.iter().find(|e| e.record.name() == name)
    }

    /// The record named `name`, or a `NotFound` error that names it.
    pub fn require(&self, name: &str) -> Result<&StoredRecord> {
        self.get(name).ok_or_else(|| StoreError::NotFound {
            name: name.to_owned(),
        })
    }

    /// The records named, in that order; the first missing one is an error.
    pub fn require_all(&self, names: &[String]) -> Result<Vec<Record>> {
        names
            .iter()
            .map(|name| Ok(self.require(name)?.record.clone()))
            .collect()
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

/// How often a read restarts when a listed file vanished under a concurrent commit.
const READ_ATTEMPTS: usize = 8;

impl Store {
    /// The set, failing like the reference on any invalid entry.
    pub fn read(&self) -> Result<MemorySet> {
        let Some(dir) = self.open_root()? else {
            return Ok(MemorySet::default());
        };
        let manifest_path = self.manifest_path();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let Some(bytes) = read_optional(&manifest_path)? else {
                return Ok(MemorySet::default());
            };
            let loaded = match self.load_listed(&dir, &bytes) {
                Err(StoreError::RecordMissing { .. }) if attempt < READ_ATTEMPTS => {
                    if read_optional(&manifest_path)?.as_deref() != Some(&bytes[..]) {
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
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(StoreError::RecordMissing { path: path() });
            }
            // A link (ELOOP) or anything unusual: the careful path decides, and nothing is cached.
            Err(_) => (read_contained(&self.root, &path())?, None),
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
    if path.parent() == Some(root) {
        match read_no_follow(path) {
            Ok(bytes) => return Ok(bytes),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(StoreError::RecordMissing {
                    path: path.to_owned(),
                });
            }
            Err(_) => {} // a link (ELOOP) or anything unusual: the careful path below decides
        }
    }
    let real = resolve(path)?;
    if !real.starts_with(root) || real == root {
        return Err(StoreError::RecordEscapes {
            path: path.to_owned(),
        });
    }
    fs::read(&real).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => StoreError::RecordMissing {
            path: path.to_owned(),
        },
        _ => StoreError::io("read", path, e),
    })
}

/// Reads a file that is not a symbolic link. Record files are at most 4096 bytes, so one read
/// usually gets all of it.
fn read_no_follow(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    let mut bytes = Vec::with_capacity(super::record::MAX_RECORD_BYTES + 1);
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads `file` in `dir` if it is not a symbolic link, with the `fstat` taken before the read.
fn read_no_follow_at(dir: &OwnedFd, file: &str) -> io::Result<(Vec<u8>, FileKey)> {
    use std::io::Read;
    let fd = rustix::fs::openat(
        dir,
        file,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let key = FileKey::of(&rustix::fs::fstat(&fd)?);
    // Sized from the fstat, so that a record file takes one read and one more to see its end
    // (`File::read_to_end` would first stat and seek the file again for its own size hint).
    let hint = usize::try_from(key.size())
        .unwrap_or(0)
        .min(super::record::MAX_RECORD_BYTES)
        + 1;
    let mut bytes = Vec::with_capacity(hint);
    fs::File::from(fd).take(u64::MAX).read_to_end(&mut bytes)?;
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
