//! Repairing one listed entry that does not read, which blocks every other transaction.

use std::fs;

use super::error::{Result, StoreError};
use super::txn::Next;
use super::{Commit, MemorySet, Record, Store, StoredRecord, manifest};
use crate::fs::{create_exclusive, remove_replaced, replace_file_checked};

impl Store {
    /// Fixes one listed entry that cannot be read (invalid, missing or escaping), or one of two
    /// files holding the same name, while every other entry is valid: replaces it in place with
    /// `replacement`, or drops it from the manifest. `seen` is the entry's bytes as the caller
    /// read them (`None`: it was missing or unreadable); if they changed since, nothing is
    /// written. After the commit the bad file is deleted if the observer kept its bytes
    /// ([`CommitObserver::keep_dropped`](super::CommitObserver::keep_dropped)), else left in
    /// `.memory` unlisted. A valid entry is refused: edit it with [`Store::replace`].
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
        // The bad file's bytes are deleted only once someone keeps them (the journal does).
        let kept = match (&self.options.observer, seen) {
            (Some(observer), Some(bytes)) => observer.keep_dropped(self, file, position, bytes)?,
            _ => false,
        };
        let commit = self.commit_next(&lock, &current, next)?;
        if kept
            && fs::symlink_metadata(&path).is_ok_and(|m| m.is_file())
            && let Err(e) = remove_replaced(&path, &self.options.hooks)
        {
            tracing::warn!(error = %e, "repaired, but the bad file was left behind");
        }
        Ok(commit)
    }

    /// Puts back a listed entry a repair dropped, as it was: `bytes` become `file` again (which
    /// must not exist, or hold exactly these bytes) at `position` in the manifest, and the
    /// records the repair wrote in its place (`written`, each still exactly as written) leave
    /// the set. The entry may not read (that is why it was dropped): the manifest alone is
    /// committed, and MEMORY.md is left as it is.
    pub(crate) fn restore_entry(
        &self,
        file: &str,
        bytes: &[u8],
        position: usize,
        written: &[StoredRecord],
    ) -> Result<Commit> {
        let lock = self.lock_for_write()?;
        self.recover_observer()?;
        if !manifest::is_safe_file_name(file) {
            return Err(StoreError::InvalidPlan {
                rule: format!("{file:?} is not a safe record file name"),
            });
        }
        let current = self.read()?;
        if current.entries.iter().any(|e| e.file == file) {
            return Err(StoreError::Conflict {
                detail: format!("{file} is listed again"),
            });
        }
        for entry in written {
            if current.entries.iter().all(|e| e != entry) {
                return Err(StoreError::Conflict {
                    detail: format!(
                        "{:?} was changed or removed since the repair",
                        entry.record.name()
                    ),
                });
            }
        }
        let path = self.root.join(file);
        match self.entry_bytes(file) {
            Some(there) if there == bytes => {}
            Some(_) => {
                return Err(StoreError::Conflict {
                    detail: format!("{file} exists with other content"),
                });
            }
            None => create_exclusive(&path, bytes, &self.options.hooks)?,
        }
        let mut files: Vec<String> = current
            .entries
            .iter()
            .filter(|e| !written.contains(e))
            .map(|e| e.file.clone())
            .collect();
        files.insert(position.min(files.len()), file.to_owned());
        let after = MemorySet {
            entries: current
                .entries
                .iter()
                .filter(|e| !written.contains(e))
                .cloned()
                .collect(),
        };
        let mut lock_lost = None;
        let mut not_durable = None;
        self.observed(&current, &after, || {
            replace_file_checked(
                &self.manifest_path(),
                manifest::render(&files).as_bytes(),
                &self.options.hooks,
                || lock.verify(),
            )?;
            lock_lost = lock.verify().err().map(|e| e.to_string());
            not_durable = super::txn::synced_after_commit(self);
            Ok(())
        })
        .inspect_err(|_| {
            let _ = fs::remove_file(&path);
        })?;
        for entry in written {
            if let Err(e) = remove_replaced(&self.root.join(&entry.file), &self.options.hooks) {
                tracing::warn!(error = %e, "restored, but a replaced record file was left behind");
            }
        }
        let mut commit = Commit::between(&current, after);
        commit.lock_lost = lock_lost;
        commit.not_durable = not_durable;
        self.tell_committed(&commit);
        Ok(commit)
    }
}
