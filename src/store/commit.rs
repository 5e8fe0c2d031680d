//! What a transaction changed, and the seam through which the journal sees every commit.

use serde::Serialize;

use super::error::Result;
use super::{MemorySet, Store};

/// What a transaction changed, by record name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Commit {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
    /// The set after the commit, in manifest order.
    #[serde(skip)]
    pub set: MemorySet,
    /// Committed, but the lock was no longer ours right after the commit rename (the writer
    /// stalled past the stale time, and another may have broken the lock and committed at the
    /// same time): why. The commit is in place; what it may have overwritten is not known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock_lost: Option<String>,
    /// Committed, but the directory sync after the commit rename failed: why. Every reader
    /// sees the new set, and the commit stands (taking it back would be a second change
    /// that could fail the same way), but a power loss before the file system writes the
    /// directory out may still lose it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_durable: Option<String>,
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
            lock_lost: None,
            not_durable: None,
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
    /// Under the lock, before `prepare`, in a repair: the listed entry `file` (at `position`
    /// in the manifest), whose exact bytes are `bytes`, is about to leave the set. Return
    /// `Ok(true)` once the bytes are kept elsewhere (memwb's journal keeps them, so that undo
    /// can restore them); otherwise the engine leaves the file in `.memory`, unlisted, rather
    /// than delete what nobody kept. An error aborts the repair with nothing changed.
    fn keep_dropped(
        &self,
        _store: &Store,
        _file: &str,
        _position: usize,
        _bytes: &[u8],
    ) -> Result<bool> {
        Ok(false)
    }
    /// After the commit point. The commit stands whatever happens here.
    fn committed(&self, store: &Store, commit: &Commit);
    /// The transaction failed before its commit point: nothing changed.
    fn aborted(&self, store: &Store);
}
