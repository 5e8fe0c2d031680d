//! Reading the journal from its end: `log --last`, `undo`, the workbench's History and the
//! hook read only as many entries as they show, however long the journal has grown.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::ops::ControlFlow;
use std::os::unix::fs::FileExt;

use super::{Entry, JOURNAL_FILE, Journal, Line, MAX_LINE_BYTES, Marker, invalid};
use crate::fs::FsError;
use crate::review::error::ReviewError;

/// How much of the journal one read takes, from the end.
const CHUNK: u64 = 64 * 1024;

/// What the marks read so far (later in the file) said of an id.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Committed,
    Aborted,
}

/// An entry as the journal read from its end settles it.
pub(super) enum Settled {
    /// Committed: a line of its own, or an intent whose first mark after it commits it.
    Committed(Entry),
    /// An intent no mark has settled yet (the newest intent of its id): a later append may
    /// commit it.
    Waiting(Entry),
}

impl Journal {
    /// Calls `visit` with each committed entry, newest first, reading the journal backwards
    /// only until `visit` breaks. Lines that do not parse and a torn last line are skipped
    /// ([`Journal::scan`] reports them); an intent without its mark is not an entry yet.
    pub fn newest_first(
        &self,
        mut visit: impl FnMut(Entry) -> ControlFlow<()>,
    ) -> Result<(), ReviewError> {
        let Some(state) = self.open_state()? else {
            return Ok(());
        };
        let path = self.path();
        let Some(file) = state.open_file(JOURNAL_FILE)? else {
            return Ok(());
        };
        let len = file
            .metadata()
            .map_err(|e| FsError::io("stat", &path, e))?
            .len();
        self.settled_backwards(&file, len, |settled| match settled {
            Settled::Committed(entry) => visit(entry),
            Settled::Waiting(_) => ControlFlow::Continue(()),
        })?;
        Ok(())
    }

    /// Calls `visit` with each entry of the first `len` bytes of `file` (the journal) as its
    /// marks settle it, newest first, until `visit` breaks: an intent's fate is its id's first
    /// mark after it (a later intent of the same id takes the marks after that one); an
    /// aborted intent is not visited. Returns where the whole lines end.
    pub(super) fn settled_backwards(
        &self,
        file: &File,
        len: u64,
        mut visit: impl FnMut(Settled) -> ControlFlow<()>,
    ) -> Result<u64, ReviewError> {
        // Marks seen (later in the file) and not yet taken by their intent.
        let mut marks: HashMap<u64, Mark> = HashMap::new();
        // Ids an intent later in the file took: an earlier intent's marks come before it.
        let mut later_intents: HashSet<u64> = HashSet::new();
        self.lines_backwards(file, len, |line| match self.parse(line) {
            Ok(Line::Entry(entry)) => visit(Settled::Committed(*entry)),
            Ok(Line::Marker(Marker::Committed(id))) => {
                marks.insert(id, Mark::Committed);
                ControlFlow::Continue(())
            }
            Ok(Line::Marker(Marker::Aborted(id))) => {
                marks.insert(id, Mark::Aborted);
                ControlFlow::Continue(())
            }
            Ok(Line::Marker(Marker::Intent(intent))) => {
                let id = intent.entry.id;
                let newest = later_intents.insert(id);
                match marks.remove(&id) {
                    Some(Mark::Committed) => visit(Settled::Committed(intent.entry)),
                    Some(Mark::Aborted) => ControlFlow::Continue(()),
                    None if newest => visit(Settled::Waiting(intent.entry)),
                    None => ControlFlow::Continue(()),
                }
            }
            Err(_) => ControlFlow::Continue(()),
        })
    }

