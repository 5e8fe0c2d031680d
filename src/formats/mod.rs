//! Each memory format behind one trait: a backend opens nothing itself (the caller holds the
//! open folder), reads its folder into the one read model ([`Memory`]), addresses a memory by
//! name or file, gives its file's text, and audits the folder into [`Finding`]s. The readers
//! above (the CLI's `ls`, `show`, `select`, `check`) are written once over [`Backend`]; a new
//! format implements it in its own module here, over its own engine, knows nothing above it,
//! and is listed once in the registration (`registry.rs`). Every change (`add`, `set`, `rm`
//! and the rest of the write side) is one compare-and-swap journaled by the format's engine:
//! docs/architecture.md, "Backends" and "Adding a backend".

#[cfg(feature = "cli")]
mod args;
mod audit_inputs;
pub mod claude;
pub(crate) mod copy;
mod detect;
pub(crate) mod discover;
mod error;
pub(crate) mod fix;
pub mod memory;
pub(crate) mod open;
mod registry;
mod review;
mod session;
mod shown;
mod state;
mod summary;
mod view;
#[cfg(feature = "watch")]
mod watch;
mod workbench;

/// What a change waiting on another writer's lock is told, on every format: every engine's
/// lock gives the one notice (`crate::locks`, a leaf that names no format).
pub use crate::locks::{LockWait, WaitNotice};
// Shared by every format's engine, for the front ends: the memories `add` takes (the
// `.memory` record's input form, which the Claude Code backend converts), and the process's
// exit gate, which every format's lock counts in. How each format's folder opens is its own
// flags' to say (`FormatArgs`, `OpenOptions`).
#[cfg(feature = "cli")]
pub(crate) use crate::locks::close_for_exit;
pub use crate::memory::RecordInput;
#[cfg(feature = "cli")]
pub(crate) use args::Locking;
pub use audit_inputs::{AuditInputs, FolderRoots};
pub use copy::{Copied, CopySources, Refusal};
pub use detect::{Detected, Format, detect};
#[cfg(any(feature = "cli", feature = "tui"))]
pub(crate) use discover::agent_config;
#[cfg(feature = "cli")]
pub(crate) use error::engine_hints;
pub use error::{Cause, FormatError, is_raced};
pub use fix::{FixPlanner, PlannedFix};
pub(crate) use open::{Engine, Recognized};
pub use open::{Found, Open, open, open_given, open_workspace};
#[cfg(feature = "cli")]
pub(crate) use registry::FormatArgs;
pub use registry::OpenOptions;
pub(crate) use registry::{FORMATS, Registered};
#[cfg(feature = "tui")]
pub(crate) use review::not_journaled;
pub use review::{Candidates, Decided, Deduped, Draft, Proposals, Proposed, Proposing};
pub use shown::{FolderView, Shown};
pub use state::{ChangeLock, StatePlace};
pub use summary::{IndexUse, Project, Summary};
#[cfg(feature = "tui")]
pub(crate) use view::drift;
pub use view::{
    Gauge, HeadLine, IndexLine, IndexMark, IndexView, ListRow, ListView, Look, MemoryText,
    MemoryView, RowState, Segment, StateLine, Stray, Tone,
};
#[cfg(feature = "watch")]
pub use watch::{
    Change, RecordSink, Recorded, WatchError, WatchEvent, WatchSink, Watched, Watcher,
};
pub use workbench::{
    Changed, EditorChange, EditorRules, Fields, FileBudget, Filed, IndexPlan, SavedFile,
};

use std::path::{Path, PathBuf};

use crate::change::FileImage;
use crate::finding::Finding;
use crate::memory::Memory;
use crate::review::journal::{Entry, Journal, Repaired};
use crate::review::{EntryMeta, Origin, Proposal, ReviewError};
use crate::session::{Committed, MemoryPlan};

/// One format's view of an open memory folder: the read side.
pub trait Backend {
    fn format(&self) -> Format;

