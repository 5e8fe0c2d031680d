//! The journal's tail kept parsed across readings of one open folder: the workbench reads the
//! newest entries after every job, and a reading parses only the lines appended since the one
//! before, not the whole tail again (a 200-file entry is hundreds of kilobytes of JSON).
//!
//! What is kept is trusted only while the journal is the same file (device and inode) that
//! only grew: the bytes just before where the last reading stopped must still be there. Any
//! other journal (replaced, truncated, rewritten, grown by more than one longest line) is read
//! from its end again, as [`Journal::last_entries`] reads it, and kept from there.

use std::collections::VecDeque;
use std::fs::File;
use std::ops::ControlFlow;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::newest::Settled;
use super::{Entry, JOURNAL_FILE, Journal, Line, MAX_LINE_BYTES, Marker};
use crate::fs::FsError;
use crate::review::error::ReviewError;

/// How many bytes before where a reading stopped the next one reads again and compares, to
/// tell a journal that only grew from one rewritten in place (a journal replaced by a rename,
/// as `repair --journal` replaces it, is a new inode). A rewrite that keeps the inode, the
/// length read so far and these bytes goes unseen; memwb never rewrites the journal in place.
const CHECKED_BYTES: usize = 4096;

/// The newest entries of one folder's journal as the last reading left them, shared by an
/// open folder and its clones (the workbench's jobs and its watcher read on clones).
#[derive(Debug)]
pub(crate) struct KeptTail {
    kept: Mutex<Option<Kept>>,
    checked_bytes: usize,
}

impl Default for KeptTail {
    fn default() -> Self {
        Self {
            kept: Mutex::new(None),
            checked_bytes: CHECKED_BYTES,
        }
    }
}

/// A journal read up to `parsed_to` (its whole lines; a torn last line waits).
#[derive(Debug)]
struct Kept {
    path: PathBuf,
    count: usize,
    /// Device and inode of the file read.
    file: (u64, u64),
    parsed_to: u64,
    /// The bytes just before `parsed_to`, at most `checked_bytes` of them.
    checked: Vec<u8>,
    /// Committed entries and intents still waiting for their mark, in the journal's order (an
    /// entry takes the place of its intent's line, as `last_entries` orders them).
    slots: VecDeque<Slot>,
    /// How many of `slots` are committed entries: at most `count`.
    committed: usize,
}

#[derive(Debug)]
enum Slot {
    Committed(Arc<Entry>),
    Waiting(Arc<Entry>),
}

impl Kept {
    /// The committed entries kept, oldest first.
    fn entries(&self) -> Vec<Arc<Entry>> {
        (self.slots.iter())
            .filter_map(|slot| match slot {
                Slot::Committed(entry) => Some(Arc::clone(entry)),
                Slot::Waiting(_) => None,
            })
            .collect()
    }

    fn waiting(&self, id: u64) -> Option<usize> {
        (self.slots.iter()).rposition(|slot| matches!(slot, Slot::Waiting(entry) if entry.id == id))
    }

    /// Takes a line appended after what was read. An intent's fate is its id's first mark
    /// after it (a later intent of the same id takes the marks after it instead); a mark of an
    /// intent no longer kept belongs to one older than every entry kept, which stays out.
    fn take(&mut self, line: Line) {
        match line {
            Line::Entry(entry) => {
                self.slots.push_back(Slot::Committed(Arc::new(*entry)));
                self.committed += 1;
            }
            Line::Marker(Marker::Intent(intent)) => {
                if let Some(at) = self.waiting(intent.entry.id) {
                    self.slots.remove(at);
                }
                self.slots.push_back(Slot::Waiting(Arc::new(intent.entry)));
            }
            Line::Marker(Marker::Committed(id)) => {
                if let Some(at) = self.waiting(id)
                    && let Some(Slot::Waiting(entry)) = self.slots.remove(at)
                {
                    self.slots.insert(at, Slot::Committed(entry));
                    self.committed += 1;
                }
            }
            Line::Marker(Marker::Aborted(id)) => {
                if let Some(at) = self.waiting(id) {
                    self.slots.remove(at);
                }
            }
        }
        self.trim();
    }

    /// Keeps the newest `count` entries and the intents after the oldest of them: once
    /// `count` are kept, an intent before them can only ever become an older entry.
    fn trim(&mut self) {
        while self.committed > self.count {
            if let Some(Slot::Committed(_)) = self.slots.pop_front() {
                self.committed -= 1;
            }
        }
        if self.committed == self.count {
            while let Some(Slot::Waiting(_)) = self.slots.front() {
                self.slots.pop_front();
            }
        }
    }
}

