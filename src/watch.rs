//! Watching a workspace's `.memory` for commits, for the workbench and `memwb watch`.
//!
//! A commit is the atomic rename onto `manifest.json`, so that is what triggers a reload: at
//! once, without a debounce. Bursts coalesce naturally: events that arrive while a reload runs
//! are drained and answered by one more reload. Other changes in `.memory` (MEMORY.md edited by
//! hand, a temp file, the lock) trigger a quiet-period refresh when asked for.
//!
//! `.memory` is watched non-recursively; while it does not exist, its parent (the workspace) is
//! watched instead, and the watch moves to `.memory` when it appears. memwb's own folder
//! (`.memory/.memwb`, proposals and the journal) and its `proposals` folder are watched too,
//! non-recursively, once they exist: a change there is reported as [`WatchEvent::Review`].
//!
//! A reload takes the record files no event named from the last reading, so before it reports
//! what it read it waits until every event queued before the reading has arrived (a barrier,
//! `barrier.rs`), and reads again the listed files those late events name.

mod barrier;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, EventKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};
use serde::Serialize;

use crate::review::journal::MEMWB_DIR;
use crate::review::proposal::PROPOSALS_DIR;
use crate::store::inspect::Inspection;
use crate::store::{Commit, Store, Touched};

/// What one reload found.
#[derive(Debug, Clone)]
pub struct Change {
    /// When the change was observed, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// Names added, removed and changed (an entry that is not a valid record is named by its
    /// file). Empty for a refresh that was not a commit.
    pub commit: Commit,
    pub inspection: Arc<Inspection>,
    /// Set when the set became unreadable (or unreadable differently): why, as
    /// [`unreadable_reason`] says. `commit` is empty then: nothing is reported as removed, and
    /// once the set reads again, the change is against the last set that read.
    pub unreadable: Option<String>,
}

/// The JSON line `memwb watch --json` prints.
#[derive(Debug, Serialize)]
pub struct ChangeLine<'a> {
    pub at: i64,
    pub added: &'a [String],
    pub removed: &'a [String],
    pub changed: &'a [String],
}

/// The JSON line `memwb watch --json` prints when the set becomes unreadable.
#[derive(Debug, Serialize)]
pub struct UnreadableLine<'a> {
    pub at: i64,
    pub error: &'a str,
}

/// Why the strict reader would refuse the set (`None` when it reads): its error findings,
/// each with its file.
pub fn unreadable_reason(inspection: &Inspection) -> Option<String> {
    if inspection.is_readable() {
        return None;
    }
    let reasons: Vec<String> = inspection
        .findings()
        .into_iter()
        .filter(|f| f.severity == crate::finding::Severity::Error)
        .map(|f| match f.file {
            Some(file) => format!("{file}: {}", f.message),
            None => f.message,
        })
        .collect();
    Some(if reasons.is_empty() {
        "the set does not read".to_owned()
    } else {
        reasons.join("; ")
    })
}

impl Change {
    pub fn unreadable_line(&self) -> Option<UnreadableLine<'_>> {
        self.unreadable.as_deref().map(|error| UnreadableLine {
            at: self.at_ms,
            error,
        })
    }

    pub fn json_line(&self) -> ChangeLine<'_> {
        ChangeLine {
            at: self.at_ms,
            added: &self.commit.added,
            removed: &self.commit.removed,
            changed: &self.commit.changed,
        }
    }
}

/// Why watching could not start. The reason is part of the message, not a `source` (see
/// `StoreError::Io`).
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot watch {path}: {error}")]
    Notify { path: PathBuf, error: notify::Error },
    #[error("cannot start the watcher thread for {path}: {error}")]
    Thread {
        path: PathBuf,
        error: std::io::Error,
    },
}

#[derive(Debug, Clone)]
pub enum WatchEvent {
    /// The manifest was replaced (by anyone) and the set differs from the last one seen.
    Committed(Change),
    /// Something else in `.memory` changed; only sent with [`WatchOptions::refresh_on_touch`].
    Refreshed(Change),
    /// The watch itself failed (the reload does not: an unreadable set is still an inspection).
    Error(String),
    /// Something changed under `.memory/.memwb` (a proposal filed or decided, a journal entry),
    /// once that folder has been quiet for [`REVIEW_QUIET`]. Carries nothing: the receiver
    /// loads what it needs.
    Review,
}

