//! The journal: every change memwb makes, in `.memory/.memwb/journal.jsonl`, written under the
//! store lock with its commit.
//!
//! One JSON value per line. Before a commit point the change's entry is appended as an intent,
//! `{"intent":{"entry":…,"expect":…,"decision":…}}`, and fsynced: the one fsync the journal adds
//! to a commit. After the commit point `{"committed":N}` is appended without an fsync (the next
//! intent's fsync, or recovery, makes it durable); a change that failed before its commit point
//! appends `{"aborted":N}`. An intent without a mark (a crash, or a mark that could not be
//! written) is decided by the next run under the lock from the folder itself, as
//! `Intent::took_effect` says, so an entry is never lost and never invented.
//!
//! The previous layout is still read: a line that is a bare entry is a committed entry, and an
//! intent left in `journal.pending.json` is finished like one in the journal.

mod kept;
mod newest;

use std::collections::HashMap;
use std::fmt::Debug;
use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub(crate) use super::entry::{DROPPED_DIR, DroppedFile};
pub use super::entry::{
    Entry, EntryMeta, JournalRecord, Op, ProposalRef, RedactedImage, Side, StrayAction, StrayChange,
};
use super::error::ReviewError;
use super::filed::{self, Decision};
use super::intent::Intent;
use super::state::StateDir;
pub use super::state::{JournalHome, MEMWB_DIR};
use crate::fs::FsError;
use crate::fs::{IoHooks, IoOp};
use crate::time::now_ms;
pub(crate) use kept::KeptTail;

pub const JOURNAL_FILE: &str = "journal.jsonl";
/// Where the previous layout kept an intent between a commit and its entry.
const LEGACY_PENDING_FILE: &str = "journal.pending.json";
/// A torn last line (an append cut short by a crash) is moved to `journal.torn.<ms>`.
pub const TORN_PREFIX: &str = "journal.torn.";
/// `memwb repair --journal` moves lines that do not parse to `journal.damaged.<ms>`.
pub const DAMAGED_PREFIX: &str = "journal.damaged.";
/// The most of `journal.jsonl` that is read whole (`log`, `check`, undo); a longer journal is
/// refused with this limit in the error. Appends and new ids read only its last line.
pub const MAX_JOURNAL_BYTES: usize = 256 * 1024 * 1024;
/// The longest journal line read from the end (a consolidation of 200 full records is ~1 MB).
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// The most of a legacy `journal.pending.json` that is read.
const MAX_INTENT_BYTES: usize = MAX_LINE_BYTES;

/// One line of the journal.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
enum Marker {
    Intent(Box<Intent>),
    Committed(u64),
    Aborted(u64),
}

#[derive(Debug, Clone)]
enum Line {
    Marker(Marker),
    /// The previous layout: a committed entry.
    Entry(Box<Entry>),
}

fn parse_line(bytes: &[u8]) -> Result<Line, String> {
    let marker = match serde_json::from_slice::<Marker>(bytes) {
        Ok(marker) => return Ok(Line::Marker(marker)),
        Err(e) => e,
    };
    match serde_json::from_slice::<Entry>(bytes) {
        Ok(entry) => Ok(Line::Entry(Box::new(entry))),
        Err(entry) => {
            let is_marker = [&b"{\"intent\""[..], b"{\"committed\"", b"{\"aborted\""]
                .iter()
                .any(|p| bytes.starts_with(p));
            Err(if is_marker { marker } else { entry }.to_string())
        }
    }
}

impl Journal {
    /// A line as this journal's format reads it: an entry written before `indexes` existed
    /// gets them from the whole files it holds that the format keeps as an index.
    fn parse(&self, bytes: &[u8]) -> Result<Line, String> {
        let mut line = parse_line(bytes)?;
        let entry = match &mut line {
            Line::Entry(entry) => &mut **entry,
            Line::Marker(Marker::Intent(intent)) => &mut intent.entry,
            Line::Marker(_) => return Ok(line),
        };
        if entry.indexes.is_empty() {
            let index_files = self.home.index_files();
            entry.indexes = (entry.files.iter().map(|image| &image.file))
                .filter(|file| index_files.contains(&file.as_str()))
                .cloned()
                .collect();
        }
        Ok(line)
    }
}

