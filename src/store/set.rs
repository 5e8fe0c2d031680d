//! The current set as the manifest defines it, read strictly.

use std::os::fd::OwnedFd;
use std::time::SystemTime;

use super::error::{Result, StoreError};
use super::{Record, Store, index, manifest};
use crate::fs::{Links, read_regular};
use crate::memory::Memory;

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

impl StoredRecord {
    /// The record as the read model: `position` is its place in the manifest. The
    /// description's and the body's lines are its file's, as it was read (`Record::body_line`).
    pub fn memory(&self, position: usize) -> Memory {
        let record = &self.record;
        Memory {
            name: record.name().to_owned(),
            name_from_file: false,
            kind: Some(record.kind().as_str().to_owned()),
            description: Some(record.description().to_owned()),
            body: record.body().to_owned(),
            file: self.file.clone(),
            extra: None,
            position: Some(position),
            unreadable: None,
            description_line: Some(record.description_line()),
            body_line: record.body_line(),
            frontmatter: None,
            modified: None,
            journaled: None,
        }
    }
}

impl MemorySet {
    /// Every record as the read model, in manifest order.
    pub fn memories(&self) -> Vec<Memory> {
        self.entries
            .iter()
            .enumerate()
            .map(|(position, entry)| entry.memory(position))
            .collect()
    }

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
        Ok(read_regular(
            &self.manifest_path(),
            manifest::MAX_MANIFEST_BYTES,
            Links::Refuse,
        )?)
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
        let entries = super::parallel::map_in_order(&files, |file| {
            let record = self.load_entry_strict(Some(dir), file, looked_at)?;
            Ok(StoredRecord {
                file: file.clone(),
                record,
            })
        })
        .into_iter()
        .collect::<Result<Vec<_>>>()?;
        self.cache.retain_listed(&entries);
        Ok(MemorySet { entries })
    }
}