/// How long `.memory/.memwb` must be quiet before [`WatchEvent::Review`] is sent: a proposal is
/// written as a temp file and a link, a decision as a journal append and a rewrite.
pub const REVIEW_QUIET: Duration = Duration::from_millis(40);

#[derive(Debug, Clone, Copy)]
pub struct WatchOptions {
    /// Also reload after changes that are not commits, once `.memory` has been quiet this long.
    pub refresh_on_touch: Option<Duration>,
}

impl Default for WatchOptions {
    fn default() -> Self {
        Self {
            refresh_on_touch: Some(Duration::from_millis(150)),
        }
    }
}

/// A running watch; dropping it stops the watch.
pub struct Watcher {
    tx: mpsc::Sender<Poke>,
    worker: Option<thread::JoinHandle<()>>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.tx.send(Poke::Stop);
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Poke {
    Manifest,
    Root,
    /// A file directly in `.memory`, other than the manifest: its name.
    Other(String),
    /// Under `.memory/.memwb`.
    Review,
    /// Events were lost (the kernel's queue overflowed, or the watch reported an error):
    /// anything may have changed.
    Rescan,
    /// The barrier file of this number was created: every event before it has arrived.
    Barrier(u64),
    Stop,
}

fn listed(inspection: &Inspection) -> Vec<&str> {
    inspection.entries.iter().map(|e| e.file.as_str()).collect()
}

use crate::time::now_ms;

impl Watcher {
    /// Starts watching. The first inspection is taken before this returns and is the baseline:
    /// nothing is reported for it, and every later commit is compared with the one before.
    /// Returns the baseline too, so a caller can show it.
    pub fn start(
        store: Store,
        options: WatchOptions,
        sink: impl Fn(WatchEvent) + Send + 'static,
    ) -> Result<(Self, Arc<Inspection>), WatchError> {
        let (tx, rx) = mpsc::channel();
        let root = store.root().to_owned();
        let manifest = store.manifest_path();
        let events_tx = tx.clone();
        let handler_root = root.clone();
        let review_dir = root.join(MEMWB_DIR);
        let thread_root = root.clone();
        let barrier = barrier::Barrier::new()
            .inspect_err(
                |e| tracing::warn!(error = %e, "no watch barrier: reloads read every file"),
            )
            .ok();
        let barrier_dir = barrier.as_ref().map(|b| b.dir().to_owned());
        let notifier =
            notify::recommended_watcher(move |res: notify::Result<notify::Event>| match res {
                Ok(event) => {
                    let paths = Paths {
                        root: &handler_root,
                        manifest: &manifest,
                        review_dir: &review_dir,
                        barrier_dir: barrier_dir.as_deref(),
                    };
                    for poke in classify(&event, &paths) {
                        let _ = events_tx.send(poke);
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "watch error");
                    let _ = events_tx.send(Poke::Rescan);
                }
            })
            .map_err(|error| WatchError::Notify {
                path: root.clone(),
                error,
            })?;
        let mut notifier = notifier;
        let watching = Some(watch_target(&mut notifier, None, &store).map_err(|error| {
            WatchError::Notify {
                path: root.clone(),
                error,
            }
        })?);
        let mut review_watches = Vec::new();
        watch_review(&mut notifier, &mut review_watches, &root);
        let barrier = barrier.filter(|barrier| {
            notifier
                .watch(barrier.dir(), RecursiveMode::NonRecursive)
                .inspect_err(
                    |e| tracing::warn!(error = %e, "no watch barrier: reloads read every file"),
                )
                .is_ok()
        });
        let raise: barrier::RaiseBarrier = match barrier {
            Some(mut barrier) => Box::new(move || {
                barrier
                    .raise()
                    .inspect_err(|e| tracing::warn!(error = %e, "cannot raise the watch barrier"))
                    .ok()
            }),
            None => Box::new(|| None),
        };
        let baseline = Arc::new(store.inspect());
        let mut worker = Worker::new(store, notifier, options, baseline.clone(), raise);
        worker.watching = watching;
        worker.review_watches = review_watches;
        let handle = thread::Builder::new()
            .name("memwb-watch".into())
            .spawn(move || worker.run(rx, sink))
            .map_err(|error| WatchError::Thread {
                path: thread_root,
                error,
            })?;
        Ok((
            Self {
                tx,
                worker: Some(handle),
            },
            baseline,
        ))
    }
}

/// The paths an event is classified by.
struct Paths<'a> {
    root: &'a Path,
    manifest: &'a Path,
    review_dir: &'a Path,
    barrier_dir: Option<&'a Path>,
}