/// A journal line that is not a valid entry, intent or mark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Damage {
    /// 1-based.
    pub line: usize,
    pub reason: String,
}

/// What `Journal::repair` moved aside.
#[derive(Debug, Clone)]
pub struct Repaired {
    pub damaged: Vec<Damage>,
    pub torn: bool,
    pub moved_to: PathBuf,
}

/// The whole journal as read, never failing on a bad line.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    /// Committed entries, oldest first.
    pub entries: Vec<Entry>,
    pub damaged: Vec<Damage>,
    /// Bytes after the last newline: an append cut short (or in progress).
    pub torn: u64,
    /// An intent not marked yet: a change in progress, or one a crash interrupted (the next
    /// run under the lock decides it).
    pub pending: Option<Entry>,
}

/// The end of the journal file.
struct Tail {
    len: u64,
    /// Length up to and including the last `\n`; less than `len` after a torn append.
    complete: u64,
    last_line: Option<Vec<u8>>,
}

#[derive(Debug, Clone)]
pub struct Journal {
    home: Arc<dyn JournalHome>,
}

fn invalid(path: PathBuf, rule: String) -> ReviewError {
    ReviewError::DataInvalid {
        what: "journal",
        path,
        rule,
    }
}

impl Journal {
    /// The journal kept in `home` (a backend's constructor calls this).
    pub(crate) fn at(home: impl JournalHome + 'static) -> Self {
        Self {
            home: Arc::new(home),
        }
    }

    pub fn path(&self) -> PathBuf {
        self.home.dir().join(JOURNAL_FILE)
    }

    /// The directory the journal is in, if it exists.
    fn open_state(&self) -> Result<Option<StateDir>, ReviewError> {
        self.home.open_state()
    }

    /// The directory the journal is in, created if needed (a Claude Code folder's proposals
    /// live there too).
    pub(crate) fn create_state(&self) -> Result<StateDir, ReviewError> {
        self.home.create_state()
    }

    fn hooks(&self) -> &IoHooks {
        self.home.hooks()
    }

    /// Every committed entry, oldest first. Lines that do not parse are skipped with a warning
    /// in the log; [`Journal::scan`] says which.
    pub fn entries(&self) -> Result<Vec<Entry>, ReviewError> {
        let scan = self.scan()?;
        for damage in &scan.damaged {
            tracing::warn!(line = damage.line, reason = %damage.reason, "skipping a damaged journal line");
        }
        Ok(scan.entries)
    }

    /// The whole journal (at most [`MAX_JOURNAL_BYTES`]), with what is damaged in it.
    pub fn scan(&self) -> Result<Scan, ReviewError> {
        let mut scan = Scan::default();
        let Some(state) = self.open_state()? else {
            return Ok(scan);
        };
        if let Some(intent) = self.legacy_intent(&state)? {
            scan.pending = Some(intent.entry);
        }
        let Some(bytes) = state.read(JOURNAL_FILE, MAX_JOURNAL_BYTES)? else {
            return Ok(scan);
        };
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        scan.torn = (bytes.len() - complete) as u64;
        let mut open: HashMap<u64, (usize, Entry)> = HashMap::new();
        for (n, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
            let number = n + 1;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let mut damage = |reason: String| {
                scan.damaged.push(Damage {
                    line: number,
                    reason,
                })
            };
            match self.parse(line) {
                Err(e) => damage(format!("not a valid entry: {e}")),
                Ok(Line::Entry(entry)) => scan.entries.push(*entry),
                Ok(Line::Marker(Marker::Intent(intent))) => {
                    let id = intent.entry.id;
                    if let Some((earlier, _)) = open.insert(id, (number, intent.entry)) {
                        scan.damaged.push(Damage {
                            line: earlier,
                            reason: format!(
                                "entry #{id} was begun but never marked written or failed"
                            ),
                        });
                    }
                }
                Ok(Line::Marker(Marker::Committed(id))) => match open.remove(&id) {
                    Some((_, entry)) => scan.entries.push(entry),
                    None => damage(format!("entry #{id} is marked written but was never begun")),
                },
                Ok(Line::Marker(Marker::Aborted(id))) => {
                    open.remove(&id);
                }
            }
        }
        let mut unmarked: Vec<(usize, Entry)> = open.into_values().collect();
        unmarked.sort_by_key(|(line, _)| *line);
        if let Some((_, last)) = unmarked.pop() {
            scan.pending = Some(last);
        }
        for (line, entry) in unmarked {
            scan.damaged.push(Damage {
                line,
                reason: format!(
                    "entry #{} was begun but never marked written or failed",
                    entry.id
                ),
            });
        }
        scan.damaged.sort_by_key(|d| d.line);
        Ok(scan)
    }

