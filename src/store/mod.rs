//! The store engine: the `.memory/` contract, shared byte for byte with the reference agents.
//!
//! Synchronous and UI-free. Reads take no lock (the manifest is replaced atomically and record
//! files are immutable); every read-modify-write runs in `txn` under [`lock::StoreLock`].
mod cache;
pub mod codec;
mod commit;
mod edit;
pub(crate) mod error;
pub mod index;
pub mod inspect;
pub mod lock;
pub mod manifest;
mod parallel;
pub mod record;
mod record_file;
mod reinspect;
mod repair;
mod set;
mod strays;
mod txn;
pub(crate) mod yaml_scalar;

use std::fmt;
use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustix::fs::{Mode, OFlags, ResolveFlags};
use rustix::io::Errno;

pub use crate::fs::{FaultHook, IoHooks, IoOp};
pub use cache::SETTLE as RECORD_CACHE_SETTLE;
pub use codec::ParseError;
pub use commit::{Commit, CommitObserver};
pub use error::{Result, StoreError};
pub use inspect::{EntryState, Inspection};
pub use lock::{LockState, LockTiming, LockWait};
pub use record::{MemoryType, Record, RecordError, RecordInput};
pub use reinspect::Touched;
pub use set::{MemorySet, StoredRecord};
pub use strays::StrayKind;

pub(crate) const MEMORY_DIR: &str = ".memory";

/// Makes the `<id>` of a new record file name; the default is a UUID v4 without dashes.
pub type IdSource = Arc<dyn Fn() -> String + Send + Sync>;

/// Budgets and timings, with the reference's defaults.
#[derive(Clone)]
pub struct StoreOptions {
    /// Most lines in MEMORY.md, which is also the most records in the set.
    pub max_index_lines: usize,
    pub max_index_bytes: usize,
    pub lock: LockTiming,
    pub hooks: IoHooks,
    pub ids: Option<IdSource>,
    /// Sees every transaction from inside the lock (memwb's journal).
    pub observer: Option<Arc<dyn CommitObserver>>,
    /// How old a record file's last change must be before the record cache reuses its parse on
    /// the strength of its metadata (default [`RECORD_CACHE_SETTLE`]; see `cache.rs`). Longer
    /// than the file system's timestamp tick, or an edit within one tick could go unseen.
    pub record_cache_settle: std::time::Duration,
    /// Told once when a writer has waited a second for a lock another process holds (the
    /// command line says so on a terminal).
    pub on_lock_wait: Option<lock::WaitNotice>,
}

impl Default for StoreOptions {
    fn default() -> Self {
        Self {
            max_index_lines: 200,
            max_index_bytes: 4096,
            lock: LockTiming::default(),
            hooks: IoHooks::default(),
            ids: None,
            observer: None,
            record_cache_settle: RECORD_CACHE_SETTLE,
            on_lock_wait: None,
        }
    }
}

impl fmt::Debug for StoreOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoreOptions")
            .field("max_index_lines", &self.max_index_lines)
            .field("max_index_bytes", &self.max_index_bytes)
            .field("lock", &self.lock)
            .field("hooks", &self.hooks)
            .field("record_cache_settle", &self.record_cache_settle)
            .finish_non_exhaustive()
    }
}

/// A handle on one workspace's `.memory`. Cheap to clone; handles on the same folder in one
/// process share one lock queue.
#[derive(Debug, Clone)]
pub struct Store {
    workspace: PathBuf,
    root: PathBuf,
    options: StoreOptions,
    /// Parsed records, shared by every handle on this `.memory` in the process.
    cache: Arc<cache::RecordCache>,
}

impl Store {
    /// Resolves the workspace with realpath (a linked workspace is followed).
    pub fn open(workspace: impl AsRef<Path>, options: StoreOptions) -> Result<Self> {
        let given = workspace.as_ref();
        let workspace =
            fs::canonicalize(given).map_err(|e| StoreError::io("resolve workspace", given, e))?;
        if !workspace.is_dir() {
            return Err(StoreError::WorkspaceNotADirectory { path: workspace });
        }
        let root = workspace.join(MEMORY_DIR);
        let cache = cache::RecordCache::for_root(&root, options.record_cache_settle);
        Ok(Self {
            workspace,
            root,
            options,
            cache,
        })
    }

    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// `<workspace>/.memory`.
    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn options(&self) -> &StoreOptions {
        &self.options
    }

    pub fn manifest_path(&self) -> PathBuf {
        self.root.join(manifest::MANIFEST_FILE)
    }

    pub fn index_path(&self) -> PathBuf {
        self.root.join(index::INDEX_FILE)
    }

    /// `Ok(false)` when `.memory` does not exist; an error when it is a link, not a directory,
    /// or resolves outside the workspace.
    pub(crate) fn check_root(&self) -> Result<bool> {
        Ok(self.open_root()?.is_some())
    }

