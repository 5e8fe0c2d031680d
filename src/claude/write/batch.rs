//! A change of many files to a Claude Code folder, in passes ([`Batch`]).

use std::fs::File;
use std::path::PathBuf;

use super::super::error::{ClaudeError, Result};
use super::files::{Dir, Root, io, refused};
use crate::fs::{IoHooks, IoOp};

/// The files of one change, written in three passes so that a change of many files costs one
/// directory fsync per directory, not one per file: every new text is written to a temp file
/// beside its target ([`Batch::stage`]), and all of them are synced together before the first
/// rename ([`sync_all`]: concurrent fsyncs, which the file system's journal commits in a few
/// groups instead of one commit per file); then each temp file is renamed into place or a file
/// removed, in the change's order ([`Batch::put`], [`Batch::remove`]); then each directory
/// touched is synced once ([`Batch::sync`]). Durability is the same as one file at a time:
/// every text is on disk before any rename, and no rename counts as done before its
/// directory's sync. Temp files not renamed are removed when the batch is dropped.
pub(crate) struct Batch<'r> {
    root: &'r Root,
    /// The directories of the change so far, by their path in the folder (`""`: the root),
    /// and whether a rename or removal in them still waits for their sync.
    dirs: Vec<(String, Dir, bool)>,
    /// Files staged and not yet put.
    staged: Vec<Staged>,
}

/// A text written beside its file, not yet renamed into place.
struct Staged {
    /// The file's name in the folder.
    file: String,
    /// Its directory: an index into [`Batch::dirs`].
    dir: usize,
    /// The temp file's name in that directory.
    temp: String,
    /// The temp file while it still waits for its fsync.
    unsynced: Option<File>,
}

/// Most threads that sync a batch's temp files: each spends its time waiting on the disk, and
/// a few concurrent fsyncs are enough for the journal to commit them together.
const SYNC_THREADS: usize = 4;

/// From this many files on, a batch's temp files are synced by one `syncfs` of their file
/// system instead of one fsync each. Both put every text on disk before the first rename; on
/// ext4 each fsync waits for its own journal commit (four threads share a few), while one
/// `syncfs` commits once: for 200 small files, a median of about 20 ms instead of 145 ms on
/// this project's 2-core VM under load (docs/performance.md). Below it, fsyncs are cheaper
/// than flushing what else the file system holds dirty.
#[cfg(target_os = "linux")]
const SYNCFS_FROM: usize = 16;

/// Whether this kernel's `syncfs` reports a writeback error of a file it flushed (Linux 5.8
/// and later; before, it answered success whatever happened, and only an fsync of the file
/// said that its text did not reach the disk).
#[cfg(target_os = "linux")]
fn syncfs_reports_errors() -> bool {
    static REPORTS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *REPORTS.get_or_init(|| {
        let uname = rustix::system::uname();
        kernel_at_least(&uname.release().to_string_lossy(), (5, 8))
    })
}

/// Whether a kernel release such as "6.8.0-45-generic" is `least` (major, minor) or later;
/// a release that does not read as one is not.
#[cfg(target_os = "linux")]
fn kernel_at_least(release: &str, least: (u32, u32)) -> bool {
    let mut parts = release
        .split(|c: char| !c.is_ascii_digit())
        .map(str::parse::<u32>);
    match (parts.next(), parts.next()) {
        (Some(Ok(major)), Some(Ok(minor))) => (major, minor) >= least,
        _ => false,
    }
}

/// Syncs every file: the fault hooks see each step in order on this thread, then the files
/// are synced, by one `syncfs` for a large batch on Linux, else by fsyncs run concurrently
/// (a batch of one on this thread alone). The first error is returned, once every fsync has
/// finished.
fn sync_all(files: &[(PathBuf, File)], hooks: &IoHooks) -> Result<()> {
    for (path, _) in files {
        hooks.step(IoOp::SyncTemp, "fsync", path)?;
    }
    #[cfg(target_os = "linux")]
    if files.len() >= SYNCFS_FROM
        && syncfs_reports_errors()
        && let Some((path, file)) = files.first()
    {
        return rustix::fs::syncfs(file).map_err(|e| io("syncfs", path, e));
    }
    let sync_each = |part: &[(PathBuf, File)]| -> Result<()> {
        part.iter()
            .try_for_each(|(path, file)| file.sync_all().map_err(|e| io("fsync", path, e)))
    };
    let threads = SYNC_THREADS.min(files.len());
    if threads < 2 {
        return sync_each(files);
    }
    let per_thread = files.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let mut parts = files.chunks(per_thread);
        let first = parts.next().unwrap_or_default();
        let others: Vec<_> = parts
            .map(|part| {
                let spawned =
                    std::thread::Builder::new().spawn_scoped(scope, move || sync_each(part));
                (part, spawned)
            })
            .collect();
        let mut outcome = sync_each(first);
        for (part, spawned) in others {
            let synced = match spawned.map(|handle| handle.join()) {
                Ok(Ok(synced)) => synced,
                // Not started: synced here.
                Err(_) => sync_each(part),
                Ok(Err(panic)) => std::panic::resume_unwind(panic),
            };
            outcome = outcome.and(synced);
        }
        outcome
    })
}