    /// The memory folder itself (`<workspace>/.memory`, or the Claude Code folder).
    fn root(&self) -> &Path;

    /// Reads the folder: every memory in the set's order, the files that are no memory, and
    /// the catalog an agent's selection is shown. Fails only when the format cannot read the
    /// set at all (a `.memory` manifest that does not read).
    fn read(&self) -> Result<Reading, ReadError>;

    /// The memory `name` addresses in `reading`, by the format's rules (a name, or a file when
    /// a name is ambiguous); a name two files share is refused with both files.
    fn find<'r>(&self, reading: &'r Reading, name: &str) -> Result<&'r Memory, ReadError>;

    /// The memory's file as `show` prints it.
    fn text(&self, memory: &Memory) -> Result<String, ReadError>;

    /// The memory file's exact bytes (`show --raw`).
    fn raw(&self, memory: &Memory) -> Result<Vec<u8>, ReadError>;

    /// The folder's own audit: what the format's rules find (never the content audit, which
    /// reads the memories and is the same for every format).
    fn audit(&self) -> Vec<Finding>;

    /// Adds memories, all or none; a memory that does not read is refused naming its
    /// position in `memories` (1-based) and its name.
    fn add(&self, memories: &[RecordInput]) -> Result<Written, FormatError>;

    /// Changes the memory `name` addresses, based on the version read just before; a rename
    /// keeps its place in the set.
    fn set(&self, name: &str, edit: &Edit) -> Result<Written, FormatError>;

    /// Removes the memories `names` address, all or none.
    fn rm(&self, names: &[String]) -> Result<Written, FormatError>;

    // Upkeep: the index, consolidation, repair and acceptances (`src/formats/<name>/maintain.rs`).

    /// The index as an agent is given it (`index`), and where the format's load limit cuts
    /// it, marked; refused when the folder has no index to give.
    fn index(&self) -> Result<String, FormatError>;

    /// The fix of the index (`index --fix`): what it changes, as a unified diff and in
    /// words; written as one journaled change only when `write`.
    fn index_fix(&self, write: bool) -> Result<IndexFix, FormatError>;

    /// Applies a consolidation plan `{"source_names":[...],"records":[...]}` as one journaled
    /// change, all or nothing.
    fn consolidate(&self, plan: &serde_json::Value) -> Result<Written, FormatError>;

    /// Repairs the entry `file` names that does not read: replaced by `with`, or dropped
    /// from the set when `None`. A format whose set has no such entries refuses, saying what
    /// to run instead.
    fn repair(&self, file: &str, with: Option<&Replacement>) -> Result<Written, FormatError>;

    /// Moves the journal's damaged lines aside so that writes can proceed (`None`: it had
    /// none).
    fn repair_journal(&self) -> Result<Option<Repaired>, FormatError>;

    /// Runs `keep` under the lock that guards memwb's state about the folder, with the memory
    /// `name` addresses and the directory that state is kept in (`accept` records a finding's
    /// acceptance there, never in the folder); answers the memory's name.
    fn accept(
        &self,
        name: &str,
        keep: &mut dyn FnMut(&Memory, &Path) -> Result<(), ReviewError>,
    ) -> Result<String, FormatError>;

    // What the format-neutral layers above (`folder`, `content`, `eval`, `session`) ask of
    // a folder.

    /// The folder summed up as one row of `memwb sets` (its project left for the caller, who
    /// knows where the folder was found).
    fn summary(&self) -> Summary;

    /// What the content audit reads of the folder (`memwb check`, the Findings view).
    fn audit_inputs(&self) -> AuditInputs;

    /// Files the fixes `plan` plans for the folder's memories, as read now, as proposals a
    /// person approves or rejects; a fix that would change nothing or is already filed is
    /// not filed again. Writes no memory.
    fn file_fixes(&self, plan: FixPlanner<'_>) -> Result<Vec<Proposal>, ReviewError>;

    /// Where memwb keeps its own state for the folder (evaluation cases, reply caches),
    /// created when the format keeps it outside the folder.
    fn state_place(&self) -> Result<StatePlace, FormatError>;

    /// Takes the lock every memwb change to the folder takes (waiting as the folder was
    /// opened to wait).
    fn lock_changes(&self) -> Result<ChangeLock, FormatError>;

    /// Why this format cannot do `capability`, in words that name no key or command of any
    /// front end (`None`: it can). The workbench neither offers nor runs a command whose
    /// capability its folder lacks, and its help shows this reason.
    fn lacks(&self, _capability: Capability) -> Option<&'static str> {
        None
    }

    // The review gate (docs/review.md): proposals a person approves or rejects, and the
    // journal of every change, with undo.

    /// Begins a proposal about the memories `names` address (none: every memory), reading
    /// the folder once: that reading is the proposal's base.
    fn propose(&self, names: &[String]) -> Result<Box<dyn Proposing + '_>, FormatError>;

    /// One proposal per group of near-duplicate memories not already held by a pending or
    /// rejected proposal (no model).
    fn propose_dedupe(&self) -> Result<Vec<Deduped>, FormatError>;

    /// Every proposal filed for this folder, oldest first, with whether it still applies.
    fn proposals(&self) -> Result<Proposals, FormatError>;

    /// Applies the pending proposal `id` as one journaled change; a stale one is refused
    /// with what changed, and nothing is written.
    fn approve(&self, id: &str) -> Result<Decided, FormatError>;

    /// Closes the pending proposal `id` without applying it (journaled, with `reason`).
    fn reject(&self, id: &str, reason: Option<String>) -> Result<Entry, FormatError>;

    /// The folder's journal, a change a crash interrupted resolved first so that it reads true.
    fn journal(&self) -> Result<Journal, FormatError>;

    /// Reverts `entry` as a new, base-checked, journaled change (refused as
    /// [`Entry::undo_refusal`] says, or when what it wrote changed since).
    fn undo(&self, entry: &Entry) -> Result<Decided, FormatError>;

    // Sets, copy and eval (src/formats/copy.rs, src/formats/<name>/copy.rs).

    /// The folder's memories as `copy --from` takes them from it.
    fn copy_sources(&self) -> Result<CopySources, FormatError>;

    /// Converts `sources` (read from the folder `from` names) to this format, each one or
    /// refused with why, and files what is left as one proposal based on the folder as read
    /// now; files nothing when every memory is refused. Writes no memory.
    fn propose_copy(&self, sources: &CopySources, from: &str) -> Result<Copied, FormatError>;

    // What an agent program's hook reports (`src/agents/`): a write the agent makes to the
    // folder's files outside memwb (`src/formats/<name>/outside.rs`).

    /// Files the change another program is about to make to the folder's files (each file's
    /// text before and after) as a proposal from `origin`, `evidence` shown to the reviewer,
    /// in place of the write; nothing in the folder changes. Answers the proposal as filed. A
    /// format whose proposals are not made of its files refuses, filing nothing.
    fn propose_outside_change(
        &self,
        files: Vec<FileImage>,
        origin: Origin,
        evidence: Option<String>,
    ) -> Result<Proposal, FormatError>;

    /// Journals a change another program made to the folder's files (each file's text before
    /// and after) so that it can be undone, leaving out a file the journal's newest entries
    /// already hold as made (`memwb watch --record` may have journaled it first): answers the
    /// entry (`None`: nothing was left to journal). A format without it says why in
    /// [`Backend::lacks`]`(`[`Capability::RecordOutsideChanges`]`)` and refuses here.
    fn record_outside_change(
        &self,
        files: Vec<FileImage>,
        meta: EntryMeta,
    ) -> Result<Option<Entry>, FormatError>;

    // The words a front end names this format's own things with; everything else it says is
    // the same on every format (docs/cli.md, "One idea, one word").

    /// What the folder's list of memories and one memory's file are called here (the
    /// workbench's pane titles and its help's sections).
    fn nouns(&self) -> Nouns;

    // Watching (src/formats/<name>/watch.rs).

    /// Starts watching the folder: every change another program makes to its memories, and
    /// to memwb's own state for it (proposals, the journal), goes to `sink` as one
    /// [`Watched`], once the format's engine sees the change whole. The reading taken before
    /// this returns is the baseline (answered with the watch): nothing is reported for it.
    #[cfg(feature = "watch")]
    fn watch(&self, sink: WatchSink) -> Result<(Watcher, Shown), WatchError>;

    /// Starts journaling every change made to the folder outside memwb, with its previous
    /// content, so that it can be undone (`memwb watch --record`); each entry journaled, or
    /// what went wrong, goes to `sink`. A format without it says why in
    /// [`Backend::lacks`]`(`[`Capability::RecordOutsideChanges`]`)` and refuses here.
    #[cfg(feature = "watch")]
    fn record_outside_changes(&self, sink: RecordSink) -> Result<Watcher, FormatError>;

    // The workbench's reading (src/formats/shown.rs): one value its panes draw and its flows
    // ask, whatever the format.

    /// Reads the folder as the workbench shows it (I/O: run it off the UI thread).
    fn shown(&self) -> Shown;

    // The workbench's jobs (`src/formats/<name>/workbench.rs`): what its editors and `R` ask
    // of a folder beyond the commands above, so that each job is written once (src/tui/jobs.rs).

    /// The exact text of `file` in the folder (`None`: it is absent): the base of an edit or
    /// a delete.
    fn file_text(&self, file: &str) -> Result<Option<String>, FormatError>;

    /// The fix of the index as planned from the files now, to show before writing it;
    /// nothing is written.
    fn plan_index_fix(&self) -> Result<IndexPlan, FormatError>;

    /// Writes `plan` as one journaled change if it is still the fix (refused as a conflict
    /// when the folder changed since it was planned).
    fn write_index_fix(&self, plan: &IndexPlan) -> Result<Written, FormatError>;

    /// Re-plans the stale pending proposal `id` against the folder as it is now; what the
    /// rebase changed, in a reviewer's words.
    fn rebase(&self, id: &str) -> Result<Vec<String>, FormatError>;

    /// Writes a change one of the workbench's editors made, compare-and-swap against what it
    /// opened; a change this format's editors never make is refused, nothing written.
    fn apply_edit(&self, change: &EditorChange) -> Result<Changed, FormatError>;

    /// Every filed proposal, as the Proposals view lists it after each change (nothing
    /// resolved or written, unlike [`Backend::proposals`]).
    fn filed(&self) -> Result<Filed, FormatError>;

    /// The folder's journal as it reads now, nothing resolved or written (unlike
    /// [`Backend::journal`]): what History reads its newest entries of
    /// ([`Open::journal_tail`], which keeps them parsed across readings).
    fn journal_as_is(&self) -> Result<Journal, FormatError>;

    /// The folder read after one of the workbench's own changes, on top of `shown` (the
    /// reading it showed, which its watcher keeps current), reading only what the change may
    /// have touched; `None` when the format reads its folder whole after a change
    /// ([`Backend::shown`]).
    fn shown_after_change(&self, _shown: &Shown) -> Option<Shown> {
        None
    }

    /// The bytes of `file`, an entry of the set that does not read, as the repair editor
    /// opens them (`None`: missing or unreadable, or the format lists no such entries).
    fn entry_bytes(&self, _file: &str) -> Option<Vec<u8>> {
        None
    }

    /// How this format's memory files are made of the editor's four fields, checked and built
    /// as the editor's user types.
    fn editor_rules(&self) -> &'static dyn EditorRules;

    // The evaluation (`src/formats/<name>/effect.rs`): what the cases run against besides the
    // folder as read, and the change a regression is blamed on, so that `eval` and the
    // workbench judge every format with one path.

    /// The memories as they would be once `proposal` is approved, from `memories` (the folder
    /// as read, in its order): a `.memory` plan applied to the records, a Claude Code
    /// proposal's after-images of its files. Reads and writes nothing; a proposal whose plan
    /// does not read is refused.
    fn memories_after_approving(
        &self,
        memories: &[Memory],
        proposal: &Proposal,
    ) -> Result<Vec<Memory>, FormatError>;

    /// The journal's newest entry when it changed the memories, the folder is still as it
    /// left them and `memories` (what a run of the cases read) hold its change: the change a
    /// regression that run sees is blamed on (`None`: a change memwb did not journal came
    /// since, the newest entry changed nothing, what it wrote is redacted in the journal, or
    /// the run read the folder before it). Checked on what the check of the folder reads
    /// anyway, never a whole new reading. Nothing is resolved or written.
    fn newest_change_in_place(&self, memories: &[Memory]) -> Result<Option<Entry>, FormatError>;

    // The agent session (`src/formats/<name>/session.rs`): a turn's plan written or filed, so
    // that `session::MemorySession` runs on every format (`formats/session.rs`).

    /// Applies an agent session's plan as one change journaled by the format's engine,
    /// against the folder as it is under the lock: memories other writers added meanwhile are
    /// kept, a base memory that changed or vanished since the session read it fails the
    /// change, and a failure writes nothing. Answers the memories it added, changed and
    /// removed, and, when the change is in place but its journal entry or a directory sync
    /// failed, its warning, worded as [`Written::warning`].
    fn commit_plan(&self, plan: &MemoryPlan) -> Result<Committed, FormatError>;

    /// Files an agent session's plan as a proposal from `origin` instead (review mode),
    /// `evidence` shown to the reviewer; nothing in the folder changes. Answers its id.
    fn propose_plan(
        &self,
        plan: &MemoryPlan,
        origin: &Origin,
        evidence: Option<String>,
    ) -> Result<String, FormatError>;
}

