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

use std::collections::HashSet;

use super::error::{Result, StoreError};
use super::lock::StoreLock;
use super::{Commit, MemorySet, Record, Store, StoredRecord, index, manifest};
use crate::fs::{
    IoHooks, Links, atomic_replace, create_dir_if_missing, create_exclusive, read_regular,
    remove_replaced, replace_file, replace_file_checked, sync_dir,
};

/// One entry of the next set: an existing file kept as is, or a record to write.
pub(crate) enum Next {
    Keep(StoredRecord),
    Write(Record),
    /// A record file already in `.memory` but not in the set, listed as it is (never
    /// rewritten, and never deleted by a rollback).
    Adopt(StoredRecord),
}

impl Store {
    /// Rewrites MEMORY.md from the manifest, under the lock. The manifest is left as it is.
    pub fn rebuild_index(&self) -> Result<Commit> {
        let _lock = self.lock_for_write()?;
        self.recover_observer()?;
        let current = self.read()?;
        let text = current.index_text();
        self.check_index_budget(&text)?;
        let mut not_durable = None;
        self.observed(&current, &current, || {
            replace_file(&self.index_path(), text.as_bytes(), &self.options.hooks)?;
            // MEMORY.md is replaced: a failing directory sync cannot take that back, so it
            // is reported with the change instead of failing it.
            not_durable = synced_after_commit(self);
            Ok(())
        })?;
        let commit = Commit {
            set: current,
            not_durable,
            ..Commit::default()
        };
        self.tell_committed(&commit);
        Ok(commit)
    }

    /// Creates `.memory` if needed and takes the lock (for work outside a transaction that must
    /// still exclude every writer, such as deciding a proposal).
    pub fn lock_for_write(&self) -> Result<StoreLock> {
        self.ensure_root()?;
        StoreLock::acquire_noting(
            &self.root,
            self.options.lock,
            self.options.on_lock_wait.as_ref(),
        )
    }

    /// Creates `.memory` if it does not exist, and checks it like `Store::check_root`.
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
    pub(crate) fn transact(
        &self,
        plan: impl FnOnce(&MemorySet) -> Result<Vec<Next>>,
    ) -> Result<Commit> {
        let lock = self.lock_for_write()?;
        self.recover_observer()?;
        let current = self.read()?;
        let next = plan(&current)?;
        self.commit_next(&lock, &current, next)
    }

    pub(crate) fn recover_observer(&self) -> Result<()> {
        match &self.options.observer {
            Some(observer) => observer.recover(self),
            None => Ok(()),
        }
    }

    /// Commits `next` over `current` (both read under `lock`), telling the observer.
    pub(crate) fn commit_next(
        &self,
        lock: &StoreLock,
        current: &MemorySet,
        next: Vec<Next>,
    ) -> Result<Commit> {
        self.commit_next_keeping(lock, current, next, &HashSet::new())
    }

    /// [`Store::commit_next`], leaving the files in `unlisted` in `.memory` when they leave the
    /// set (they become unlisted files instead of being deleted).
    pub(crate) fn commit_next_keeping(
        &self,
        lock: &StoreLock,
        current: &MemorySet,
        next: Vec<Next>,
        unlisted: &HashSet<String>,
    ) -> Result<Commit> {
        let adopted: HashSet<String> = next
            .iter()
            .filter_map(|entry| match entry {
                Next::Adopt(e) => Some(e.file.clone()),
                _ => None,
            })
            .collect();
        let after = self.next_set(current, next)?;
        let index_text = after.index_text();
        self.check_index_budget(&index_text)?;
        let mut published = Published::default();
        self.observed(current, &after, || {
            published = self.publish(lock, current, &after, &index_text, &adopted, unlisted)?;
            Ok(())
        })?;
        let mut commit = Commit::between(current, after);
        if let Some(reason) = &published.lock_lost {
            tracing::error!(%reason, "committed, but the store lock was lost during the commit");
        }
        commit.lock_lost = published.lock_lost;
        commit.not_durable = published.not_durable;
        self.tell_committed(&commit);
        Ok(commit)
    }