    /// Calls `take` with each whole, non-blank line of the first `len` bytes of `file` (the
    /// journal), last first, until it breaks; bytes after the last newline (a torn or
    /// in-progress append) are left out. Returns where the whole lines end.
    pub(super) fn lines_backwards(
        &self,
        file: &File,
        len: u64,
        mut take: impl FnMut(&[u8]) -> ControlFlow<()>,
    ) -> Result<u64, ReviewError> {
        let path = self.path();
        // `rest` holds the bytes of `[start, end)` not yet taken, as the chunks read, last read
        // last: a line's beginning waits for the chunk before it. Only a new chunk is searched
        // for a newline and the pieces are joined once a line is whole, so a line of any length
        // costs its own length, not its length times its number of chunks.
        let (mut start, mut complete) = (len, None);
        let (mut rest, mut rest_len): (Vec<Vec<u8>>, usize) = (Vec::new(), 0);
        while start > 0 {
            let step = CHUNK.min(start);
            start -= step;
            let mut chunk = vec![0; step as usize];
            file.read_exact_at(&mut chunk, start)
                .map_err(|e| FsError::io("read", &path, e))?;
            if complete.is_none() {
                // Bytes after the last newline are a torn (or in-progress) append.
                match chunk.iter().rposition(|&b| b == b'\n') {
                    Some(end) => {
                        chunk.truncate(end + 1);
                        complete = Some(start + end as u64 + 1);
                    }
                    None => continue,
                }
            }
            // Every line after the chunk's first newline is whole.
            let Some(first) = chunk.iter().position(|&b| b == b'\n') else {
                rest_len += chunk.len();
                rest.push(chunk);
                if rest_len > MAX_LINE_BYTES {
                    return Err(long_line(self));
                }
                continue;
            };
            let whole = joined(chunk.split_off(first + 1), &mut rest);
            if let ControlFlow::Break(()) = take_lines(&whole, &mut take) {
                return Ok(complete.unwrap_or(0));
            }
            rest_len = chunk.len();
            rest.push(chunk);
            if rest_len > MAX_LINE_BYTES {
                return Err(long_line(self));
            }
        }
        if complete.is_some() {
            let _ = take_lines(&joined(Vec::new(), &mut rest), &mut take);
        }
        Ok(complete.unwrap_or(0))
    }

    /// The last `count` committed entries, oldest first.
    pub fn last_entries(&self, count: usize) -> Result<Vec<Entry>, ReviewError> {
        let mut entries = Vec::with_capacity(count.min(1024));
        if count > 0 {
            self.newest_first(|entry| {
                entries.push(entry);
                if entries.len() < count {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            })?;
        }
        entries.reverse();
        Ok(entries)
    }

    /// The newest committed entry `wanted` accepts, read from the end.
    pub fn newest_where(
        &self,
        mut wanted: impl FnMut(&Entry) -> bool,
    ) -> Result<Option<Entry>, ReviewError> {
        let mut found = None;
        self.newest_first(|entry| {
            if wanted(&entry) {
                found = Some(entry);
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })?;
        Ok(found)
    }

    /// What a plain `undo` reverts: the newest change not undone yet. Undo entries are not
    /// themselves candidates, and an entry an (effective) undo reverted is skipped, so a
    /// second `undo` steps further back instead of re-doing the first (`undo N` still undoes
    /// any entry, an undo included). Same rule on both formats and in the workbench.
    pub fn newest_undoable(&self) -> Result<Option<Entry>, ReviewError> {
        let mut undone = std::collections::HashSet::new();
        self.newest_where(|entry| {
            if undone.contains(&entry.id) {
                return false;
            }
            if let Some(reverted) = entry.undoes {
                undone.insert(reverted);
                return false;
            }
            entry.changed_files()
        })
    }

    /// Entry `id`, read from the end only as far back as it (committed ids only grow).
    pub fn entry(&self, id: u64) -> Result<Option<Entry>, ReviewError> {
        let mut found = None;
        self.newest_first(|entry| {
            if entry.id > id {
                return ControlFlow::Continue(());
            }
            if entry.id == id {
                found = Some(entry);
            }
            ControlFlow::Break(())
        })?;
        Ok(found)
    }
}

/// `head` followed by the pieces of `rest` in file order (the last read is the first in the
/// file); `rest` is left empty.
fn joined(mut head: Vec<u8>, rest: &mut Vec<Vec<u8>>) -> Vec<u8> {
    head.reserve(rest.iter().map(Vec::len).sum());
    for piece in rest.drain(..).rev() {
        head.extend_from_slice(&piece);
    }
    head
}

/// Takes the lines of `bytes` (each ending with a newline) last first.
fn take_lines(bytes: &[u8], take: &mut impl FnMut(&[u8]) -> ControlFlow<()>) -> ControlFlow<()> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    for line in body.rsplit(|&b| b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        take(line)?;
    }
    ControlFlow::Continue(())
}

pub(super) fn long_line(journal: &Journal) -> ReviewError {
    invalid(
        journal.path(),
        format!(
            "a line is longer than {MAX_LINE_BYTES} bytes; `memwb repair --journal` moves it aside"
        ),
    )
}
