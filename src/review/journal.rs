//! The journal: every change memwb makes, appended under the store lock with its commit.
//!
//! Before the commit point the entry is written as an intent (`journal.pending.json`); after
//! it, the entry is appended to `journal.jsonl` (fsynced) and the intent removed. A crash in
//! between leaves the intent, which the next run finishes under the lock: it appends the entry
//! only if the commit really happened, so no entry is lost and none is invented.

use std::collections::HashSet;
use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::error::ReviewError;
use super::proposal::{self, Deciding, Decision};
use super::who::{Who, now_ms};
use crate::store::fsutil::{IoHooks, atomic_replace, create_dir_if_missing, io_err, read_optional};
use crate::store::{
    Commit, CommitObserver, MemorySet, Record, RecordInput, Store, StoreError, StoredRecord,
    manifest,
};

/// memwb's own folder inside `.memory`. The reference agents never scan the folder, and the
/// audit ignores dot-directories, so nothing here is mistaken for a record.
pub const MEMWB_DIR: &str = ".memwb";
pub const JOURNAL_FILE: &str = "journal.jsonl";
const PENDING_FILE: &str = "journal.pending.json";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    Add,
    Set,
    Rm,
    Consolidate,
    RebuildIndex,
    Approve,
    Reject,
    Undo,
    Repair,
}

impl Op {
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Set => "set",
            Op::Rm => "rm",
            Op::Consolidate => "consolidate",
            Op::RebuildIndex => "rebuild-index",
            Op::Approve => "approve",
            Op::Reject => "reject",
            Op::Undo => "undo",
            Op::Repair => "repair",
        }
    }
}

/// A record version as the journal keeps it: its fields and the file that held it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalRecord {
    pub file: String,
    #[serde(flatten)]
    pub record: RecordInput,
}

impl From<&StoredRecord> for JournalRecord {
    fn from(entry: &StoredRecord) -> Self {
        Self {
            file: entry.file.clone(),
            record: entry.record.to_input(),
        }
    }
}

/// The proposal a change came from, with its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposalRef {
    pub id: String,
    pub kind: String,
    pub origin: String,
    pub evidence: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub id: u64,
    /// Unix milliseconds.
    pub at: i64,
    pub op: Op,
    pub who: Who,
    /// Records the change removed or replaced.
    pub before: Vec<JournalRecord>,
    /// Records the change wrote.
    pub after: Vec<JournalRecord>,
    pub proposal: Option<ProposalRef>,
    pub reason: Option<String>,
    /// The entry this one undid.
    pub undoes: Option<u64>,
}

/// What describes a change before it is made.
#[derive(Debug, Clone, Default)]
pub struct EntryMeta {
    pub op: Option<Op>,
    pub proposal: Option<ProposalRef>,
    pub reason: Option<String>,
    pub undoes: Option<u64>,
}

/// How to tell, after a crash, whether the change an intent describes took effect.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum Expect {
    Manifest {
        before: Vec<String>,
        after: Vec<String>,
    },
    Index {
        text: String,
    },
    Decided {
        proposal: String,
    },
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Pending {
    entry: Entry,
    expect: Expect,
    decision: Option<Decision>,
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
    dir: PathBuf,
}

impl Journal {
    pub fn of(store: &Store) -> Self {
        Self {
            dir: store.root().join(MEMWB_DIR),
        }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.join(JOURNAL_FILE)
    }

    pub fn has_pending(&self) -> bool {
        self.pending_path().exists()
    }

    fn pending_path(&self) -> PathBuf {
        self.dir.join(PENDING_FILE)
    }

    pub(crate) fn ensure_dir(&self) -> Result<(), StoreError> {
        create_dir_if_missing(&self.dir)
    }

    /// Every complete entry, oldest first. A torn last line (a crash mid-append) is skipped.
    pub fn entries(&self) -> Result<Vec<Entry>, ReviewError> {
        let path = self.path();
        let Some(bytes) = read_optional(&path)? else {
            return Ok(Vec::new());
        };
        let complete = match bytes.iter().rposition(|&b| b == b'\n') {
            Some(end) => &bytes[..=end],
            None => &[][..],
        };
        complete
            .split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .enumerate()
            .map(|(n, line)| {
                serde_json::from_slice(line).map_err(|e| ReviewError::DataInvalid {
                    what: "journal",
                    path: path.clone(),
                    rule: format!("line {} is not a valid entry: {e}", n + 1),
                })
            })
            .collect()
    }