/// A format's names for its own things, each as a title ("Manifest", "Record").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nouns {
    /// The list of the folder's memories.
    pub list: &'static str,
    /// One memory's file.
    pub item: &'static str,
}

/// What a `set` changes: `None` keeps the field as it is.
#[derive(Debug, Clone, Default)]
pub struct Edit {
    pub name: Option<String>,
    pub kind: Option<String>,
    pub description: Option<String>,
    pub body: Option<String>,
}

/// What a change did, in words, and what a person must know about how it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// One line: "added a; changed b", "renamed a to b", "unchanged: ...".
    pub summary: String,
    /// The change is in place, but something about it needs a look (said as a warning;
    /// the command then exits 1).
    pub warning: Option<String>,
}

impl Written {
    pub(crate) fn done(summary: String) -> Self {
        Self {
            summary,
            warning: None,
        }
    }

    /// `summary`, with every warning of `warnings` said after it.
    pub(crate) fn with_warnings(
        summary: String,
        warnings: impl IntoIterator<Item = Option<String>>,
    ) -> Self {
        Self {
            summary,
            warning: joined_warnings(warnings),
        }
    }
}

/// The warnings that are there, said in one line (`None`: there is none).
pub(crate) fn joined_warnings(
    warnings: impl IntoIterator<Item = Option<String>>,
) -> Option<String> {
    let said: Vec<String> = warnings.into_iter().flatten().collect();
    (!said.is_empty()).then(|| said.join("; "))
}

