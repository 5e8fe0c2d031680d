//! Parsed records shared by every handle on one `.memory` in this process.
//!
//! Record files are immutable by contract (a new version is a new file name), so a record parsed
//! once can be reused for as long as its file is provably the same file, unchanged. Each entry
//! is keyed by file name and validated by one `lstat` of that name: device, inode, type and
//! permission bits, size, mtime and ctime to the nanosecond must all match what was seen when it
//! was parsed. A hand edit in place (new mtime and ctime), a file replaced by another (new inode)
//! or by a link (new type) changes the key, and the read takes the full path again — open with
//! `O_NOFOLLOW`, read, parse, validate — with exactly the errors it has without the cache.
//! Errors are never cached, so an invalid file fails on every read.
//!
//! Timestamps are coarse: a kernel tick on most Linux file systems, up to two seconds on FAT.
//! A change within the same tick as the version we parsed could leave the key as it was. As git
//! does for "racily clean" files, an entry is stored only if the file's mtime and ctime were
//! already [`SETTLE`] older than the moment we looked at it; every later change then gets a
//! later ctime, which no user can set back. Newer files are simply parsed again on each read
//! until they are old enough.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rustix::fs::{FileType, Stat};

use super::{Record, StoredRecord};

/// How old a record file's last change must be before its parsed record is reused on the
/// strength of its metadata alone, by default (public as `store::RECORD_CACHE_SETTLE`;
/// `StoreOptions::record_cache_settle` sets it per store).
pub const SETTLE: Duration = Duration::from_secs(3);

/// What one `lstat`/`fstat` says about a file, compared as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileKey {
    dev: u64,
    ino: u64,
    mode: u32,
    size: i64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl FileKey {
    // The field types of `struct stat` differ between targets; these casts are lossless on all
    // of them, and are no-ops on some.
    #[allow(clippy::unnecessary_cast)]
    pub(crate) fn of(stat: &Stat) -> Self {
        Self {
            dev: stat.st_dev as u64,
            ino: stat.st_ino as u64,
            mode: stat.st_mode as u32,
            size: stat.st_size as i64,
            mtime: (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
            ctime: (stat.st_ctime as i64, stat.st_ctime_nsec as i64),
        }
    }

    pub(crate) fn is_regular_file(&self) -> bool {
        FileType::from_raw_mode(self.mode) == FileType::RegularFile
    }

    /// Both timestamps strictly before `limit`.
    fn changed_before(&self, limit: SystemTime) -> bool {
        let Ok(limit) = limit.duration_since(UNIX_EPOCH) else {
            return false;
        };
        let Ok(secs) = i64::try_from(limit.as_secs()) else {
            return false;
        };
        let limit = (secs, i64::from(limit.subsec_nanos()));
        self.mtime < limit && self.ctime < limit
    }
}

struct Cached {
    key: FileKey,
    record: Record,
}

/// The parsed records of one `.memory`, shared by every [`super::Store`] on it in this process.
pub(crate) struct RecordCache {
    entries: Mutex<HashMap<String, Cached>>,
    settle: Duration,
    hits: AtomicU64,
}

impl fmt::Debug for RecordCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let len = self.lock().len();
        f.debug_struct("RecordCache")
            .field("entries", &len)
            .finish_non_exhaustive()
    }
}

impl RecordCache {
    pub(crate) fn new(settle: Duration) -> Self {
        Self {
            entries: Mutex::default(),
            settle,
            hits: AtomicU64::new(0),
        }
    }

