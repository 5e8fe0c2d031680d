//! What a folder's watcher reports, the same on every format ([`super::Backend::watch`]): the
//! memories another program added, changed or removed, by name, with the folder as read
//! then; that memwb's own state for the folder changed (proposals, the journal); or that the
//! watch failed. Each format's engine decides when a change is whole (`.memory`: the commit's
//! rename onto the manifest, at once; Claude Code: the folder quiet for a moment).

use std::path::PathBuf;

use super::Shown;
use crate::change::Changed;
use crate::review::journal::Entry;
use crate::time::now_ms;

pub use crate::watch::WatchError;

/// One piece of news from the watcher of the folder at `root`.
#[derive(Debug, Clone)]
pub struct Watched {
    /// The folder watched: a front end that opened another one since ignores the news.
    pub root: PathBuf,
    pub event: WatchEvent,
}

#[derive(Debug, Clone)]
pub enum WatchEvent {
    /// The folder's memories changed, by anyone (or the folder stopped or started reading).
    Changed(Change),
    /// The folder was read again after a change that moved no memory (a `.memory` record
    /// file edited in place): a view shows the reading, nothing is said.
    Reread(Shown),
    /// memwb's own state for the folder changed (a proposal filed or decided, a journal
    /// entry), by this process or another: a view reads its proposals and journal again.
    Review,
    /// The watch itself failed (a folder that does not read is a [`Change`], not this).
    Error(String),
}

impl Watched {
    /// memwb's own state for the folder changed.
    pub fn is_review(&self) -> bool {
        matches!(self.event, WatchEvent::Review)
    }
}

/// What one reading found that differs from the one before.
#[derive(Debug, Clone)]
pub struct Change {
    /// When the change was seen, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The memories added, removed and changed, by name (a file that is no memory is named by
    /// its file; on Claude Code, `MEMORY.md` is among `changed` when the index changed).
    /// Empty when the folder stopped reading: nothing is reported as removed then.
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
    /// Set when the folder became unreadable (or unreadable differently): why. Once it reads
    /// again, the next change is against the last reading that read.
    pub unreadable: Option<String>,
    /// The folder as read now, as a view of it shows it.
    pub seen: Shown,
}

impl Change {
    /// What the engine saw `changed` (by memory name), seen now.
    pub(crate) fn new(changed: Changed, unreadable: Option<String>, seen: Shown) -> Self {
        Self {
            at_ms: now_ms(),
            added: changed.added,
            removed: changed.removed,
            changed: changed.changed,
            unreadable,
            seen,
        }
    }

    /// Whether a person is told of it: the folder's memories changed, or it stopped reading
    /// (a `.memory` manifest that moves while its set does not read is shown, not said).
    pub fn is_news(&self) -> bool {
        self.unreadable.is_some() || self.seen.is_readable()
    }
}

/// Where a watcher's news goes; called on the watcher's own thread.
pub type WatchSink = Box<dyn Fn(Watched) + Send + 'static>;

/// A running watch; dropping it stops the watch.
pub struct Watcher {
    _engine: Box<dyn Send>,
}

impl Watcher {
    pub(crate) fn new(engine: impl Send + 'static) -> Self {
        Self {
            _engine: Box::new(engine),
        }
    }
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watcher")
    }
}

/// What recording the folder's outside changes did (`memwb watch --record`).
#[derive(Debug, Clone)]
pub enum Recorded {
    /// A change made outside memwb, journaled with its previous content (undoable).
    Journaled(Box<Entry>),
    /// Something went wrong that stops neither the watch nor the next recording.
    Warning(String),
}

/// Where a recording watch's news goes; called on the watcher's own thread.
pub type RecordSink = Box<dyn Fn(Recorded) + Send + 'static>;