/// What one notify event says, path by path (a rename names two).
fn classify(event: &notify::Event, paths: &Paths<'_>) -> Vec<Poke> {
    let Paths {
        root,
        manifest,
        review_dir,
        barrier_dir,
    } = *paths;
    if event.need_rescan() {
        return vec![Poke::Rescan];
    }
    match event.kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => {}
        EventKind::Access(_) => return Vec::new(),
        _ => {}
    }
    event
        .paths
        .iter()
        .filter_map(|path| {
            if let Some(number) = barrier_dir.and_then(|dir| barrier::number(dir, path)) {
                return Some(Poke::Barrier(number));
            }
            Some(if path == manifest {
                Poke::Manifest
            } else if path == root {
                Poke::Root
            } else if path.starts_with(review_dir) {
                Poke::Review
            } else if path.parent() == Some(root) {
                // A name that is not UTF-8 is no record file; it still calls for a refresh.
                Poke::Other(path.file_name()?.to_string_lossy().into_owned())
            } else {
                return None;
            })
        })
        .collect()
}

/// Adds a non-recursive watch on `.memory/.memwb` and on its `proposals` folder for each that
/// exists and is not watched yet; forgets those that are gone (the kernel dropped their watch).
fn watch_review(notifier: &mut RecommendedWatcher, watched: &mut Vec<PathBuf>, root: &Path) {
    let dir = root.join(MEMWB_DIR);
    for path in [dir.clone(), dir.join(PROPOSALS_DIR)] {
        let exists = path.is_dir();
        let known = watched.contains(&path);
        if exists && !known {
            match notifier.watch(&path, RecursiveMode::NonRecursive) {
                Ok(()) => watched.push(path),
                Err(e) => tracing::warn!(path = %path.display(), error = %e, "cannot watch"),
            }
        } else if !exists && known {
            let _ = notifier.unwatch(&path);
            watched.retain(|p| *p != path);
        }
    }
}

/// Watches `.memory`, or the workspace while `.memory` does not exist; returns what it watches.
fn watch_target(
    notifier: &mut RecommendedWatcher,
    current: Option<PathBuf>,
    store: &Store,
) -> notify::Result<PathBuf> {
    let want = if store.root().is_dir() {
        store.root().to_owned()
    } else {
        store.workspace().to_owned()
    };
    if current.as_ref() == Some(&want) {
        return Ok(want);
    }
    if let Some(old) = current {
        let _ = notifier.unwatch(&old);
    }
    notifier.watch(&want, RecursiveMode::NonRecursive)?;
    Ok(want)
}

struct Worker {
    store: Store,
    root: PathBuf,
    notifier: RecommendedWatcher,
    /// The directory currently watched.
    watching: Option<PathBuf>,
    /// `.memory/.memwb` and its `proposals` folder, once watched.
    review_watches: Vec<PathBuf>,
    options: WatchOptions,
    /// The last inspection that read (or the baseline): what the next change is against.
    last: Arc<Inspection>,
    /// Why the set does not read now, once reported.
    unreadable: Option<String>,
    /// The last inspection, readable or not: what the next reload reuses.
    seen: Arc<Inspection>,
    /// Record files touched since `seen` was taken: what the next reload reads again.
    touched: Touched,
    /// Raises the barrier a reload waits for (`barrier.rs`).
    raise_barrier: barrier::RaiseBarrier,
    /// What arrived while a reload waited for its barrier, for the loop to take in order.
    pending: VecDeque<Poke>,
}

impl Worker {
    /// A worker whose first reading is `baseline`, watching nothing yet.
    fn new(
        store: Store,
        notifier: RecommendedWatcher,
        options: WatchOptions,
        baseline: Arc<Inspection>,
        raise_barrier: barrier::RaiseBarrier,
    ) -> Self {
        Self {
            root: store.root().to_owned(),
            store,
            notifier,
            watching: None,
            review_watches: Vec::new(),
            options,
            unreadable: unreadable_reason(&baseline),
            seen: baseline.clone(),
            last: baseline,
            touched: Touched::default(),
            raise_barrier,
            pending: VecDeque::new(),
        }
    }

    fn ensure_watches(&mut self) -> notify::Result<()> {
        let current = self.watching.take();
        self.watching = Some(watch_target(&mut self.notifier, current, &self.store)?);
        Ok(())
    }