    /// The cache of `root` (a realpath) for this settle time, shared with every live handle on
    /// it; it is dropped with the last of them.
    pub(crate) fn for_root(root: &Path, settle: Duration) -> Arc<Self> {
        type Caches = HashMap<(PathBuf, Duration), Weak<RecordCache>>;
        static CACHES: OnceLock<Mutex<Caches>> = OnceLock::new();
        let mut caches = CACHES
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let key = (root.to_owned(), settle);
        if let Some(cache) = caches.get(&key).and_then(Weak::upgrade) {
            return cache;
        }
        caches.retain(|_, cache| cache.strong_count() > 0);
        let cache = Arc::new(Self::new(settle));
        caches.insert(key, Arc::downgrade(&cache));
        cache
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Cached>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The entry of `file`, if any: the record, and the key its file had when it was parsed.
    /// The caller checks the key against a fresh `lstat` (taken without holding the cache).
    pub(crate) fn entry(&self, file: &str) -> Option<(FileKey, Record)> {
        let entries = self.lock();
        let cached = entries.get(file)?;
        Some((cached.key, cached.record.clone()))
    }

    /// Counts a read answered from the cache.
    pub(crate) fn hit(&self) {
        self.hits.fetch_add(1, Ordering::Relaxed);
    }

    /// Remembers `record`, parsed from `file` whose `fstat` before the read gave `key`, if the
    /// file had last changed [`SETTLE`] before `looked_at` (taken before that `fstat`).
    /// Otherwise forgets any older entry of that name.
    pub(crate) fn insert(&self, file: &str, key: FileKey, looked_at: SystemTime, record: &Record) {
        let settled = key.is_regular_file()
            && looked_at
                .checked_sub(self.settle)
                .is_some_and(|limit| key.changed_before(limit));
        let mut entries = self.lock();
        if settled {
            entries.insert(
                file.to_owned(),
                Cached {
                    key,
                    record: record.clone(),
                },
            );
        } else {
            entries.remove(file);
        }
    }

    /// Once a whole manifest has been read: if there are more entries than listed files, keeps
    /// only the listed ones. The cache never holds more than the largest set read plus the
    /// files of one read.
    pub(crate) fn retain_listed(&self, listed: &[StoredRecord]) {
        let mut entries = self.lock();
        if entries.len() > listed.len() {
            let listed: HashSet<&str> = listed.iter().map(|e| e.file.as_str()).collect();
            entries.retain(|file, _| listed.contains(file.as_str()));
        }
    }

    /// How many reads were answered from the cache.
    #[cfg(test)]
    pub(crate) fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::sync::Arc;
    use std::time::Duration;

    use super::RecordCache;
    use crate::store::{MemoryType, Record, Store, StoreError, StoreOptions};

    fn record(name: &str, body: &str) -> Record {
        Record::new(name, MemoryType::Project, "a fact", body).expect("valid record")
    }

    /// A store whose cache trusts files at once (no settle time), for observing hits.
    fn store_without_settle(dir: &std::path::Path) -> Store {
        let mut store = Store::open(dir, StoreOptions::default()).expect("open");
        store.cache = Arc::new(RecordCache::new(Duration::ZERO));
        store
    }

    /// Longer than any timestamp tick of the file systems tests run on, so that an edit after
    /// it always gets a new ctime.
    fn past_a_tick() {
        std::thread::sleep(Duration::from_millis(30));
    }

    #[test]
    fn a_second_read_comes_from_the_cache() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = store_without_settle(dir.path());
        store
            .extend(vec![record("one", "first"), record("two", "second")])
            .expect("extend");
        past_a_tick();
        let first = store.read().expect("read");
        let hits = store.cache.hits();
        assert_eq!(store.read().expect("read"), first);
        assert_eq!(store.cache.hits(), hits + 2);
    }

    #[test]
    fn an_edit_in_place_is_parsed_again() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = store_without_settle(dir.path());
        let commit = store.extend(vec![record("one", "first")]).expect("extend");
        let path = store.root().join(&commit.set.entries[0].file);
        past_a_tick();
        store.read().expect("read");
        past_a_tick();
        let text = fs::read_to_string(&path).expect("read file");
        fs::write(&path, text.replace("first", "FIRST")).expect("edit");
        let hits = store.cache.hits();
        let set = store.read().expect("read");
        assert_eq!(set.entries[0].record.body(), "FIRST");
        assert_eq!(store.cache.hits(), hits, "the edited file was parsed again");
        // Same size again, now invalid: fails as an uncached read does, every time.
        fs::write(&path, text.replace("name: one", "name: ONE")).expect("edit");
        for _ in 0..2 {
            match store.read() {
                Err(StoreError::RecordInvalid { .. }) => {}
                other => panic!("expected RecordInvalid, got {other:?}"),
            }
        }
    }

    #[test]
    fn files_changed_within_the_settle_time_are_not_cached() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = Store::open(dir.path(), StoreOptions::default()).expect("open");
        store.cache = Arc::new(RecordCache::new(Duration::from_secs(3600)));
        store.extend(vec![record("one", "first")]).expect("extend");
        store.read().expect("read");
        store.read().expect("read");
        assert_eq!(store.cache.hits(), 0);
    }

    #[test]
    fn handles_on_one_root_share_one_cache() {
        let dir = tempfile::tempdir().expect("temp dir");
        let a = Store::open(dir.path(), StoreOptions::default()).expect("open");
        let b = Store::open(dir.path(), StoreOptions::default()).expect("open");
        assert!(Arc::ptr_eq(&a.cache, &b.cache));
        let other = tempfile::tempdir().expect("temp dir");
        let c = Store::open(other.path(), StoreOptions::default()).expect("open");
        assert!(!Arc::ptr_eq(&a.cache, &c.cache));
    }

    #[test]
    fn entries_of_files_no_longer_listed_are_dropped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = store_without_settle(dir.path());
        store
            .extend(vec![record("one", "first"), record("two", "second")])
            .expect("extend");
        past_a_tick();
        let set = store.read().expect("read");
        store
            .remove(&[set.entries[0].record.clone()])
            .expect("remove");
        store.read().expect("read");
        let entries = store.cache.lock();
        assert_eq!(entries.len(), 1);
        assert!(entries.contains_key(&set.entries[1].file));
    }
}
