//! A Claude Code auto memory folder as a [`Backend`]: a lenient reading (a topic file that
//! does not read is still listed, with why), addressed by name, else by file.

#[cfg(feature = "cli")]
pub(crate) mod args;
mod audit_inputs;
mod copy;
pub(crate) mod discover;
mod editor_rules;
mod effect;
mod error;
mod fix;
pub mod journal;
mod locate;
mod maintain;
mod open;
mod outside;
mod project;
mod review;
mod session;
mod state;
mod summary;
mod view;
#[cfg(feature = "watch")]
mod watch;
mod workbench;
pub(crate) mod write;

use std::path::Path;

use super::{
    AuditInputs, Backend, Capability, ChangeLock, Changed, Decided, Deduped, Edit, EditorChange,
    Filed, FixPlanner, Format, FormatError, IndexFix, IndexPlan, NotAMemory, Nouns, Proposals,
    Proposing, ReadError, Reading, Replacement, StatePlace, Summary, Written,
};
use crate::change::FileImage;
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::claude::{ClaudeFolder, audit};
use crate::finding::Finding;
use crate::memory::Memory;
use crate::review::journal::{Entry, Journal, Repaired};
use crate::review::{EntryMeta, Origin, Proposal, ReviewError};
use crate::session::{Committed, MemoryPlan};
use crate::store::RecordInput;

pub(crate) use open::REGISTERED;
pub use view::{ClaudeView, shown_topics};

/// Claude Code's auto memory, as `--format` takes it and JSON names it.
pub const FORMAT: Format = Format::new("claude", "Claude Code auto memory");

/// An open Claude Code folder.
pub struct ClaudeBackend<'a> {
    folder: &'a ClaudeFolder,
}

impl<'a> ClaudeBackend<'a> {
    pub fn new(folder: &'a ClaudeFolder) -> Self {
        Self { folder }
    }
}

/// The item `name` addresses: the one whose name it is, else the one whose file it is (with
/// or without `.md`). A name two files share is refused, naming the files in file order:
/// no command may pick one silently.
pub fn address<'a, T>(
    items: &'a [T],
    name: &str,
    folder: &Path,
    name_of: impl Fn(&T) -> &str,
    file_of: impl Fn(&T) -> &str,
) -> Result<&'a T, ReadError> {
    let mut named: Vec<&T> = items.iter().filter(|t| name_of(t) == name).collect();
    named.sort_by(|a, b| file_of(a).cmp(file_of(b)));
    match named.as_slice() {
        [one] => Ok(one),
        [] => items
            .iter()
            .find(|t| file_of(t) == name || file_of(t).strip_suffix(".md") == Some(name))
            .ok_or_else(|| ReadError::NotFound {
                name: name.to_owned(),
                folder: folder.to_owned(),
            }),
        many => Err(ReadError::Ambiguous {
            name: name.to_owned(),
            files: many.iter().map(|t| file_of(t).to_owned()).collect(),
        }),
    }
}

