//! Watching a Claude Code memory folder, for the workbench and `memwb watch`.
//!
//! Claude Code writes with plain file writes (no manifest, no commit point), often several in
//! a row, so a change is reported once the folder has been quiet for a moment: then the folder
//! is read again and compared with the last reading, topic file by topic file.

use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecursiveMode, Watcher as _};

use crate::claude::index::INDEX_FILE;
use crate::claude::{ClaudeFolder, Snapshot};
use crate::store::Commit;
use crate::store::time::now_ms;
use crate::watch::WatchError;

/// How long the folder must be quiet before it is read again.
pub const QUIET: Duration = Duration::from_millis(100);

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
    Touched,
    Failed(String),
}

impl ClaudeWatcher {
    /// Starts watching `folder` (recursively). The reading taken before this returns is the
    /// baseline: nothing is reported for it.
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
        let mut notifier =
            notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
                let poke = match res {
                    Ok(event) => match event.kind {
                        EventKind::Access(AccessKind::Close(AccessMode::Write)) => Poke::Touched,
                        EventKind::Access(_) => return,
                        _ => Poke::Touched,
                    },
                    Err(e) => Poke::Failed(e.to_string()),
                };
                let _ = tx.send(poke);
            })
            .map_err(failed)?;
        notifier
            .watch(folder.root(), RecursiveMode::Recursive)
            .map_err(failed)?;
        let thread_root = folder.root().to_owned();
        let baseline = Arc::new(folder.read());
        let mut last = baseline.clone();
        let worker = thread::Builder::new()
            .name("memwb-claude-watch".into())
            .spawn(move || {
                // Keeps the watch alive as long as the worker runs.
                let _notifier = notifier;
                loop {
                    if stopped.try_recv().is_ok() {
                        return;
                    }
                    match rx.recv_timeout(Duration::from_millis(200)) {
                        Ok(Poke::Touched) => {}
                        Ok(Poke::Failed(message)) => {
                            sink(ClaudeEvent::Error(message));
                            continue;
                        }
                        Err(RecvTimeoutError::Timeout) => continue,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                    // Wait for quiet: every poke within QUIET restarts the wait.
                    loop {
                        match rx.recv_timeout(QUIET) {
                            Ok(_) => {}
                            Err(RecvTimeoutError::Timeout) => break,
                            Err(RecvTimeoutError::Disconnected) => return,
                        }
                    }
                    let next = Arc::new(folder.read());
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