    /// Whether an intent waits for its mark (see [`Journal::recover`]).
    pub fn has_pending(&self) -> bool {
        let Ok(Some(state)) = self.open_state() else {
            return false;
        };
        state.exists(LEGACY_PENDING_FILE)
            || matches!(
                self.last_line(&state),
                Ok(Some(Line::Marker(Marker::Intent(_))))
            )
    }

    fn legacy_intent(&self, state: &StateDir) -> Result<Option<Intent>, ReviewError> {
        let Some(bytes) = state.read(LEGACY_PENDING_FILE, MAX_INTENT_BYTES)? else {
            return Ok(None);
        };
        Ok(serde_json::from_slice(&bytes).ok())
    }

    /// The last complete line, parsed; `None` for an empty or missing journal.
    fn last_line(&self, state: &StateDir) -> Result<Option<Line>, ReviewError> {
        let Some(line) = self.tail(state)?.last_line else {
            return Ok(None);
        };
        parse_line(&line).map(Some).map_err(|e| {
            invalid(
                self.path(),
                format!(
                    "its last line is not a valid entry ({e}); `memwb repair --journal` moves it aside"
                ),
            )
        })
    }

    pub(crate) fn next_id(&self) -> Result<u64, ReviewError> {
        let Some(state) = self.open_state()? else {
            return Ok(1);
        };
        Ok(match self.last_line(&state)? {
            None => 1,
            Some(Line::Entry(entry)) => entry.id + 1,
            Some(Line::Marker(Marker::Intent(intent))) => intent.entry.id + 1,
            Some(Line::Marker(Marker::Committed(id))) => id + 1,
            // An id whose change never happened is given again.
            Some(Line::Marker(Marker::Aborted(id))) => id,
        })
    }

    /// The end of the journal, read backwards only as far as its last complete line: what an
    /// append and the next id need, without reading a journal that only grows.
    fn tail(&self, state: &StateDir) -> Result<Tail, ReviewError> {
        const CHUNK: u64 = 8192;
        let path = self.path();
        let Some(file) = state.open_file(JOURNAL_FILE)? else {
            return Ok(Tail {
                len: 0,
                complete: 0,
                last_line: None,
            });
        };
        let len = file
            .metadata()
            .map_err(|e| FsError::io("stat", &path, e))?
            .len();
        let (mut start, mut bytes) = (len, Vec::new());
        loop {
            if let Some(end) = bytes.iter().rposition(|&b| b == b'\n') {
                let line_start = bytes[..end]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map(|i| i + 1);
                if line_start.is_some() || start == 0 {
                    let from = line_start.unwrap_or(0);
                    return Ok(Tail {
                        len,
                        complete: start + end as u64 + 1,
                        last_line: Some(bytes[from..end].to_vec()),
                    });
                }
            } else if start == 0 {
                return Ok(Tail {
                    len,
                    complete: 0,
                    last_line: None,
                });
            }
            if len - start > MAX_LINE_BYTES as u64 + CHUNK {
                return Err(invalid(
                    path,
                    format!(
                        "its last line is longer than {MAX_LINE_BYTES} bytes; `memwb repair --journal` moves it aside"
                    ),
                ));
            }
            let step = CHUNK.min(start);
            start -= step;
            let mut chunk = vec![0; step as usize];
            file.read_exact_at(&mut chunk, start)
                .map_err(|e| FsError::io("read", &path, e))?;
            chunk.extend_from_slice(&bytes);
            bytes = chunk;
        }
    }

