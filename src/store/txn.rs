//! Transactions: every read-modify-write of the set, with the reference's commit order.
//!
//! 1. write each new record file exclusively, fsync, read back;
//! 2. render the new index and check its budget (before anything is written);
//! 3. atomically replace MEMORY.md;
//! 4. atomically replace manifest.json: the commit point;
//! 5. only then delete the files of replaced records.
//!
//! A failure in 1-4 restores the previous MEMORY.md and deletes the files written in 1.

use std::fs;
use std::path::PathBuf;

use serde::Serialize;

/// Sets of names and files, hashed with foldhash: several are built per transaction, over every
/// record of the set.
type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;

use super::error::{Result, StoreError};
use super::fsutil::{
    IoHooks, Links, atomic_replace, create_dir_if_missing, create_exclusive, read_regular,
    remove_replaced, replace_file, sync_dir,
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
        // Both sides sorted by name (names are unique in a set), then merged: no map, no
        // allocation per entry but the names reported.
        fn by_name(set: &MemorySet) -> Vec<(&str, &str)> {
            let mut pairs: Vec<(&str, &str)> = set
                .entries
                .iter()
                .map(|e| (e.record.name(), e.file.as_str()))
                .collect();
            pairs.sort_unstable();
            pairs
        }
        let (mut added, mut removed, mut changed) = (Vec::new(), Vec::new(), Vec::new());
        {
            let (old, new) = (by_name(before), by_name(&after));
            let (mut o, mut n) = (old.iter().peekable(), new.iter().peekable());
            loop {
                match (o.peek(), n.peek()) {
                    (None, None) => break,
                    (Some((name, _)), None) => {
                        removed.push(name.to_string());
                        o.next();
                    }
                    (None, Some((name, _))) => {
                        added.push(name.to_string());
                        n.next();
                    }
                    (Some((old_name, old_file)), Some((new_name, new_file))) => {
                        match old_name.cmp(new_name) {
                            std::cmp::Ordering::Less => {
                                removed.push(old_name.to_string());
                                o.next();
                            }
                            std::cmp::Ordering::Greater => {
                                added.push(new_name.to_string());
                                n.next();
                            }
                            std::cmp::Ordering::Equal => {
                                if old_file != new_file {
                                    changed.push(old_name.to_string());
                                }
                                o.next();
                                n.next();
                            }
                        }
                    }
                }
            }
        }
        Self {
            added,
            removed,
            changed,
            set: after,
        }
    }
}