impl<'r> Batch<'r> {
    pub(super) fn new(root: &'r Root) -> Self {
        Self {
            root,
            dirs: Vec::new(),
            staged: Vec::new(),
        }
    }

    /// The directory holding `file` (opened once per batch) and the file's last component;
    /// `None` as [`Root::dir_of`] says.
    fn dir_of<'f>(&mut self, file: &'f str, create: bool) -> Result<Option<(usize, &'f str)>> {
        let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
        if let Some(at) = self.dirs.iter().position(|(known, ..)| known == dir) {
            return Ok(Some((at, name)));
        }
        let Some((opened, _)) = self.root.dir_of(file, create)? else {
            return Ok(None);
        };
        self.dirs.push((dir.to_owned(), opened, false));
        Ok(Some((self.dirs.len() - 1, name)))
    }

    /// Writes `bytes` beside `file`; they are synced before the first [`Batch::put`], and
    /// nothing is in place before it.
    pub(crate) fn stage(&mut self, file: &str, bytes: &[u8]) -> Result<()> {
        let Some((dir, name)) = self.dir_of(file, true)? else {
            return Err(refused(
                self.root.shown(file),
                "its folder could not be made",
            ));
        };
        let (temp, written) = self.dirs[dir].1.write_temp(name, bytes, &self.root.hooks)?;
        self.staged.push(Staged {
            file: file.to_owned(),
            dir,
            temp,
            unsynced: Some(written),
        });
        Ok(())
    }

    /// Syncs every staged text not synced yet ([`sync_all`]).
    fn sync_staged(&mut self) -> Result<()> {
        let files: Vec<(PathBuf, File)> = self
            .staged
            .iter_mut()
            .filter_map(|staged| {
                let file = staged.unsynced.take()?;
                Some((self.dirs[staged.dir].1.path.join(&staged.temp), file))
            })
            .collect();
        sync_all(&files, &self.root.hooks)
    }

    /// Renames the text staged for `file` into place; with `new`, only if no file has the
    /// name by then (one made meanwhile by another writer is a conflict, never overwritten).
    pub(crate) fn put(&mut self, file: &str, new: bool) -> Result<()> {
        // Every text is on disk before the first rename.
        self.sync_staged()?;
        let Some(at) = self.staged.iter().position(|staged| staged.file == file) else {
            return Err(refused(self.root.shown(file), "nothing was staged for it"));
        };
        let Staged { dir, temp, .. } = self.staged.swap_remove(at);
        let (_, opened, unsynced) = &mut self.dirs[dir];
        let name = file.rsplit_once('/').map_or(file, |(_, name)| name);
        let renamed = self
            .root
            .hooks
            .step(IoOp::Rename, "rename", &opened.path.join(name))
            .map_err(ClaudeError::from)
            .and_then(|()| opened.rename_into_place(&temp, name, new));
        match renamed {
            Ok(()) => {
                *unsynced = true;
                Ok(())
            }
            Err(e) => {
                opened.discard(&temp);
                Err(e)
            }
        }
    }

    /// Removes `file` (already gone, or its folder, is fine).
    pub(crate) fn remove(&mut self, file: &str) -> Result<()> {
        let Some((dir, name)) = self.dir_of(file, false)? else {
            return Ok(());
        };
        let (_, opened, unsynced) = &mut self.dirs[dir];
        opened.unlink(name, &self.root.hooks)?;
        *unsynced = true;
        Ok(())
    }

    /// Syncs every directory a rename or removal changed: the change is durable. A directory
    /// whose sync fails does not keep the others from theirs; the first error is returned.
    pub(crate) fn sync(&mut self) -> Result<()> {
        let mut outcome = Ok(());
        for (_, dir, unsynced) in &mut self.dirs {
            if *unsynced {
                outcome = outcome.and(dir.sync(&self.root.hooks));
                *unsynced = false;
            }
        }
        outcome
    }
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        for staged in self.staged.drain(..) {
            self.dirs[staged.dir].1.discard(&staged.temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::fs::FaultHook;

    /// Records every step; fails the `fail_sync`-th fsync of a temp file (0-based), if any.
    struct Steps {
        seen: Mutex<Vec<IoOp>>,
        fail_sync: Option<usize>,
    }

    impl FaultHook for Steps {
        fn before(&self, op: IoOp, _path: &Path) -> std::io::Result<()> {
            let mut seen = self.seen.lock().unwrap_or_else(|p| p.into_inner());
            let syncs = seen.iter().filter(|o| **o == IoOp::SyncTemp).count();
            seen.push(op);
            if op == IoOp::SyncTemp && Some(syncs) == self.fail_sync {
                return Err(std::io::Error::other("injected fsync failure"));
            }
            Ok(())
        }
    }

    const FILES: usize = 20;

    fn steps(fail_sync: Option<usize>) -> Arc<Steps> {
        Arc::new(Steps {
            seen: Mutex::new(Vec::new()),
            fail_sync,
        })
    }

    /// A batch of `root` with a new text staged for each of the [`FILES`] files.
    fn staged_all(root: &Root) -> Batch<'_> {
        let mut batch = root.batch();
        for i in 0..FILES {
            batch
                .stage(&format!("f{i}.md"), format!("new {i}\n").as_bytes())
                .expect("stage");
        }
        batch
    }

    /// Every file holds `"{prefix} {i}\n"`.
    fn assert_texts(folder: &Path, prefix: &str) {
        for i in 0..FILES {
            let text = std::fs::read_to_string(folder.join(format!("f{i}.md")));
            assert_eq!(text.expect("read"), format!("{prefix} {i}\n"));
        }
    }

    fn folder_of_files() -> tempfile::TempDir {
        let folder = tempfile::tempdir().expect("temp dir");
        for i in 0..FILES {
            std::fs::write(folder.path().join(format!("f{i}.md")), format!("old {i}\n"))
                .expect("write");
        }
        folder
    }

    fn names(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// The fsyncs run together, but still all of them before the first rename: a crash before
    /// a rename can only leave temp files, never a file whose text is not on disk.
    #[test]
    fn every_staged_text_is_synced_before_the_first_rename() {
        let folder = folder_of_files();
        let steps = steps(None);
        let root = Root::open(folder.path(), &IoHooks::new(steps.clone())).expect("open");
        let mut batch = staged_all(&root);
        for i in 0..FILES {
            batch.put(&format!("f{i}.md"), false).expect("put");
        }
        batch.sync().expect("sync");
        drop(batch);
        let seen = steps.seen.lock().expect("steps").clone();
        let first_rename = seen.iter().position(|o| *o == IoOp::Rename);
        let last_sync = seen.iter().rposition(|o| *o == IoOp::SyncTemp);
        assert_eq!(
            seen.iter().filter(|o| **o == IoOp::SyncTemp).count(),
            FILES,
            "{seen:?}"
        );
        assert!(last_sync < first_rename, "{seen:?}");
        assert_texts(folder.path(), "new");
        assert_eq!(names(folder.path()).len(), FILES, "no temp file is left");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn syncfs_is_trusted_from_linux_5_8_on() {
        assert!(kernel_at_least("5.8.0", (5, 8)));
        assert!(kernel_at_least("6.8.0-45-generic", (5, 8)));
        assert!(kernel_at_least(
            "5.15.167.4-microsoft-standard-WSL2",
            (5, 8)
        ));
        assert!(!kernel_at_least("5.4.0-150-generic", (5, 8)));
        assert!(!kernel_at_least("4.19.0", (5, 8)));
        assert!(!kernel_at_least("garbage", (5, 8)));
    }

    /// One temp file's fsync fails while the others' run: the batch fails before any rename,
    /// every file keeps its text, and no temp file is left.
    #[test]
    fn a_failed_fsync_of_one_staged_text_changes_nothing() {
        let folder = folder_of_files();
        let before = names(folder.path());
        let steps = steps(Some(FILES / 2));
        let root = Root::open(folder.path(), &IoHooks::new(steps.clone())).expect("open");
        let mut batch = staged_all(&root);
        let error = batch.put("f0.md", false).expect_err("the fsync fails");
        assert!(
            error.to_string().contains("injected fsync failure"),
            "{error}"
        );
        drop(batch);
        let seen = steps.seen.lock().expect("steps").clone();
        assert!(!seen.contains(&IoOp::Rename), "{seen:?}");
        assert_eq!(names(folder.path()), before, "no temp file is left");
        assert_texts(folder.path(), "old");
    }
}