    /// Appends one line; `durable` fsyncs it. A torn last line is first moved aside to
    /// `journal.torn.<ms>`, so that nothing of it is lost and the new line starts clean.
    fn append(&self, marker: &Marker, durable: bool, op: IoOp) -> Result<(), ReviewError> {
        let state = self.create_state()?;
        let path = self.path();
        let mut line =
            serde_json::to_vec(marker).map_err(|e| invalid(path.clone(), e.to_string()))?;
        line.push(b'\n');
        self.hooks().step(op, "append to", &path)?;
        let tail = self.tail(&state)?;
        let (mut file, created) = state.open_append(JOURNAL_FILE)?;
        if tail.complete < tail.len {
            self.move_torn_aside(&state, &file, &tail)?;
        }
        file.write_all(&line)
            .map_err(|e| FsError::io("append to", &path, e))?;
        if durable {
            file.sync_data()
                .map_err(|e| FsError::io("fsync", &path, e))?;
        }
        if created {
            state.sync()?;
        }
        Ok(())
    }

    fn move_torn_aside(
        &self,
        state: &StateDir,
        file: &File,
        tail: &Tail,
    ) -> Result<(), ReviewError> {
        let path = self.path();
        let reader = state
            .open_file(JOURNAL_FILE)?
            .ok_or_else(|| FsError::io("open", &path, std::io::ErrorKind::NotFound.into()))?;
        let mut torn = vec![0; (tail.len - tail.complete) as usize];
        reader
            .read_exact_at(&mut torn, tail.complete)
            .map_err(|e| FsError::io("read", &path, e))?;
        let aside = format!("{TORN_PREFIX}{}", now_ms());
        state.create_exclusive(&aside, &torn)?;
        file.set_len(tail.complete)
            .map_err(|e| FsError::io("truncate a torn line of", &path, e))?;
        tracing::warn!(
            moved_to = %state.file_path(&aside).display(),
            bytes = torn.len(),
            "the journal's last line was torn (an interrupted append); moved it aside"
        );
        Ok(())
    }

    pub(crate) fn write_intent(&self, intent: &Intent) -> Result<(), ReviewError> {
        self.append(
            &Marker::Intent(Box::new(intent.clone())),
            true,
            IoOp::JournalIntent,
        )
    }

    /// The intent the journal ends with, not marked yet: a change in progress or one a crash
    /// interrupted (call under the lock).
    pub(crate) fn pending_intent(&self) -> Result<Option<Intent>, ReviewError> {
        let Some(state) = self.open_state()? else {
            return Ok(None);
        };
        Ok(match self.last_line(&state)? {
            Some(Line::Marker(Marker::Intent(intent))) => Some(*intent),
            _ => None,
        })
    }

    pub(crate) fn mark(&self, id: u64, committed: bool) -> Result<(), ReviewError> {
        let marker = if committed {
            Marker::Committed(id)
        } else {
            Marker::Aborted(id)
        };
        self.append(&marker, false, IoOp::JournalMark)
    }

    /// After the commit point: applies the decision the intent carries, then marks it
    /// committed (in that order, so that recovery can still apply the decision).
    pub(crate) fn finish(&self, intent: &Intent) -> Result<(), ReviewError> {
        if let Some(decision) = &intent.decision {
            filed::record_decision_in(&self.create_state()?, decision, intent.entry.id)?;
        }
        self.mark(intent.entry.id, true)
    }

    /// Before the commit point, the change failed: its id is free again.
    pub(crate) fn abort(&self, intent: &Intent) {
        if let Err(e) = self.mark(intent.entry.id, false) {
            tracing::error!(error = %e, "could not mark an aborted journal intent; the next change decides it");
        }
    }