    /// Appends one entry durably. Call under the store lock.
    fn append(&self, entry: &Entry) -> Result<(), StoreError> {
        self.ensure_dir()?;
        let path = self.path();
        let tail = self.tail()?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io_err("open", &path))?;
        if tail.complete < tail.len {
            file.set_len(tail.complete)
                .map_err(io_err("truncate a torn line of", &path))?;
        }
        let mut line = serde_json::to_vec(entry).map_err(|e| io_err("encode", &path)(e.into()))?;
        line.push(b'\n');
        file.write_all(&line).map_err(io_err("append", &path))?;
        file.sync_all().map_err(io_err("fsync", &path))
    }

    fn next_id(&self) -> Result<u64, ReviewError> {
        let Some(line) = self.tail()?.last_line else {
            return Ok(1);
        };
        let last: Entry = serde_json::from_slice(&line).map_err(|e| ReviewError::DataInvalid {
            what: "journal",
            path: self.path(),
            rule: format!("its last line is not a valid entry: {e}"),
        })?;
        Ok(last.id + 1)
    }

    /// The end of the journal, read backwards only as far as its last complete line: what an
    /// append and the next id need, without reading a journal that only grows.
    fn tail(&self) -> Result<Tail, StoreError> {
        const CHUNK: u64 = 8192;
        let path = self.path();
        let file = match fs::File::open(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Tail {
                    len: 0,
                    complete: 0,
                    last_line: None,
                });
            }
            Err(e) => return Err(io_err("open", &path)(e)),
        };
        let len = file.metadata().map_err(io_err("stat", &path))?.len();
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
            let step = CHUNK.min(start);
            start -= step;
            let mut chunk = vec![0; step as usize];
            file.read_exact_at(&mut chunk, start)
                .map_err(io_err("read", &path))?;
            chunk.extend_from_slice(&bytes);
            bytes = chunk;
        }
    }

    fn write_pending(&self, pending: &Pending) -> Result<(), StoreError> {
        self.ensure_dir()?;
        let path = self.pending_path();
        let bytes = serde_json::to_vec(pending).map_err(|e| io_err("encode", &path)(e.into()))?;
        atomic_replace(&path, &bytes, &IoHooks::default())
    }

    fn remove_pending(&self) {
        let path = self.pending_path();
        if let Err(e) = fs::remove_file(&path)
            && e.kind() != io::ErrorKind::NotFound
        {
            tracing::error!(path = %path.display(), error = %e, "could not remove the journal intent");
        }
    }

    /// Finishes an intent a crash left behind. Call under the store lock.
    pub fn recover(&self, store: &Store) -> Result<(), ReviewError> {
        let path = self.pending_path();
        let Some(bytes) = read_optional(&path)? else {
            return Ok(());
        };
        let Ok(pending) = serde_json::from_slice::<Pending>(&bytes) else {
            // A torn intent was never complete, so its change never started.
            self.remove_pending();
            return Ok(());
        };
        let already = self.entries()?.iter().any(|e| e.id == pending.entry.id);
        if already || took_effect(store, &pending.expect)? {
            self.finish(store, &pending, already)?;
            tracing::info!(
                entry = pending.entry.id,
                "recovered a journal entry after a crash"
            );
        }
        self.remove_pending();
        Ok(())
    }

    fn finish(
        &self,
        store: &Store,
        pending: &Pending,
        already_appended: bool,
    ) -> Result<(), ReviewError> {
        if !already_appended {
            self.append(&pending.entry)?;
        }
        if let Some(decision) = &pending.decision {
            proposal::record_decision(store, decision, pending.entry.id)?;
        }
        Ok(())
    }

    /// Journals a change that is not a store transaction (rejecting a proposal), under the lock.
    pub(crate) fn record_decision_only(
        &self,
        store: &Store,
        meta: EntryMeta,
        decision: Decision,
    ) -> Result<Entry, ReviewError> {
        let entry = Entry {
            id: self.next_id()?,
            at: now_ms(),
            op: meta.op.unwrap_or(Op::Reject),
            who: Who::current(),
            before: Vec::new(),
            after: Vec::new(),
            proposal: meta.proposal,
            reason: meta.reason,
            undoes: meta.undoes,
        };
        let pending = Pending {
            entry: entry.clone(),
            expect: Expect::Decided {
                proposal: decision.proposal.clone(),
            },
            decision: Some(decision),
        };
        self.write_pending(&pending)?;
        self.finish(store, &pending, false)?;
        self.remove_pending();
        Ok(entry)
    }
}

