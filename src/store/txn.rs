//! Transactions: every read-modify-write of the set, with the reference's commit order.
//!
//! 1. write each new record file exclusively, fsync, read back;
//! 2. render the new index and check its budget (before anything is written);
//! 3. atomically replace MEMORY.md;
//! 4. atomically replace manifest.json: the commit point;
//! 5. only then delete the files of replaced records.
//!
//! A failure in 1-4 restores the previous MEMORY.md and deletes the files written in 1.

use std::collections::{BTreeSet, HashSet};
use std::fs;

use serde::Serialize;

use super::error::{Result, StoreError};
use super::fsutil::{
    atomic_replace, create_exclusive, read_optional, remove_replaced, replace_file, sync_dir,
};
use super::lock::StoreLock;
use super::{MemorySet, Record, Store, StoredRecord, index, manifest};

/// What a transaction changed, by record name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Commit {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
    /// The set after the commit, in manifest order.
    #[serde(skip)]
    pub set: MemorySet,
}

impl Commit {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }

    /// Compares two versions of the set by record name.
    pub fn between(before: &MemorySet, after: MemorySet) -> Self {
        let names = |set: &MemorySet| set.records().map(|r| r.name().to_owned()).collect::<BTreeSet<_>>();
        let (old, new) = (names(before), names(&after));
        let changed = old
            .intersection(&new)
            .filter(|name| before.get(name).map(|e| &e.file) != after.get(name).map(|e| &e.file))
            .cloned()
            .collect();
        Self {
            added: new.difference(&old).cloned().collect(),
            removed: old.difference(&new).cloned().collect(),
            changed,
            set: after,
        }
    }
}

/// One entry of the next set: an existing file kept as is, or a record to write.
enum Next {
    Keep(StoredRecord),
    Write(Record),
}

impl Store {
    /// Appends new records; a name already in the set (or twice in the batch) fails the batch.
    pub fn extend(&self, records: Vec<Record>) -> Result<Commit> {
        if records.is_empty() {
            return Ok(Commit {
                set: self.read()?,
                ..Commit::default()
            });
        }
        self.transact(|current| {
            let mut next: Vec<Next> = current.entries.iter().cloned().map(Next::Keep).collect();
            next.extend(records.into_iter().map(Next::Write));
            Ok(next)
        })
    }

    /// Replaces `source_names` (among `base` and `additions`) with `replacements`, keeping
    /// every other current record, including those other writers added since `base` was read.
    pub fn apply_consolidation(
        &self,
        base: &[Record],
        additions: Vec<Record>,
        source_names: &[String],
        replacements: Vec<Record>,
    ) -> Result<Commit> {
        validate_plan(base, &additions, source_names, &replacements)?;
        self.transact(|current| {
            check_base(current, base)?;
            let sources: HashSet<&str> = source_names.iter().map(String::as_str).collect();
            let mut next: Vec<Next> = current
                .entries
                .iter()
                .filter(|e| !sources.contains(e.record.name()))
                .cloned()
                .map(Next::Keep)
                .collect();
            next.extend(
                additions
                    .into_iter()
                    .filter(|r| !sources.contains(r.name()))
                    .map(Next::Write),
            );
            next.extend(replacements.into_iter().map(Next::Write));
            Ok(next)
        })
    }

    /// A hand edit of one record (a rename is a different name), based on the version the
    /// editor read: if it changed or vanished since, nothing is written.
    pub fn replace(&self, base: &Record, edited: Record) -> Result<Commit> {
        self.apply_consolidation(
            std::slice::from_ref(base),
            Vec::new(),
            &[base.name().to_owned()],
            vec![edited],
        )
    }

    /// Removes records, each of which must still be exactly as the caller read it.
    pub fn remove(&self, base: &[Record]) -> Result<Commit> {
        if base.is_empty() {
            return Err(StoreError::InvalidPlan {
                rule: "nothing to remove".into(),
            });
        }
        self.transact(|current| {
            check_base(current, base)?;
            let names: HashSet<&str> = base.iter().map(Record::name).collect();
            Ok(current
                .entries
                .iter()
                .filter(|e| !names.contains(e.record.name()))
                .cloned()
                .map(Next::Keep)
                .collect())
        })
    }

    /// Rewrites MEMORY.md from the manifest, under the lock. The manifest is left as it is.
    pub fn rebuild_index(&self) -> Result<Commit> {
        let _lock = self.lock_for_write()?;
        let current = self.read()?;
        let text = current.index_text();
        self.check_index_budget(&text)?;
        replace_file(&self.index_path(), text.as_bytes(), &self.options.hooks)?;
        if let Err(e) = sync_dir(&self.root, &self.options.hooks) {
            tracing::error!(error = %e, "MEMORY.md was rebuilt, but the directory sync after it failed");
        }
        Ok(Commit {
            set: current,
            ..Commit::default()
        })
    }

