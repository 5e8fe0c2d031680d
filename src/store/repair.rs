//! Repairing one listed entry that does not read, which blocks every other transaction.

use std::fs;

use super::error::{Result, StoreError};
use super::fsutil::remove_replaced;
use super::txn::Next;
use super::{Commit, MemorySet, Record, Store, StoredRecord, manifest};

impl Store {
    /// Fixes one listed entry that cannot be read (invalid, missing or escaping), or one of two
    /// files holding the same name, while every other entry is valid: replaces it in place with `replacement`, or drops it from the
    /// manifest. `seen` is the entry's bytes as the caller read them (`None`: it was missing or
    /// unreadable); if they changed since, nothing is written. After the commit the bad file is
    /// deleted. A valid entry is refused: edit it with [`Store::replace`].
    pub fn repair_entry(
        &self,
        file: &str,
        seen: Option<&[u8]>,
        replacement: Option<Record>,
    ) -> Result<Commit> {
        let lock = self.lock_for_write()?;
        self.recover_observer()?;
        let manifest_path = self.manifest_path();
        let bytes = self
            .read_manifest_bytes()?
            .unwrap_or_else(|| b"{\"version\":1,\"files\":[]}".to_vec());
        let files = manifest::parse(&bytes, self.options.max_index_lines).map_err(|e| {
            StoreError::ManifestInvalid {
                path: manifest_path,
                rule: e.to_string(),
            }
        })?;
        let position =
            files
                .iter()
                .position(|f| f == file)
                .ok_or_else(|| StoreError::NotListed {
                    file: file.to_owned(),
                })?;
        let path = self.root.join(file);
        if self.entry_bytes(file).as_deref() != seen {
            return Err(StoreError::Conflict {
                detail: format!("{file} changed since it was read"),
            });
        }
        // A valid record is repaired only when another listed file holds its name: the way
        // out of an ambiguous name by file.
        if let Ok(record) = self.load_record(file)
            && !files.iter().any(|other| {
                other != file
                    && self
                        .load_record(other)
                        .is_ok_and(|r| r.name() == record.name())
            })
        {
            return Err(StoreError::NotBroken {
                file: file.to_owned(),
            });
        }
        let mut current = MemorySet::default();
        let mut next = Vec::with_capacity(files.len());
        for (i, listed) in files.iter().enumerate() {
            if i == position {
                if let Some(record) = replacement.clone() {
                    next.push(Next::Write(record));
                }
                continue;
            }
            let entry = StoredRecord {
                file: listed.clone(),
                record: self.load_record(listed)?,
            };
            current.entries.push(entry.clone());
            next.push(Next::Keep(entry));
        }
        let commit = self.commit_next(&lock, &current, next)?;
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_file())
            && let Err(e) = remove_replaced(&path, &self.options.hooks)
        {
            tracing::warn!(error = %e, "repaired, but the bad file was left behind");
        }
        Ok(commit)
    }
}