/// The warning of a change that is in place (every reader sees it) but whose directory sync
/// after it failed (`why`), worded as on every format: the change stands, and a power loss
/// before the file system writes the directory out may still lose it.
pub(crate) fn not_durable(why: &str) -> String {
    format!("written, but not yet durable: {why}")
}

/// What `index --fix` shows, and what it wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexFix {
    /// The fix as a unified diff (empty: the index needs none).
    pub diff: String,
    /// What the fix does, in words ("1 dangling entry removed; 2 unlisted files added").
    pub summary: String,
    /// Set when it was written.
    pub written: Option<Written>,
}

/// A corrected memory file that takes a broken entry's place (`repair --from`).
#[derive(Debug, Clone)]
pub struct Replacement {
    /// The file's text.
    pub text: String,
    /// Where it was read from, as an error names it ("standard input", a path).
    pub from: String,
}

/// A planned change of one file as a unified diff (`/dev/null` for a new file), as
/// `index --fix` shows it on every format.
pub(crate) fn unified_diff(change: &crate::change::TextChange) -> String {
    let before = change.before.as_deref().unwrap_or("");
    let old = if change.before.is_some() {
        format!("a/{}", change.file)
    } else {
        "/dev/null".to_owned()
    };
    similar::TextDiff::from_lines(before, &change.after)
        .unified_diff()
        .context_radius(2)
        .header(&old, &format!("b/{}", change.file))
        .missing_newline_hint(true)
        .to_string()
}