/// The file names the manifest on disk lists now (none when it is missing or unreadable).
fn listed_files(store: &Store) -> Result<Vec<String>, StoreError> {
    Ok(match read_optional(&store.manifest_path())? {
        Some(bytes) => manifest::parse_lenient(&bytes).unwrap_or_default(),
        None => Vec::new(),
    })
}

fn took_effect(store: &Store, expect: &Expect) -> Result<bool, ReviewError> {
    Ok(match expect {
        Expect::Manifest { before, after } => {
            let current = listed_files(store)?;
            if current == *after {
                true
            } else {
                // Another writer may have committed on top: our new files (random names no one
                // else writes) listed, or our removals gone while the manifest moved on.
                let listed: HashSet<&String> = current.iter().collect();
                let before_set: HashSet<&String> = before.iter().collect();
                let added: Vec<&String> =
                    after.iter().filter(|f| !before_set.contains(f)).collect();
                let after_set: HashSet<&String> = after.iter().collect();
                let removed: Vec<&String> =
                    before.iter().filter(|f| !after_set.contains(f)).collect();
                if added.is_empty() && removed.is_empty() {
                    false
                } else if added.is_empty() {
                    current != *before && removed.iter().all(|f| !listed.contains(f))
                } else {
                    added.iter().any(|f| listed.contains(f))
                }
            }
        }
        Expect::Index { text } => {
            read_optional(&store.index_path())?.as_deref() == Some(text.as_bytes())
        }
        Expect::Decided { proposal: id } => proposal::is_decided(store, id)?,
    })
}

/// The observer that journals every transaction of one operation.
pub struct JournalObserver {
    journal: Journal,
    meta: EntryMeta,
    decision: Option<Deciding>,
    pending: Mutex<Option<Pending>>,
    appended: Mutex<Option<Entry>>,
}

impl JournalObserver {
    pub fn new(store: &Store, meta: EntryMeta, decision: Option<Deciding>) -> Arc<Self> {
        Arc::new(Self {
            journal: Journal::of(store),
            meta,
            decision,
            pending: Mutex::new(None),
            appended: Mutex::new(None),
        })
    }