    /// Decides an intent a crash (or a failed mark) left behind, by whether the change it
    /// announced `took_effect` in the folder (the format's engine says). Call under the lock.
    pub(crate) fn recover_with(
        &self,
        took_effect: &dyn Fn(&Intent) -> Result<bool, ReviewError>,
    ) -> Result<(), ReviewError> {
        let Some(state) = self.open_state()? else {
            return Ok(());
        };
        self.recover_legacy(took_effect, &state)?;
        let Some(Line::Marker(Marker::Intent(intent))) = self.last_line(&state)? else {
            return Ok(());
        };
        if took_effect(&intent)? {
            self.finish(&intent)?;
            tracing::info!(
                entry = intent.entry.id,
                "recovered a journal entry after a crash"
            );
        } else {
            self.mark(intent.entry.id, false)?;
        }
        Ok(())
    }

    /// An intent in `journal.pending.json`, from the previous layout.
    fn recover_legacy(
        &self,
        took_effect: &dyn Fn(&Intent) -> Result<bool, ReviewError>,
        state: &StateDir,
    ) -> Result<(), ReviewError> {
        if !state.exists(LEGACY_PENDING_FILE) {
            return Ok(());
        }
        // A torn intent was never complete, so its change never started.
        if let Some(intent) = self.legacy_intent(state)? {
            let already = self.scan()?.entries.iter().any(|e| e.id == intent.entry.id);
            if already || took_effect(&intent)? {
                if !already {
                    self.write_intent(&intent)?;
                }
                self.finish(&intent)?;
            }
        }
        state.remove(LEGACY_PENDING_FILE);
        Ok(())
    }

    /// Journals a change that is not a store transaction (rejecting a proposal), under the lock.
    pub(crate) fn record_decision_only(
        &self,
        meta: EntryMeta,
        decision: Decision,
    ) -> Result<Entry, ReviewError> {
        let entry = Entry {
            stray: None,
            ..Entry::new(
                self.next_id()?,
                now_ms(),
                meta.op.unwrap_or(Op::Reject),
                &meta,
            )
        };
        let intent = Intent {
            entry: entry.clone(),
            expect: super::intent::Expect::Decided {
                proposal: decision.proposal.clone(),
            },
            decision: Some(decision),
        };
        self.write_intent(&intent)?;
        self.finish(&intent)?;
        Ok(entry)
    }

    /// Moves every line that does not parse, and a torn last line, to `journal.damaged.<ms>`,
    /// and rewrites the journal without them (atomically), under the store lock. Returns the
    /// damaged lines moved, whether a torn line was among them, and where they went.
    pub fn repair(&self) -> Result<Option<Repaired>, ReviewError> {
        let _lock = self.home.lock()?;
        let Some(state) = self.open_state()? else {
            return Ok(None);
        };
        let Some(bytes) = state.read(JOURNAL_FILE, MAX_JOURNAL_BYTES)? else {
            return Ok(None);
        };
        let (mut kept, mut moved, mut damaged) = (Vec::new(), Vec::new(), Vec::new());
        let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        let torn = lines.pop().filter(|rest| !rest.is_empty());
        for (n, line) in lines.into_iter().enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match parse_line(line) {
                Ok(_) => {
                    kept.extend_from_slice(line);
                    kept.push(b'\n');
                }
                Err(e) => {
                    damaged.push(Damage {
                        line: n + 1,
                        reason: format!("not a valid entry: {e}"),
                    });
                    moved.extend_from_slice(line);
                    moved.push(b'\n');
                }
            }
        }
        if let Some(torn) = torn {
            moved.extend_from_slice(torn);
        }
        if moved.is_empty() {
            return Ok(None);
        }
        let aside = format!("{DAMAGED_PREFIX}{}", now_ms());
        state.create_exclusive(&aside, &moved)?;
        state.replace(JOURNAL_FILE, &kept)?;
        Ok(Some(Repaired {
            damaged,
            torn: torn.is_some(),
            moved_to: state.file_path(&aside),
        }))
    }
}
