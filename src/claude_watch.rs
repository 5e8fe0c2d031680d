//! Watching a Claude Code memory folder, for the workbench and `memwb watch`.
//!
//! Claude Code writes with plain file writes (no manifest, no commit point), often several in
//! a row, so a change is reported once the folder has been quiet for a moment: then the folder
//! is read again and compared with the last reading, topic file by topic file. The moment is
//! short ([`SETTLE`]) when every file written since was also closed (inotify reports the
//! close, so no write is half done), and longer ([`QUIET`]) while a file may still be open
//! for writing (or on a system that reports no close).

use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, CreateKind, EventKind, ModifyKind};
use notify::{RecursiveMode, Watcher as _};

use crate::claude::index::INDEX_FILE;
use crate::claude::{ClaudeFolder, Snapshot};
use crate::store::{Commit, Touched};
use crate::time::now_ms;
use crate::watch::WatchError;

/// How long the folder must be quiet before it is read again while a file written may still
/// be open (a write event without its close).
pub const QUIET: Duration = Duration::from_millis(100);

/// How long the folder must be quiet before it is read again when every file written was
/// closed: enough to take a burst (a topic file, then MEMORY.md) as one change, short enough
/// that an outside write is on screen well within 100 ms.
pub const SETTLE: Duration = Duration::from_millis(15);

/// What one reading found that differs from the one before.
#[derive(Debug, Clone)]
pub struct ClaudeChange {
    pub at_ms: i64,
    /// Topic files by name; `MEMORY.md` is among `changed` when the index changed.
    pub commit: Commit,
    pub snapshot: Arc<Snapshot>,
}

impl ClaudeChange {
    pub fn json_line(&self) -> crate::watch::ChangeLine<'_> {
        crate::watch::ChangeLine {
            at: self.at_ms,
            added: &self.commit.added,
            removed: &self.commit.removed,
            changed: &self.commit.changed,
        }
    }
}

#[derive(Debug, Clone)]
pub enum ClaudeEvent {
    Changed(ClaudeChange),
    /// memwb's proposals or journal for the folder changed (in its state directory): a
    /// proposal filed or decided, a change journaled, by this process or another.
    Review,
    Error(String),
}

/// A running watch; dropping it stops the watch.
pub struct ClaudeWatcher {
    stop: mpsc::Sender<()>,
    worker: Option<thread::JoinHandle<()>>,
}

impl Drop for ClaudeWatcher {
    fn drop(&mut self) {
        let _ = self.stop.send(());
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

enum Poke {
    /// These paths in the folder changed; `writing`: the event says they are being written
    /// (created or their data modified), `closed`: that a writer closed them.
    Touched {
        paths: Vec<std::path::PathBuf>,
        writing: bool,
        closed: bool,
    },
    /// Events were lost (the kernel's queue overflowed): anything may have changed.
    Rescan,
    Review,
    Failed(String),
}

/// What in the folder's state directory is news for the reader: proposals and the journal
/// (not the lock, the hook log or the eval cases).
struct StateFiles {
    root: std::path::PathBuf,
    proposals: std::path::PathBuf,
    journal: std::path::PathBuf,
}

impl StateFiles {
    /// The folder's state directory when it exists (watching never creates it).
    fn of(folder: &ClaudeFolder) -> Option<Self> {
        use crate::claude::state;
        let base = match folder.state_root() {
            Some(root) => root.to_owned(),
            None => state::state_root().ok()?,
        };
        let root = base.join("claude").join(state::key(folder.root()));
        if !root.is_dir() {
            return None;
        }
        Some(Self {
            proposals: root.join("proposals"),
            journal: root.join("journal.jsonl"),
            root,
        })
    }

    /// `None`: not about the state directory; `Some(news)`: about it, news or not.
    fn classify(&self, paths: &[std::path::PathBuf]) -> Option<bool> {
        if paths.is_empty() || !paths.iter().all(|p| p.starts_with(&self.root)) {
            return None;
        }
        Some(
            paths
                .iter()
                .any(|p| p.starts_with(&self.proposals) || *p == self.journal),
        )
    }
}

impl ClaudeWatcher {
    /// Starts watching `folder` (recursively), and its state directory when there is one
    /// ([`ClaudeEvent::Review`]). The reading taken before this returns is the baseline:
    /// nothing is reported for it.
    pub fn start(
        folder: ClaudeFolder,
        sink: impl Fn(ClaudeEvent) + Send + 'static,
    ) -> Result<(Self, Arc<Snapshot>), WatchError> {
        let failed = |error| WatchError::Notify {
            path: folder.root().to_owned(),
            error,
        };
        let (tx, rx) = mpsc::channel();
        let (stop, stopped) = mpsc::channel();
        let state = StateFiles::of(&folder);
        let state_root = state.as_ref().map(|s| s.root.clone());
        let mut notifier =
            notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
                let poke = match res {
                    Ok(event) if event.need_rescan() => Poke::Rescan,
                    Ok(event) => {
                        if let EventKind::Access(kind) = event.kind
                            && kind != AccessKind::Close(AccessMode::Write)
                        {
                            return;
                        }
                        match state.as_ref().and_then(|s| s.classify(&event.paths)) {
                            Some(true) => Poke::Review,
                            Some(false) => return,
                            None => Poke::Touched {
                                writing: matches!(
                                    event.kind,
                                    EventKind::Create(CreateKind::File | CreateKind::Any)
                                        | EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Any)
                                ),
                                closed: matches!(
                                    event.kind,
                                    EventKind::Access(AccessKind::Close(AccessMode::Write))
                                ),
                                paths: event.paths,
                            },
                        }
                    }
                    Err(e) => Poke::Failed(e.to_string()),
                };
                let _ = tx.send(poke);
            })
            .map_err(failed)?;
        notifier
            .watch(folder.root(), RecursiveMode::Recursive)
            .map_err(failed)?;
        // Proposals filed by other processes (the hook, `memwb propose`) land there.
        if let Some(root) = &state_root {
            notifier
                .watch(root, RecursiveMode::Recursive)
                .map_err(failed)?;
        }
        let thread_root = folder.root().to_owned();
        let baseline = Arc::new(folder.read());
        let mut last = baseline.clone();
        let mut seen = Touched::default();
        let worker = thread::Builder::new()
            .name("memwb-claude-watch".into())
            .spawn(move || {
                // Keeps the watch alive as long as the worker runs.
                let _notifier = notifier;
                loop {
                    if stopped.try_recv().is_ok() {
                        return;
                    }
                    let (mut touched, mut review) = (false, false);
                    let mut open = OpenForWriting::default();
                    let mut take =
                        |poke: Poke, seen: &mut Touched, open: &mut OpenForWriting| match poke {
                            Poke::Touched {
                                paths,
                                writing,
                                closed,
                            } => {
                                note(&mut *seen, folder.root(), &paths);
                                open.note(&paths, writing, closed);
                                touched = true;
                            }
                            Poke::Rescan | Poke::Failed(_) => {
                                seen.all();
                                touched = true;
                            }
                            Poke::Review => review = true,
                        };
                    match rx.recv_timeout(Duration::from_millis(200)) {
                        Ok(Poke::Failed(message)) => {
                            seen.all();
                            sink(ClaudeEvent::Error(message));
                            continue;
                        }
                        Ok(poke) => take(poke, &mut seen, &mut open),
                        Err(RecvTimeoutError::Timeout) => continue,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                    // Wait for quiet: every poke restarts the wait.
                    loop {
                        let wait = if open.any() { QUIET } else { SETTLE };
                        match rx.recv_timeout(wait) {
                            Ok(poke) => take(poke, &mut seen, &mut open),
                            Err(RecvTimeoutError::Timeout) => break,
                            Err(RecvTimeoutError::Disconnected) => return,
                        }
                    }
                    if review {
                        sink(ClaudeEvent::Review);
                    }
                    if !touched {
                        continue;
                    }
                    let next = Arc::new(folder.reread(&last, &std::mem::take(&mut seen)));
                    let commit = diff(&last, &next);
                    if !commit.added.is_empty()
                        || !commit.removed.is_empty()
                        || !commit.changed.is_empty()
                    {
                        sink(ClaudeEvent::Changed(ClaudeChange {
                            at_ms: now_ms(),
                            commit,
                            snapshot: next.clone(),
                        }));
                    }
                    last = next;
                }
            })
            .map_err(|error| WatchError::Thread {
                path: thread_root,
                error,
            })?;
        Ok((
            Self {
                stop,
                worker: Some(worker),
            },
            baseline,
        ))
    }
}