    fn run(mut self, rx: mpsc::Receiver<Poke>, sink: impl Fn(WatchEvent)) {
        let mut touched_at: Option<Instant> = None;
        let mut review_at: Option<Instant> = None;
        loop {
            let touch_due = touched_at
                .zip(self.options.refresh_on_touch)
                .map(|(at, quiet)| at + quiet);
            let review_due = review_at.map(|at| at + REVIEW_QUIET);
            let due = match (touch_due, review_due) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let first = match (self.pending.pop_front(), due) {
                (Some(poke), _) => poke,
                (None, Some(due)) => {
                    match rx.recv_timeout(due.saturating_duration_since(Instant::now())) {
                        Ok(poke) => poke,
                        Err(RecvTimeoutError::Timeout) => {
                            let now = Instant::now();
                            if review_due.is_some_and(|d| d <= now) {
                                review_at = None;
                                sink(WatchEvent::Review);
                            }
                            if touch_due.is_some_and(|d| d <= now) {
                                touched_at = None;
                                // This reload may be the first to see a commit whose manifest event
                                // is still on its way; after it, that event finds nothing new.
                                let (change, files_changed) = self.reload(&rx);
                                sink(if files_changed {
                                    WatchEvent::Committed(change)
                                } else {
                                    WatchEvent::Refreshed(change)
                                });
                            }
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
                (None, None) => match rx.recv() {
                    Ok(poke) => poke,
                    Err(_) => return,
                },
            };
            let (mut manifest, mut root, mut other, mut review) = (false, false, false, false);
            let pokes: Vec<Poke> = std::iter::once(first)
                .chain(self.pending.drain(..))
                .chain(rx.try_iter())
                .collect();
            for poke in pokes {
                match poke {
                    Poke::Stop => return,
                    Poke::Manifest => manifest = true,
                    Poke::Root => root = true,
                    Poke::Other(name) => {
                        self.touched.file(&name);
                        other = true;
                    }
                    Poke::Review => review = true,
                    Poke::Rescan => {
                        self.touched.all();
                        manifest = true;
                    }
                    // A barrier a reload no longer waits for.
                    Poke::Barrier(_) => {}
                }
            }
            if root {
                // `.memory` itself came, went or moved: nothing read before can be trusted.
                self.touched.all();
                if let Err(e) = self.ensure_watches() {
                    sink(WatchEvent::Error(format!(
                        "cannot watch {}: {e}",
                        self.root.display()
                    )));
                }
                manifest = true;
            }
            if root || other || review {
                // `.memwb` or `proposals` may have just been created (or removed).
                let before = self.review_watches.len();
                watch_review(&mut self.notifier, &mut self.review_watches, &self.root);
                if self.review_watches.len() != before {
                    review = true;
                }
            }
            if review {
                review_at = Some(Instant::now());
            }
            if other {
                touched_at = Some(Instant::now());
            }
            if manifest {
                let (change, files_changed) = self.reload(&rx);
                if files_changed {
                    sink(WatchEvent::Committed(change));
                }
            }
        }
    }

    /// Inspects the folder again, reading only the record files that may have changed
    /// ([`Store::reinspect`]); tells whether there is something to report: the manifest's
    /// list of files changed, or the set stopped or started reading.
    fn reload(&mut self, rx: &mpsc::Receiver<Poke>) -> (Change, bool) {
        let inspection = Arc::new(self.read_again(rx));
        let change = |commit, unreadable| Change {
            at_ms: now_ms(),
            commit,
            inspection: inspection.clone(),
            unreadable,
        };
        let moved = listed(&inspection) != listed(&self.seen);
        self.seen = inspection.clone();
        if let Some(reason) = unreadable_reason(&inspection) {
            // Not a change of the set: the reason is reported once, and the set the next change
            // is compared with stays the last one that read. A move of the manifest meanwhile
            // is still an event (with an empty commit), so that views show the new state.
            let news = self.unreadable.as_deref() != Some(reason.as_str());
            self.unreadable = Some(reason.clone());
            return (
                change(Commit::default(), news.then_some(reason)),
                news || moved,
            );
        }
        let recovered = self.unreadable.take().is_some();
        let files_changed = recovered || listed(&inspection) != listed(&self.last);
        let commit = self.last.diff(&inspection);
        self.last = inspection.clone();
        (change(commit, None), files_changed)
    }
}

#[cfg(test)]
mod tests;
