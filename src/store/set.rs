//! The current set as the manifest defines it, read strictly.

use std::fs;
use std::io;
use std::path::Path;

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
        if !self.check_root()? {
            return Ok(MemorySet::default());
        }
        let manifest_path = self.manifest_path();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let Some(bytes) = read_optional(&manifest_path)? else {
                return Ok(MemorySet::default());
            };
            let loaded = match self.load_listed(&bytes) {
                Err(StoreError::RecordMissing { .. }) if attempt < READ_ATTEMPTS => {
                    if read_optional(&manifest_path)?.as_deref() != Some(&bytes[..]) {
                        continue;
                    }
                    self.load_listed(&bytes)
                }
                other => other,
            };
            // Files are read relative to `.memory` as checked above; check it again so that a
            // `.memory` swapped for a link during the read is still refused.
            self.check_root()?;
            return loaded;
        }
    }

    /// The records alone, in manifest order.
    pub fn records(&self) -> Result<Vec<Record>> {
        Ok(self.read()?.entries.into_iter().map(|e| e.record).collect())
    }

    fn load_listed(&self, manifest_bytes: &[u8]) -> Result<MemorySet> {
        let files = manifest::parse(manifest_bytes, self.options.max_index_lines).map_err(|e| {
            StoreError::ManifestInvalid {
                path: self.manifest_path(),
                rule: e.to_string(),
            }
        })?;
        let entries = files
            .into_iter()
            .map(|file| {
                let record = self.load_record(&file)?;
                Ok(StoredRecord { file, record })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(MemorySet { entries })
    }

    /// The raw bytes of a listed entry, if it exists inside the store: what
    /// [`Store::repair_entry`] compares its `seen` argument with.
    pub fn entry_bytes(&self, file: &str) -> Option<Vec<u8>> {
        read_contained(&self.root, &self.root.join(file)).ok()
    }

    pub(crate) fn load_record(&self, file: &str) -> Result<Record> {
        let path = self.root.join(file);
        let bytes = read_contained(&self.root, &path)?;
        codec::parse(&bytes).map_err(|error| StoreError::RecordInvalid { path, error })
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

fn resolve(path: &Path) -> Result<std::path::PathBuf> {
    match fs::canonicalize(path) {
        Ok(real) => Ok(real),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(StoreError::RecordMissing {
            path: path.to_owned(),
        }),
        Err(e) => Err(StoreError::io("resolve", path, e)),
    }
}