    /// Runs `publish` after the observer's `prepare`, telling it `aborted` if publishing fails.
    pub(crate) fn observed(
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

    pub(crate) fn tell_committed(&self, commit: &Commit) {
        if let Some(observer) = &self.options.observer {
            observer.committed(self, commit);
        }
    }

    /// Names the new files and checks the set-wide rules, before anything is written.
    fn next_set(&self, current: &MemorySet, next: Vec<Next>) -> Result<MemorySet> {
        // A name held twice by kept files was so before (a hand edit) and stays readable; a
        // written record must not make a name ambiguous.
        let kept: HashSet<&str> = next
            .iter()
            .filter_map(|entry| match entry {
                Next::Keep(e) => Some(e.record.name()),
                Next::Write(_) | Next::Adopt(_) => None,
            })
            .collect();
        let mut written = HashSet::new();
        for entry in &next {
            let name = match entry {
                Next::Write(record) => record.name(),
                Next::Adopt(e) => e.record.name(),
                Next::Keep(_) => continue,
            };
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
                Next::Adopt(e) => Ok(e),
                Next::Write(record) => Ok(StoredRecord {
                    file: self.new_file_name(record.name()),
                    // Written as the codec writes it, whatever file it was read from.
                    record: record.into_written(),
                }),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(MemorySet { entries })
    }

    /// Steps 1 and 3-5 of the commit order; on failure before the commit point, undoes 1 and 3.
    /// Once past the commit point it answers `Ok`, with what about the commit needs a look
    /// ([`Published`]).
    fn publish(
        &self,
        lock: &StoreLock,
        current: &MemorySet,
        after: &MemorySet,
        index_text: &str,
        adopted: &HashSet<String>,
        unlisted: &HashSet<String>,
    ) -> Result<Published> {
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
            .filter(|e| !current_files.contains(e.file.as_str()) && !adopted.contains(&e.file))
        {
            let path = self.root.join(&entry.file);
            create_exclusive(&path, entry.record.to_file_text().as_bytes(), hooks)?;
            rollback.created.push(path);
        }
        // No directory sync here: the one after the manifest's rename makes the new names
        // durable together with both renames. A crash before it may lose the rename and keep
        // the new files (unlisted files, the old set) or lose both; keeping the rename while
        // losing a file it names would take a file system that persists one entry of a
        // directory before an earlier one of the same directory, which ext4, XFS and btrfs do
        // not (their journals commit in order, and the temp files' fsyncs in between commit
        // it). docs/performance.md ("Five syncs") says more.

        rollback.old_index = Some(read_regular(
            &self.index_path(),
            index::MAX_INDEX_FILE_BYTES,
            Links::Refuse,
        )?);
        // No directory sync of its own: the one after the manifest replace covers both renames.
        replace_file(&self.index_path(), index_text.as_bytes(), hooks)?;

        // The lock is checked as the very last step before the commit rename (after every
        // fsync), and once more after it: a writer stalled past the stale time in between
        // cannot know whether another writer broke its lock and committed meanwhile.
        replace_file_checked(
            &self.manifest_path(),
            manifest::render(&after.files()).as_bytes(),
            hooks,
            || {
                lock.verify()?;
                #[cfg(feature = "fault-injection")]
                crate::fs::crash_point::after_lock_check();
                Ok::<_, StoreError>(())
            },
        )?;
        rollback.disarm();
        let lock_lost = lock.verify().err().map(|e| match e {
            StoreError::LockCompromised { reason, .. } => reason,
            other => other.to_string(),
        });
        // Committed: readers already see the new set, so nothing from here on may undo it
        // (deleting the new files would leave a manifest naming missing files). A failing
        // sync is reported with the commit ([`Commit::not_durable`]).
        let not_durable = synced_after_commit(self);

        let live: HashSet<&str> = after.entries.iter().map(|e| e.file.as_str()).collect();
        let mut removed_any = false;
        for old in current
            .entries
            .iter()
            .filter(|e| !live.contains(e.file.as_str()) && !unlisted.contains(&e.file))
        {
            removed_any = true;
            if let Err(e) = remove_replaced(&self.root.join(&old.file), hooks) {
                tracing::warn!(error = %e, "committed, but a replaced record file was left behind");
            }
        }
        if removed_any && let Err(e) = sync_dir(&self.root, hooks) {
            tracing::warn!(error = %e, "committed, but the directory could not be synced after cleanup");
        }
        Ok(Published {
            lock_lost,
            not_durable,
        })
    }
}

/// What about a commit that is in place needs a look.
#[derive(Default)]
struct Published {
    /// The lock was found lost right after the commit rename, so another writer may have
    /// committed at the same time: why.
    lock_lost: Option<String>,
    /// The directory sync after the commit rename failed: why ([`Commit::not_durable`]).
    not_durable: Option<String>,
}

/// Syncs `.memory` once a change is in place (every reader sees it): `Some(why)` when the
/// sync failed, which the commit reports rather than fails with, as it cannot be taken back.
pub(super) fn synced_after_commit(store: &Store) -> Option<String> {
    let error = sync_dir(&store.root, &store.options.hooks).err()?;
    tracing::error!(%error, "committed, but the directory sync after it failed");
    Some(error.to_string())
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
                    Err(crate::fs::FsError::io("remove", &index_path, e))
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