impl Backend for ClaudeBackend<'_> {
    fn format(&self) -> Format {
        FORMAT
    }

    fn root(&self) -> &Path {
        self.folder.root()
    }

    fn read(&self) -> Result<Reading, ReadError> {
        let snapshot = self.folder.read();
        Ok(Reading {
            memories: snapshot.memories(),
            others: snapshot
                .others
                .iter()
                .map(|other| NotAMemory {
                    file: other.file.clone(),
                    why: other.why.clone(),
                })
                .collect(),
            catalog: snapshot
                .parsed_index()
                .map(|i| i.loaded_text())
                .unwrap_or_default(),
        })
    }

    fn find<'r>(&self, reading: &'r Reading, name: &str) -> Result<&'r Memory, ReadError> {
        address(
            &reading.memories,
            name,
            self.folder.root(),
            |m| &m.name,
            |m| &m.file,
        )
    }

    fn text(&self, memory: &Memory) -> Result<String, ReadError> {
        Ok(String::from_utf8_lossy(&self.raw(memory)?).into_owned())
    }

    fn raw(&self, memory: &Memory) -> Result<Vec<u8>, ReadError> {
        let path = self.folder.root().join(&memory.file);
        read_regular(&path, MAX_FILE_BYTES)?.ok_or(ReadError::Removed { path })
    }

    fn audit(&self) -> Vec<Finding> {
        audit(&self.folder.read())
    }

    fn add(&self, memories: &[RecordInput]) -> Result<Written, FormatError> {
        self.add_topics(memories)
    }

    fn set(&self, name: &str, edit: &Edit) -> Result<Written, FormatError> {
        self.set_topic(name, edit)
    }

    fn rm(&self, names: &[String]) -> Result<Written, FormatError> {
        self.rm_topics(names)
    }

    fn index(&self) -> Result<String, FormatError> {
        self.loaded_index()
    }

    fn index_fix(&self, write: bool) -> Result<IndexFix, FormatError> {
        self.fix_index(write)
    }

    fn consolidate(&self, plan: &serde_json::Value) -> Result<Written, FormatError> {
        self.consolidate_plan(plan)
    }

    fn repair(&self, _file: &str, _with: Option<&Replacement>) -> Result<Written, FormatError> {
        Err(FormatError::refused(maintain::NO_MANIFEST))
    }

    fn repair_journal(&self) -> Result<Option<Repaired>, FormatError> {
        self.repair_journal_lines()
    }

    fn accept(
        &self,
        name: &str,
        keep: &mut dyn FnMut(&Memory, &Path) -> Result<(), ReviewError>,
    ) -> Result<String, FormatError> {
        self.accept_finding(name, keep)
    }

    fn summary(&self) -> Summary {
        self.summarize()
    }

    fn audit_inputs(&self) -> AuditInputs {
        self.gather_audit_inputs()
    }

    fn file_fixes(&self, plan: FixPlanner<'_>) -> Result<Vec<Proposal>, ReviewError> {
        self.file_planned_fixes(plan)
    }

    fn state_place(&self) -> Result<StatePlace, FormatError> {
        self.place_of_state()
    }

    fn lock_changes(&self) -> Result<ChangeLock, FormatError> {
        self.lock_for_changes()
    }

    fn lacks(&self, capability: Capability) -> Option<&'static str> {
        Some(match capability {
            Capability::RecordOutsideChanges => return None,
            Capability::Adopt => {
                "a Claude Code folder has no file outside its set: every topic file is a memory (fixing MEMORY.md lists one it misses)"
            }
        })
    }

    fn propose(&self, names: &[String]) -> Result<Box<dyn Proposing + '_>, FormatError> {
        self.begin_proposal(names)
    }

    fn propose_dedupe(&self) -> Result<Vec<Deduped>, FormatError> {
        self.dedupe()
    }

    fn proposals(&self) -> Result<Proposals, FormatError> {
        self.listed()
    }

    fn approve(&self, id: &str) -> Result<Decided, FormatError> {
        Decided::or_not_journaled(self.approved(id))
    }

    fn reject(&self, id: &str, reason: Option<String>) -> Result<Entry, FormatError> {
        self.rejected(id, reason)
    }

    fn journal(&self) -> Result<Journal, FormatError> {
        self.recovered_journal()
    }

    fn undo(&self, entry: &Entry) -> Result<Decided, FormatError> {
        Decided::of_undo(entry, self.undone(entry))
    }

    fn copy_sources(&self) -> Result<super::CopySources, FormatError> {
        Ok(copy::copy_sources(self.folder))
    }

    fn propose_copy(
        &self,
        sources: &super::CopySources,
        from: &str,
    ) -> Result<super::Copied, FormatError> {
        copy::propose_copy(self.folder, sources, from)
    }

    fn propose_outside_change(
        &self,
        files: Vec<FileImage>,
        origin: Origin,
        evidence: Option<String>,
    ) -> Result<Proposal, FormatError> {
        outside::propose(self.folder, files, origin, evidence)
    }

    fn record_outside_change(
        &self,
        files: Vec<FileImage>,
        meta: EntryMeta,
    ) -> Result<Option<Entry>, FormatError> {
        outside::record(self.folder, files, meta)
    }

    fn nouns(&self) -> Nouns {
        Nouns {
            list: "Topic files",
            item: "Topic file",
        }
    }

    #[cfg(feature = "watch")]
    fn watch(
        &self,
        sink: super::WatchSink,
    ) -> Result<(super::Watcher, super::Shown), super::WatchError> {
        self.start_watch(sink)
    }

    #[cfg(feature = "watch")]
    fn record_outside_changes(
        &self,
        sink: super::RecordSink,
    ) -> Result<super::Watcher, FormatError> {
        self.record_changes(sink)
    }

    fn shown(&self) -> super::Shown {
        super::Shown::of_topics(self.folder, std::sync::Arc::new(self.folder.read()))
    }

    fn file_text(&self, file: &str) -> Result<Option<String>, FormatError> {
        self.text_of(file)
    }

    fn plan_index_fix(&self) -> Result<IndexPlan, FormatError> {
        self.planned_index_fix()
    }

    fn write_index_fix(&self, plan: &IndexPlan) -> Result<Written, FormatError> {
        self.written_index_fix(plan)
    }

    fn rebase(&self, id: &str) -> Result<Vec<String>, FormatError> {
        self.rebased(id)
    }

    fn apply_edit(&self, change: &EditorChange) -> Result<Changed, FormatError> {
        self.edited(change)
    }

    fn filed(&self) -> Result<Filed, FormatError> {
        self.filed_proposals()
    }

    fn journal_as_is(&self) -> Result<Journal, FormatError> {
        Ok(journal::journal_of(self.folder)?)
    }

    fn memories_after_approving(
        &self,
        memories: &[Memory],
        proposal: &Proposal,
    ) -> Result<Vec<Memory>, FormatError> {
        Ok(self.applied(memories, proposal))
    }

    fn newest_change_in_place(&self, memories: &[Memory]) -> Result<Option<Entry>, FormatError> {
        self.newest_in_place(memories)
    }

    fn commit_plan(&self, plan: &MemoryPlan) -> Result<Committed, FormatError> {
        self.commit_session_plan(plan)
    }

    fn propose_plan(
        &self,
        plan: &MemoryPlan,
        origin: &Origin,
        evidence: Option<String>,
    ) -> Result<String, FormatError> {
        self.propose_session_plan(plan, origin, evidence)
    }

    fn editor_rules(&self) -> &'static dyn super::EditorRules {
        &editor_rules::TOPIC_RULES
    }
}
