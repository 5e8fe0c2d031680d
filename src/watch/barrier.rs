//! Knowing that every file event the kernel queued before a moment has reached the watcher.
//!
//! A reload reads the folder at some moment; the events of changes made just before it may
//! still be on their way (in the kernel's queue, or in notify's thread). A reading that takes a
//! record file from the last reading because no event named it is then stale, though the
//! manifest it read is new: a commit shown with the text its records had before an edit in
//! place that came first. inotify keeps one queue per watcher, in order, and notify hands its
//! events over in that order; so the watcher also watches a private folder of its own and,
//! after a reading, creates a file there: once that file's event arrives, every event queued
//! before it has too.
//!
//! Other backends (FSEvents, kqueue, Windows) do not promise that order across folders; there
//! the barrier only narrows the window.

use std::fs::OpenOptions;
use std::io;
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::{Poke, Worker};
use crate::store::Touched;
use crate::store::inspect::Inspection;

/// How long a reload waits for its barrier's event before it reads everything instead.
const BARRIER_WAIT: Duration = Duration::from_secs(5);

/// How many times a reload reads again the files late events name before it reads everything.
const LATE_ROUNDS: usize = 3;

/// Raises the next barrier: its number, or `None` when there is none to wait for.
pub(super) type RaiseBarrier = Box<dyn FnMut() -> Option<u64> + Send>;

/// What arrived while a reload waited for its barrier.
enum Late {
    /// Every event before the barrier arrived; these are the files they name.
    Seen(Touched),
    /// The barrier could not be raised or its event did not come: anything may be stale.
    Unknown,
    /// The watch is stopping: the reading stands as it is.
    Stopping,
}

/// A private folder (a fresh temporary directory, removed with it) whose files' events mark
/// how far the event queue has been read.
pub(super) struct Barrier {
    dir: tempfile::TempDir,
    raised: u64,
}

impl Barrier {
    pub(super) fn new() -> io::Result<Self> {
        let dir = tempfile::Builder::new().prefix("memwb-watch-").tempdir()?;
        Ok(Self { dir, raised: 0 })
    }

    /// The folder to watch, with the same watcher as `.memory`.
    pub(super) fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Creates (and removes) the next barrier file; returns its number, which its events carry
    /// ([`number`]).
    pub(super) fn raise(&mut self) -> io::Result<u64> {
        self.raised += 1;
        let path = self.dir.path().join(self.raised.to_string());
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        std::fs::remove_file(&path)?;
        Ok(self.raised)
    }
}

/// The number of the barrier file at `path`, when it is one in `dir`.
pub(super) fn number(dir: &Path, path: &Path) -> Option<u64> {
    if path.parent() != Some(dir) {
        return None;
    }
    path.file_name()?.to_str()?.parse().ok()
}

impl Worker {
    /// The folder read again, with no listed file taken from the last reading that an event
    /// queued before the reading names: after each reading, waits for the barrier and reads
    /// again the listed files the events that came meanwhile name; reads everything when it
    /// cannot know (no barrier) or they keep coming.
    pub(super) fn read_again(&mut self, rx: &mpsc::Receiver<Poke>) -> Inspection {
        let touched = std::mem::take(&mut self.touched);
        let mut reading = self.store.reinspect(&self.seen, &touched);
        for _ in 0..LATE_ROUNDS {
            let late = match self.events_so_far(rx) {
                Late::Seen(late) => late,
                Late::Unknown => return self.store.inspect(),
                Late::Stopping => return reading,
            };
            if !reading
                .entries
                .iter()
                .any(|e| late.may_have_changed(&e.file))
            {
                return reading;
            }
            reading = self.store.reinspect(&reading, &late);
        }
        self.store.inspect()
    }

    /// Raises a barrier and takes every event until its own: the files they name. Each event is
    /// also kept for the loop, which takes them as if they came after the reload.
    fn events_so_far(&mut self, rx: &mpsc::Receiver<Poke>) -> Late {
        let Some(number) = (self.raise_barrier)() else {
            return Late::Unknown;
        };
        let deadline = Instant::now() + BARRIER_WAIT;
        let mut late = Touched::default();
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let poke = match rx.recv_timeout(wait) {
                Ok(poke) => poke,
                Err(RecvTimeoutError::Timeout) => {
                    tracing::warn!("the watch barrier did not come back: reading every file");
                    return Late::Unknown;
                }
                Err(RecvTimeoutError::Disconnected) => return Late::Stopping,
            };
            match &poke {
                Poke::Barrier(n) if *n == number => return Late::Seen(late),
                Poke::Barrier(_) => continue,
                Poke::Stop => {
                    self.pending.push_back(poke);
                    return Late::Stopping;
                }
                Poke::Other(name) => late.file(name),
                Poke::Root | Poke::Rescan => late.all(),
                Poke::Manifest | Poke::Review => {}
            }
            self.pending.push_back(poke);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Barrier, number};

    #[test]
    fn each_barrier_file_is_numbered_and_gone_once_raised() {
        let mut barrier = Barrier::new().expect("barrier");
        let dir = barrier.dir().to_owned();
        assert_eq!(barrier.raise().expect("raise"), 1);
        assert_eq!(barrier.raise().expect("raise"), 2);
        assert_eq!(number(&dir, &dir.join("2")), Some(2));
        assert_eq!(number(&dir, &dir.join("two")), None);
        assert_eq!(number(&dir, &dir), None);
        assert_eq!(number(&dir, &dir.join("x").join("2")), None);
        assert_eq!(std::fs::read_dir(&dir).expect("list").count(), 0);
    }
}