    /// `.memory`, opened (`O_PATH`) for reading files relative to it, after the checks of
    /// [`Store::check_root`]; `None` when it does not exist. `root` is absolute and has no `.`
    /// or `..` (the workspace is a realpath), so "no component is a link" is the same as "its
    /// realpath is itself": `openat2` with `RESOLVE_NO_SYMLINKS` checks that in one call.
    pub(crate) fn open_root(&self) -> Result<Option<OwnedFd>> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let escapes = || StoreError::RootEscapes {
            path: self.root.clone(),
        };
        match rustix::fs::openat2(
            rustix::fs::CWD,
            &self.root,
            flags,
            Mode::empty(),
            ResolveFlags::NO_SYMLINKS,
        ) {
            Ok(dir) => Ok(Some(dir)),
            Err(Errno::NOENT) => Ok(None),
            Err(Errno::LOOP | Errno::NOTDIR) => Err(escapes()),
            // No openat2 (Linux before 5.6, or a seccomp filter): the realpath check, then open.
            Err(Errno::NOSYS | Errno::PERM) => {
                if !self.check_root_by_realpath()? {
                    return Ok(None);
                }
                match rustix::fs::open(&self.root, flags, Mode::empty()) {
                    Ok(dir) => Ok(Some(dir)),
                    Err(Errno::NOENT) => Ok(None),
                    Err(Errno::LOOP | Errno::NOTDIR) => Err(escapes()),
                    Err(e) => Err(StoreError::io("open", &self.root, e.into())),
                }
            }
            Err(e) => Err(StoreError::io("open", &self.root, e.into())),
        }
    }

    fn check_root_by_realpath(&self) -> Result<bool> {
        let meta = match fs::symlink_metadata(&self.root) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(StoreError::io("stat", &self.root, e)),
        };
        let escapes = || StoreError::RootEscapes {
            path: self.root.clone(),
        };
        if meta.file_type().is_symlink() || !meta.is_dir() {
            return Err(escapes());
        }
        match fs::canonicalize(&self.root) {
            Ok(real) if real == self.root => Ok(true),
            Ok(_) => Err(escapes()),
            Err(e) => Err(StoreError::io("resolve", &self.root, e)),
        }
    }

    /// The same store, telling `notice` (instead of what its options said) when a writer has
    /// waited a second for a lock another process holds.
    pub fn with_lock_notice(&self, notice: Option<lock::WaitNotice>) -> Self {
        let mut store = self.clone();
        store.options.on_lock_wait = notice;
        store
    }

    /// The same store, with every transaction seen by `observer`.
    pub(crate) fn with_observer(&self, observer: Arc<dyn CommitObserver>) -> Self {
        let mut store = self.clone();
        store.options.observer = Some(observer);
        store
    }

    pub(crate) fn new_file_name(&self, name: &str) -> String {
        let id = match &self.options.ids {
            Some(source) => source(),
            None => uuid::Uuid::new_v4().simple().to_string(),
        };
        format!("{name}-{id}.md")
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::{Store, StoreError, StoreOptions};

    /// The one-call check (openat2) and its fallback (realpath) agree on every kind of root.
    #[test]
    fn both_root_checks_agree() {
        let outcome = |store: &Store| {
            let fast = match store.open_root() {
                Ok(dir) => Ok(dir.is_some()),
                Err(StoreError::RootEscapes { .. }) => Err("escapes"),
                Err(e) => panic!("open_root: {e}"),
            };
            let slow = match store.check_root_by_realpath() {
                Ok(found) => Ok(found),
                Err(StoreError::RootEscapes { .. }) => Err("escapes"),
                Err(e) => panic!("realpath: {e}"),
            };
            assert_eq!(fast, slow, "{}", store.root().display());
            fast
        };
        let ws = tempfile::tempdir().expect("temp dir");
        let open = |dir: &std::path::Path| Store::open(dir, StoreOptions::default()).expect("open");

        let store = open(ws.path());
        assert_eq!(outcome(&store), Ok(false), "missing");
        fs::create_dir(store.root()).expect("mkdir");
        assert_eq!(outcome(&store), Ok(true), "a directory");
        fs::remove_dir(store.root()).expect("rmdir");
        fs::write(store.root(), "").expect("file");
        assert_eq!(outcome(&store), Err("escapes"), "a file");
        fs::remove_file(store.root()).expect("rm");
        fs::create_dir(ws.path().join("real")).expect("mkdir");
        std::os::unix::fs::symlink(ws.path().join("real"), store.root()).expect("link");
        assert_eq!(outcome(&store), Err("escapes"), "a link");
        fs::remove_file(store.root()).expect("rm");
        std::os::unix::fs::symlink(ws.path().join("nowhere"), store.root()).expect("link");
        assert_eq!(outcome(&store), Err("escapes"), "a dangling link");

        // A workspace that became a link after it was opened (resolved).
        let parent = tempfile::tempdir().expect("temp dir");
        let inner = parent.path().join("ws");
        fs::create_dir_all(inner.join(".memory")).expect("mkdir");
        let store = open(&inner);
        assert_eq!(outcome(&store), Ok(true));
        fs::rename(&inner, parent.path().join("moved")).expect("move");
        std::os::unix::fs::symlink(parent.path().join("moved"), &inner).expect("link");
        assert_eq!(outcome(&store), Err("escapes"), "an ancestor link");
    }
}