/// Sees every transaction of a handle from inside its lock. memwb's journal uses it to write
/// an intent before the commit point and its entry after, so that no crash loses or invents one.
pub trait CommitObserver: Send + Sync {
    /// Under the lock, before the set is read: finish what an earlier crash left behind.
    fn recover(&self, _store: &Store) -> Result<()> {
        Ok(())
    }
    /// Under the lock, once the next set is known, before anything is written. An error aborts
    /// the transaction with nothing changed.
    fn prepare(&self, store: &Store, before: &MemorySet, after: &MemorySet) -> Result<()>;
    /// After the commit point. The commit stands whatever happens here.
    fn committed(&self, store: &Store, commit: &Commit);
    /// The transaction failed before its commit point: nothing changed.
    fn aborted(&self, store: &Store);
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
            let mut next = kept_except(current, &sources);
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
            return Err(StoreError::NothingToRemove);
        }
        self.exchange(base, Vec::new())
    }

    /// Removes `base` (each still exactly as the caller read it) and appends `additions`:
    /// the general base-checked edit, used to undo a change.
    pub fn exchange(&self, base: &[Record], additions: Vec<Record>) -> Result<Commit> {
        self.transact(|current| {
            check_base(current, base)?;
            let names: HashSet<&str> = base.iter().map(Record::name).collect();
            let mut next = kept_except(current, &names);
            next.extend(additions.into_iter().map(Next::Write));
            Ok(next)
        })
    }

    /// Rewrites MEMORY.md from the manifest, under the lock. The manifest is left as it is.
    pub fn rebuild_index(&self) -> Result<Commit> {
        let _lock = self.lock_for_write()?;
        self.recover_observer()?;
        let current = self.read()?;
        let text = current.index_text();
        self.check_index_budget(&text)?;
        self.observed(&current, &current, || {
            replace_file(&self.index_path(), text.as_bytes(), &self.options.hooks)?;
            // MEMORY.md is replaced; a failing directory sync must not report otherwise.
            if let Err(e) = sync_dir(&self.root, &self.options.hooks) {
                tracing::error!(error = %e, "MEMORY.md was rebuilt, but the directory sync after it failed");
            }
            Ok(())
        })?;
        let commit = Commit {
            set: current,
            ..Commit::default()
        };
        self.tell_committed(&commit);
        Ok(commit)
    }

    /// Creates `.memory` if needed and takes the lock (for work outside a transaction that must
    /// still exclude every writer, such as deciding a proposal).
    pub fn lock_for_write(&self) -> Result<StoreLock> {
        self.ensure_root()?;
        StoreLock::acquire(&self.root, self.options.lock)
    }

    /// Creates `.memory` if it does not exist, and checks it like [`Store::check_root`].
    pub fn ensure_root(&self) -> Result<()> {
        if !self.check_root()? {
            create_dir_if_missing(&self.root)?;
            self.check_root()?;
        }
        Ok(())
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
        self.recover_observer()?;
        let current = self.read()?;
        let next = plan(&current)?;
        self.commit_next(&lock, &current, next)
    }

    fn recover_observer(&self) -> Result<()> {
        match &self.options.observer {
            Some(observer) => observer.recover(self),
            None => Ok(()),
        }
    }

    /// Commits `next` over `current` (both read under `lock`), telling the observer.
    fn commit_next(
        &self,
        lock: &StoreLock,
        current: &MemorySet,
        next: Vec<Next>,
    ) -> Result<Commit> {
        let after = self.next_set(current, next)?;
        let index_text = after.index_text();
        self.check_index_budget(&index_text)?;
        self.observed(current, &after, || {
            self.publish(lock, current, &after, &index_text)
        })?;
        let commit = Commit::between(current, after);
        self.tell_committed(&commit);
        Ok(commit)
    }

    /// Runs `publish` after the observer's `prepare`, telling it `aborted` if publishing fails.
    fn observed(
        &self,
        before: &MemorySet,
        after: &MemorySet,
        publish: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        if let Some(observer) = &self.options.observer {
            observer.prepare(self, before, after)?;
        }
        publish().inspect_err(|_| {
            if let Some(observer) = &self.options.observer {
                observer.aborted(self);
            }
        })
    }

    fn tell_committed(&self, commit: &Commit) {
        if let Some(observer) = &self.options.observer {
            observer.committed(self, commit);
        }
    }

    /// Fixes one listed entry that cannot be read (invalid, missing or escaping) while every
    /// other entry is valid: replaces it in place with `replacement`, or drops it from the
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
        if self.load_record(file).is_ok() {
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

    /// Names the new files and checks the set-wide rules, before anything is written.
    fn next_set(&self, current: &MemorySet, next: Vec<Next>) -> Result<MemorySet> {
        let kept: HashSet<&str> = next
            .iter()
            .filter_map(|entry| match entry {
                Next::Keep(e) => Some(e.record.name()),
                Next::Write(_) => None,
            })
            .collect();
        let mut written = HashSet::default();
        for entry in &next {
            let Next::Write(record) = entry else {
                continue;
            };
            let name = record.name();
            if kept.contains(name) {
                return Err(StoreError::DuplicateName {
                    name: name.to_owned(),
                });
            }
            if !written.insert(name) {
                return Err(StoreError::DuplicateInBatch {
                    name: name.to_owned(),
                });
            }
        }
        if next.len() > self.options.max_index_lines {
            return Err(StoreError::TooManyRecords {
                count: next.len(),
                max: self.options.max_index_lines,
            });
        }
        let current_files: HashSet<&str> =
            current.entries.iter().map(|e| e.file.as_str()).collect();
        let entries = next
            .into_iter()
            .map(|entry| match entry {
                Next::Keep(e) if current_files.contains(e.file.as_str()) => Ok(e),
                Next::Keep(e) => Err(StoreError::InvalidPlan {
                    rule: format!("{} is not in the current set", e.file),
                }),
                Next::Write(record) => Ok(StoredRecord {
                    file: self.new_file_name(record.name()),
                    record,
                }),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(MemorySet { entries })
    }

    /// Steps 1 and 3-5 of the commit order; on failure before the commit point, undoes 1 and 3.
    fn publish(
        &self,
        lock: &StoreLock,
        current: &MemorySet,
        after: &MemorySet,
        index_text: &str,
    ) -> Result<()> {
        let hooks = &self.options.hooks;
        let current_files: HashSet<&str> =
            current.entries.iter().map(|e| e.file.as_str()).collect();
        let mut rollback = Rollback {
            store: self,
            created: Vec::new(),
            old_index: None,
        };
        for entry in after
            .entries
            .iter()
            .filter(|e| !current_files.contains(e.file.as_str()))
        {
            let path = self.root.join(&entry.file);
            create_exclusive(&path, entry.record.to_file_text().as_bytes(), hooks)?;
            rollback.created.push(path);
        }
        sync_dir(&self.root, hooks)?;

        rollback.old_index = Some(read_regular(
            &self.index_path(),
            index::MAX_INDEX_FILE_BYTES,
            Links::Refuse,
        )?);
        // No directory sync of its own: the one after the manifest replace covers both renames.
        replace_file(&self.index_path(), index_text.as_bytes(), hooks)?;

        lock.verify()?;
        replace_file(
            &self.manifest_path(),
            manifest::render(&after.files()).as_bytes(),
            hooks,
        )?;
        rollback.disarm();
        // Committed: readers already see the new set, so nothing from here on may undo it
        // (deleting the new files would leave a manifest naming missing files).
        if let Err(e) = sync_dir(&self.root, hooks) {
            tracing::error!(error = %e, "committed, but the directory sync after the manifest replace failed");
        }

        let live: HashSet<&str> = after.entries.iter().map(|e| e.file.as_str()).collect();
        let mut removed_any = false;
        for old in current
            .entries
            .iter()
            .filter(|e| !live.contains(e.file.as_str()))
        {
            removed_any = true;
            if let Err(e) = remove_replaced(&self.root.join(&old.file), hooks) {
                tracing::warn!(error = %e, "committed, but a replaced record file was left behind");
            }
        }
        if removed_any && let Err(e) = sync_dir(&self.root, hooks) {
            tracing::warn!(error = %e, "committed, but the directory could not be synced after cleanup");
        }
        Ok(())
    }
}

/// Undoes the steps before the commit point when dropped armed: restores the previous
/// MEMORY.md (if it was replaced) and deletes the new record files.
struct Rollback<'a> {
    store: &'a Store,
    created: Vec<PathBuf>,
    /// `Some` once MEMORY.md may have been replaced: its previous content, if it existed.
    old_index: Option<Option<Vec<u8>>>,
}

impl Rollback<'_> {
    fn disarm(mut self) {
        self.created.clear();
        self.old_index = None;
    }
}