/// What `consolidate` did, in the same words on every format.
pub(crate) fn consolidated<'a>(
    sources: &[String],
    written: impl Iterator<Item = &'a str>,
) -> String {
    let written: Vec<&str> = written.collect();
    format!(
        "consolidated {} into {}",
        sources.join(", "),
        written.join(", ")
    )
}

/// `result` for the memory at `position` in `batch`: when the batch holds more than one, its
/// error names which (1-based) and its name; one memory alone needs no pointing at.
pub(crate) fn placed<T>(
    result: Result<T, FormatError>,
    batch: &[RecordInput],
    position: usize,
) -> Result<T, FormatError> {
    if batch.len() < 2 {
        return result;
    }
    result.map_err(|error| FormatError::Placed {
        place: format!("record {} ({:?})", position + 1, batch[position].name),
        error: Box::new(error),
    })
}

/// What `set` says when the memory already holds every value given, on every format.
pub(crate) fn unchanged(name: &str) -> String {
    format!("unchanged: {name} already holds what was given")
}

/// What `set` did, in the same words on every format: a rename says so rather than "added
/// the new name; removed the old one".
pub(crate) fn set_summary(before: &str, after: &str) -> String {
    if before == after {
        format!("changed {after}")
    } else {
        format!("renamed {before} to {after}")
    }
}