    /// The entry written for the last committed transaction.
    pub fn entry(&self) -> Option<Entry> {
        self.appended
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

impl CommitObserver for JournalObserver {
    fn recover(&self, store: &Store) -> Result<(), StoreError> {
        self.journal.recover(store)?;
        match &self.decision {
            Some(deciding) => Ok(proposal::check_as_read(store, &deciding.read_as)?),
            None => Ok(()),
        }
    }

    fn prepare(
        &self,
        store: &Store,
        before: &MemorySet,
        after: &MemorySet,
    ) -> Result<(), StoreError> {
        let after_files: HashSet<&str> = after.entries.iter().map(|e| e.file.as_str()).collect();
        let before_files: HashSet<&str> = before.entries.iter().map(|e| e.file.as_str()).collect();
        let removed: Vec<JournalRecord> = before
            .entries
            .iter()
            .filter(|e| !after_files.contains(e.file.as_str()))
            .map(JournalRecord::from)
            .collect();
        let written: Vec<JournalRecord> = after
            .entries
            .iter()
            .filter(|e| !before_files.contains(e.file.as_str()))
            .map(JournalRecord::from)
            .collect();
        let op = self
            .meta
            .op
            .unwrap_or(match (removed.is_empty(), written.is_empty()) {
                (true, true) => Op::RebuildIndex,
                (true, false) => Op::Add,
                (false, true) => Op::Rm,
                (false, false) => Op::Set,
            });
        let expect = if op == Op::RebuildIndex {
            Expect::Index {
                text: after.index_text(),
            }
        } else {
            // The manifest as it is on disk, not `before`: a repair's `before` leaves out the
            // entry it fixes, and recovery must see that entry go.
            Expect::Manifest {
                before: listed_files(store)?,
                after: after.files(),
            }
        };
        let pending = Pending {
            entry: Entry {
                id: self.journal.next_id()?,
                at: now_ms(),
                op,
                who: Who::current(),
                before: removed,
                after: written,
                proposal: self.meta.proposal.clone(),
                reason: self.meta.reason.clone(),
                undoes: self.meta.undoes,
            },
            expect,
            decision: self.decision.as_ref().map(|d| d.decision.clone()),
        };
        self.journal.write_pending(&pending)?;
        *self.pending.lock().unwrap_or_else(|p| p.into_inner()) = Some(pending);
        Ok(())
    }

    fn committed(&self, store: &Store, _commit: &Commit) {
        let Some(pending) = self
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
        else {
            return;
        };
        crash_point_for_tests();
        match self.journal.finish(store, &pending, false) {
            Ok(()) => {
                self.journal.remove_pending();
                *self.appended.lock().unwrap_or_else(|p| p.into_inner()) = Some(pending.entry);
            }
            // The intent stays; the next run under the lock appends the entry.
            Err(e) => {
                tracing::error!(error = %e, "committed, but the journal entry is still pending")
            }
        }
    }

    fn aborted(&self, _store: &Store) {
        if self
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .is_some()
        {
            self.journal.remove_pending();
        }
    }
}

/// Debug builds only: `MEMWB_TEST_KILL_AFTER_COMMIT=1` makes the process SIGKILL itself right
/// after a commit point and before its journal entry is appended, so tests can check recovery.
fn crash_point_for_tests() {
    #[cfg(debug_assertions)]
    if std::env::var_os("MEMWB_TEST_KILL_AFTER_COMMIT").is_some() {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &std::process::id().to_string()])
            .status();
        std::thread::sleep(std::time::Duration::from_secs(5));
        std::process::abort();
    }
}

/// Runs one journaled operation on `store`.
pub fn journaled<T>(
    store: &Store,
    meta: EntryMeta,
    decision: Option<Deciding>,
    op: impl FnOnce(&Store) -> Result<T, StoreError>,
) -> Result<(T, Option<Entry>), ReviewError> {
    let observer = JournalObserver::new(store, meta, decision);
    let observed = store.with_observer(observer.clone());
    let value = op(&observed)?;
    Ok((value, observer.entry()))
}

/// Runs one change of the set with its journal entry, the way every command and the workbench
/// do: `op` names the change, and the commit is returned.
pub fn journaled_op(
    store: &Store,
    op: Op,
    change: impl FnOnce(&Store) -> Result<Commit, StoreError>,
) -> Result<Commit, ReviewError> {
    let meta = EntryMeta {
        op: Some(op),
        ..EntryMeta::default()
    };
    Ok(journaled(store, meta, None, change)?.0)
}

/// Reverts one entry as a new, base-checked transaction: the records it wrote must still be
/// there unchanged; they are replaced by the records it removed.
pub fn undo(store: &Store, entry: &Entry) -> Result<(Commit, Option<Entry>), ReviewError> {
    if entry.before.is_empty() && entry.after.is_empty() {
        return Err(ReviewError::NothingToUndo {
            id: entry.id,
            op: entry.op.as_str(),
        });
    }
    let to_records = |records: &[JournalRecord]| -> Result<Vec<Record>, StoreError> {
        records
            .iter()
            .map(|r| Record::from_input(&r.record).map_err(StoreError::from))
            .collect()
    };
    let base = to_records(&entry.after)?;
    let restore = to_records(&entry.before)?;
    let meta = EntryMeta {
        op: Some(Op::Undo),
        undoes: Some(entry.id),
        ..EntryMeta::default()
    };
    let since = entry.id;
    journaled(store, meta, None, |s| s.exchange(&base, restore)).map_err(|e| match e {
        ReviewError::Store(StoreError::Conflict { detail }) => ReviewError::UndoBlocked {
            id: since,
            detail: detail.replace("since it was read", &format!("since #{since}")),
        },
        ReviewError::Store(StoreError::DuplicateName { name }) => ReviewError::UndoBlocked {
            id: since,
            detail: format!("{name:?} was added again since #{since}"),
        },
        other => other,
    })
}