impl KeptTail {
    #[cfg(test)]
    fn checking(checked_bytes: usize) -> Self {
        Self {
            checked_bytes,
            ..Self::default()
        }
    }
}

impl Journal {
    /// What [`Journal::last_entries`] answers, shared: from what `kept` holds of an earlier
    /// reading of this journal plus the lines appended since, or read from the end again when
    /// the journal is not the one that reading left (see [`KeptTail`]).
    pub(crate) fn last_entries_kept(
        &self,
        count: usize,
        kept: &KeptTail,
    ) -> Result<Vec<Arc<Entry>>, ReviewError> {
        let mut guard = kept.kept.lock().unwrap_or_else(|poisoned| {
            // A reading that panicked may have taken some appended lines without moving
            // `parsed_to` past them: kept on, the next reading would take them again. What was
            // kept is dropped, and this reading reads from the journal's end.
            let mut guard = poisoned.into_inner();
            *guard = None;
            kept.kept.clear_poison();
            guard
        });
        let file = match self.open_state()? {
            Some(state) => state.open_file(JOURNAL_FILE)?,
            None => None,
        };
        let (Some(file), true) = (file, count > 0) else {
            *guard = None;
            return Ok(Vec::new());
        };
        let path = self.path();
        let meta = file.metadata().map_err(|e| FsError::io("stat", &path, e))?;
        let (len, identity) = (meta.len(), (meta.dev(), meta.ino()));
        if let Some(kept_tail) = guard.as_mut()
            && kept_tail.path == path
            && kept_tail.count == count
            && kept_tail.file == identity
            && len >= kept_tail.parsed_to
            && len - kept_tail.parsed_to <= MAX_LINE_BYTES as u64
            && self.read_appended(kept_tail, &file, len, kept.checked_bytes)?
        {
            return Ok(kept_tail.entries());
        }
        *guard = None;
        let fresh = self.read_tail(&file, len, count, identity, kept.checked_bytes)?;
        let entries = fresh.entries();
        *guard = Some(fresh);
        Ok(entries)
    }

    /// Parses what was appended to `kept`'s journal since it was read, if the bytes before
    /// are still the ones it read and no new line is longer than a line may be; `false`
    /// (with `kept` left to be dropped) when the journal is to be read from its end again.
    fn read_appended(
        &self,
        kept: &mut Kept,
        file: &File,
        len: u64,
        checked_bytes: usize,
    ) -> Result<bool, ReviewError> {
        let from = kept.parsed_to - kept.checked.len() as u64;
        let mut bytes = vec![0; (len - from) as usize];
        file.read_exact_at(&mut bytes, from)
            .map_err(|e| FsError::io("read", self.path(), e))?;
        let (before, appended) = bytes.split_at(kept.checked.len());
        if before != kept.checked {
            return Ok(false);
        }
        let Some(end) = appended.iter().rposition(|&b| b == b'\n') else {
            return Ok(true);
        };
        let whole = &appended[..end];
        if whole
            .split(|&b| b == b'\n')
            .any(|line| line.len() > MAX_LINE_BYTES)
        {
            return Ok(false);
        }
        for line in whole.split(|&b| b == b'\n') {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if let Ok(line) = self.parse(line) {
                kept.take(line);
            }
        }
        let read = before.len() + end + 1;
        kept.parsed_to = from + read as u64;
        kept.checked = bytes[read.saturating_sub(checked_bytes)..read].to_vec();
        Ok(true)
    }

    /// The journal's newest `count` entries read from its end, as `last_entries` reads them,
    /// with the intents after the oldest of them that wait for a mark.
    fn read_tail(
        &self,
        file: &File,
        len: u64,
        count: usize,
        identity: (u64, u64),
        checked_bytes: usize,
    ) -> Result<Kept, ReviewError> {
        let mut slots = VecDeque::new();
        let mut committed = 0;
        let parsed_to = self.settled_backwards(file, len, |settled| match settled {
            Settled::Waiting(entry) => {
                slots.push_front(Slot::Waiting(Arc::new(entry)));
                ControlFlow::Continue(())
            }
            Settled::Committed(entry) => {
                slots.push_front(Slot::Committed(Arc::new(entry)));
                committed += 1;
                if committed < count {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            }
        })?;
        let checked_from = parsed_to.saturating_sub(checked_bytes as u64);
        let mut checked = vec![0; (parsed_to - checked_from) as usize];
        file.read_exact_at(&mut checked, checked_from)
            .map_err(|e| FsError::io("read", self.path(), e))?;
        Ok(Kept {
            path: self.path(),
            count,
            file: identity,
            parsed_to,
            checked,
            slots,
            committed,
        })
    }
}

#[cfg(test)]
#[path = "kept_tests.rs"]
mod tests;