/// What a front end may do with a folder that not every format supports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capability {
    /// List a file of the folder that is not in the set into the set, bytes untouched.
    Adopt,
    /// Journal the changes other programs make to the folder, so that they can be undone
    /// (`memwb watch --record`).
    RecordOutsideChanges,
}

impl Capability {
    pub const ALL: [Capability; 2] = [Capability::Adopt, Capability::RecordOutsideChanges];
}

/// A folder as its backend reads it.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    /// Every memory, in the set's order.
    pub memories: Vec<Memory>,
    /// Files in the folder that look like memories but are not (`ls` lists them after).
    pub others: Vec<NotAMemory>,
    /// The index as an agent is given it: what a model selector is shown.
    pub catalog: String,
}

impl Reading {
    /// The memories a selection chooses among: those that read, in the set's order.
    pub fn candidates(&self) -> Vec<Memory> {
        Memory::readable(&self.memories)
    }
}

/// A file that is no memory, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAMemory {
    pub file: String,
    pub why: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The format's engine could not read the folder, in its own words (each backend
    /// converts its engine's errors, in `src/formats/<name>/error.rs`).
    #[error(transparent)]
    Engine(crate::review::error::EngineError),
    /// The folder is kept for a front end; the message names only the memory, as on every format.
    #[error("no memory named {name:?}")]
    NotFound { name: String, folder: PathBuf },
    #[error(
        "memory name {name:?} is ambiguous: it is held by {}; address one of them by its file (memwb show {})",
        files.join(" and "),
        files.last().map_or("FILE", String::as_str)
    )]
    Ambiguous { name: String, files: Vec<String> },
    #[error("{} was removed", path.display())]
    Removed { path: PathBuf },
}