impl Drop for Rollback<'_> {
    fn drop(&mut self) {
        if self.created.is_empty() && self.old_index.is_none() {
            return;
        }
        let index_path = self.store.index_path();
        // Restoring must not trip the fault hooks that caused the failure.
        let no_faults = IoHooks::default();
        let restored = match self.old_index.take() {
            None => Ok(()),
            Some(Some(bytes)) => atomic_replace(&index_path, &bytes, &no_faults),
            Some(None) => match fs::remove_file(&index_path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(StoreError::io("remove", &index_path, e))
                }
                _ => Ok(()),
            },
        };
        if let Err(e) = restored {
            tracing::error!(error = %e, "could not restore MEMORY.md after a failed commit");
        }
        for path in self.created.drain(..) {
            if let Err(e) = fs::remove_file(&path) {
                tracing::error!(path = %path.display(), error = %e, "could not remove an uncommitted record file");
            }
        }
        let _ = sync_dir(&self.store.root, &no_faults);
    }
}

/// Every current record not named in `names`, kept as it is.
fn kept_except(current: &MemorySet, names: &HashSet<&str>) -> Vec<Next> {
    current
        .entries
        .iter()
        .filter(|e| !names.contains(e.record.name()))
        .cloned()
        .map(Next::Keep)
        .collect()
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
    let mut seen = HashSet::default();
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