/// The files written since the last reading that no close event has been seen for: a writer
/// may still be writing them.
#[derive(Default)]
struct OpenForWriting(std::collections::HashSet<std::path::PathBuf>);

impl OpenForWriting {
    fn note(&mut self, paths: &[std::path::PathBuf], writing: bool, closed: bool) {
        for path in paths {
            if closed {
                self.0.remove(path);
            } else if writing {
                self.0.insert(path.clone());
            }
        }
    }

    fn any(&self) -> bool {
        !self.0.is_empty()
    }
}

/// Adds `paths` (events in the folder at `root`) to `touched`, by their path in the folder; a
/// path that is the folder itself, or outside it, makes everything touched.
fn note(touched: &mut Touched, root: &std::path::Path, paths: &[std::path::PathBuf]) {
    if paths.is_empty() {
        touched.all();
    }
    for path in paths {
        match path.strip_prefix(root) {
            Ok(relative) if !relative.as_os_str().is_empty() => {
                let parts: Vec<_> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect();
                touched.file(&parts.join("/"));
            }
            _ => touched.all(),
        }
    }
}

/// Topic files added, removed and changed (by name), and `MEMORY.md` when the index changed.
pub fn diff(before: &Snapshot, after: &Snapshot) -> Commit {
    let mut commit = Commit::default();
    for topic in &after.topics {
        match before.topic(&topic.file) {
            None => commit.added.push(topic.name().to_owned()),
            Some(old) if old.content != topic.content => {
                commit.changed.push(topic.name().to_owned())
            }
            Some(_) => {}
        }
    }
    for topic in &before.topics {
        if after.topic(&topic.file).is_none() {
            commit.removed.push(topic.name().to_owned());
        }
    }
    if before.index != after.index {
        commit.changed.push(INDEX_FILE.to_owned());
    }
    commit
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The short settle applies only once every file written has been closed: a file written
    /// and not closed (a writer still at it) keeps the longer wait, as does one of two files.
    #[test]
    fn a_written_file_counts_as_open_until_its_close_is_seen() {
        let (topic, index) = (
            std::path::PathBuf::from("/m/topic.md"),
            std::path::PathBuf::from("/m/MEMORY.md"),
        );
        let mut open = OpenForWriting::default();
        open.note(std::slice::from_ref(&topic), true, false);
        open.note(std::slice::from_ref(&index), true, false);
        assert!(open.any(), "written, not closed");
        open.note(std::slice::from_ref(&topic), false, true);
        assert!(open.any(), "MEMORY.md is still open");
        open.note(std::slice::from_ref(&index), false, true);
        assert!(!open.any(), "both closed");
        // A rename or a removal says nothing about a write in progress.
        open.note(std::slice::from_ref(&topic), false, false);
        assert!(!open.any());
    }
}