    fn lock_for_write(&self) -> Result<StoreLock> {
        if !self.check_root()? {
            match fs::create_dir(&self.root) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                    return Err(StoreError::io("create", &self.root, e));
                }
                _ => {}
            }
            self.check_root()?;
        }
        StoreLock::acquire(&self.root, self.options.lock)
    }

    fn check_index_budget(&self, text: &str) -> Result<()> {
        let (lines, bytes) = index::measure(text);
        let (max_lines, max_bytes) = (self.options.max_index_lines, self.options.max_index_bytes);
        if lines > max_lines || bytes > max_bytes {
            return Err(StoreError::IndexBudget {
                lines,
                bytes,
                max_lines,
                max_bytes,
            });
        }
        Ok(())
    }

    /// Runs `plan` on the set as read inside the lock, then commits what it returns.
    fn transact(&self, plan: impl FnOnce(&MemorySet) -> Result<Vec<Next>>) -> Result<Commit> {
        let lock = self.lock_for_write()?;
        let current = self.read()?;
        let next = plan(&current)?;
        self.commit(&lock, &current, next)
    }

    fn commit(&self, lock: &StoreLock, current: &MemorySet, next: Vec<Next>) -> Result<Commit> {
        let hooks = &self.options.hooks;
        let mut seen = HashSet::new();
        for entry in &next {
            let name = match entry {
                Next::Keep(e) => e.record.name(),
                Next::Write(r) => r.name(),
            };
            if !seen.insert(name.to_owned()) {
                return Err(StoreError::DuplicateName { name: name.to_owned() });
            }
        }
        if next.len() > self.options.max_index_lines {
            return Err(StoreError::TooManyRecords {
                count: next.len(),
                max: self.options.max_index_lines,
            });
        }
        let entries: Vec<StoredRecord> = next
            .into_iter()
            .map(|entry| match entry {
                Next::Keep(e) => e,
                Next::Write(record) => StoredRecord {
                    file: self.new_file_name(record.name()),
                    record,
                },
            })
            .collect();
        let written: Vec<&StoredRecord> = {
            let kept: HashSet<&str> = current.entries.iter().map(|e| e.file.as_str()).collect();
            entries.iter().filter(|e| !kept.contains(e.file.as_str())).collect()
        };
        let after = MemorySet {
            entries: entries.clone(),
        };
        let index_text = after.index_text();
        self.check_index_budget(&index_text)?;

        let mut created = Vec::with_capacity(written.len());
        let undo = |created: &[std::path::PathBuf], old_index: Option<&Option<Vec<u8>>>| {
            if let Some(old) = old_index {
                let restored = match old {
                    Some(bytes) => atomic_replace(&self.index_path(), bytes, hooks),
                    None => fs::remove_file(self.index_path())
                        .map_err(|e| StoreError::io("remove", self.index_path(), e)),
                };
                if let Err(e) = restored {
                    tracing::error!(error = %e, "could not restore MEMORY.md after a failed commit");
                }
            }
            for path in created {
                if let Err(e) = fs::remove_file(path) {
                    tracing::error!(path = %path.display(), error = %e, "could not remove an uncommitted record file");
                }
            }
            let _ = sync_dir(&self.root, &Default::default());
        };

        for entry in &written {
            let path = self.root.join(&entry.file);
            if let Err(e) = create_exclusive(&path, entry.record.to_file_text().as_bytes(), hooks) {
                undo(&created, None);
                return Err(e);
            }
            created.push(path);
        }
        if let Err(e) = sync_dir(&self.root, hooks) {
            undo(&created, None);
            return Err(e);
        }

        let old_index = match read_optional(&self.index_path()) {
            Ok(old) => old,
            Err(e) => {
                undo(&created, None);
                return Err(e);
            }
        };
        if let Err(e) = atomic_replace(&self.index_path(), index_text.as_bytes(), hooks) {
            undo(&created, Some(&old_index));
            return Err(e);
        }

        let manifest_text = manifest::render(&after.files());
        let committed = lock
            .verify()
            .and_then(|()| replace_file(&self.manifest_path(), manifest_text.as_bytes(), hooks));
        if let Err(e) = committed {
            undo(&created, Some(&old_index));
            return Err(e);
        }
        // Committed: readers already see the new set, so a failure from here on must not undo
        // it (deleting the new files would leave a manifest naming missing files).
        if let Err(e) = sync_dir(&self.root, hooks) {
            tracing::error!(error = %e, "committed, but the directory sync after the manifest replace failed");
        }

        let live: HashSet<&str> = after.entries.iter().map(|e| e.file.as_str()).collect();
        for old in current.entries.iter().filter(|e| !live.contains(e.file.as_str())) {
            if let Err(e) = remove_replaced(&self.root.join(&old.file), hooks) {
                tracing::warn!(error = %e, "committed, but a replaced record file was left behind");
            }
        }
        let _ = sync_dir(&self.root, hooks);
        Ok(Commit::between(current, after))
    }
}

fn validate_plan(
    base: &[Record],
    additions: &[Record],
    source_names: &[String],
    replacements: &[Record],
) -> Result<()> {
    let invalid = |rule: String| Err(StoreError::InvalidPlan { rule });
    if source_names.is_empty() {
        return invalid("source_names must not be empty".into());
    }
    if replacements.is_empty() {
        return invalid("records (the replacements) must not be empty".into());
    }
    let candidates: HashSet<&str> = base.iter().chain(additions).map(Record::name).collect();
    let mut seen = HashSet::new();
    for name in source_names {
        if !seen.insert(name) {
            return invalid(format!("source name {name:?} is listed twice"));
        }
        if !candidates.contains(name.as_str()) {
            return invalid(format!("source name {name:?} is not among the candidates"));
        }
    }
    Ok(())
}

/// Every base record must still be in the set, unchanged.
fn check_base(current: &MemorySet, base: &[Record]) -> Result<()> {
    for record in base {
        match current.get(record.name()) {
            None => {
                return Err(StoreError::Conflict {
                    detail: format!("{:?} was removed since it was read", record.name()),
                });
            }
            Some(entry) if entry.record != *record => {
                return Err(StoreError::Conflict {
                    detail: format!("{:?} was changed since it was read", record.name()),
                });
            }
            Some(_) => {}
        }
    }
    Ok(())
}
