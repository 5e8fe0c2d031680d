//! The `.memory` contract as a [`Backend`]: a strict reading of the manifest's set, addressed
//! by the store's rules (a listed file name, or a name one file holds).

#[cfg(feature = "cli")]
pub(crate) mod args;
mod audit_inputs;
mod copy;
mod dedupe;
pub(crate) mod discover;
pub(crate) mod editor_rules;
mod effect;
mod error;
mod fix;
mod hints;
pub mod journal;
mod journaled;
mod maintain;
mod open;
mod repair_target;
mod review;
mod session;
mod state;
mod summary;
pub(crate) mod view;
#[cfg(feature = "watch")]
mod watch;
mod workbench;
mod write;

pub use dedupe::{Group, find_groups};
pub(crate) use dedupe::{already_filed, merged_draft};
/// The record editor's rules, for the workbench's unit tests.
#[cfg(test)]
pub(crate) use editor_rules::RECORD_RULES;
pub use fix::dedupe_proposal;
pub(crate) use open::REGISTERED;
pub use view::shown_inspection;

use std::path::Path;

use super::{
    AuditInputs, Backend, ChangeLock, Changed, Decided, Deduped, Edit, EditorChange, Filed,
    FixPlanner, Format, FormatError, IndexFix, IndexPlan, Nouns, Proposals, Proposing, ReadError,
    Reading, Replacement, StatePlace, Summary, Written,
};
use crate::change::FileImage;
use crate::finding::Finding;
use crate::memory::Memory;
use crate::review::journal::{Entry, Journal, Repaired};
use crate::review::{EntryMeta, Origin, Proposal, ReviewError};
use crate::session::{Committed, MemoryPlan};
use crate::store::{RecordInput, Store, StoreError};

/// The `.memory` contract, as `--format` takes it and JSON names it.
pub const FORMAT: Format = Format::new("memory", ".memory contract");

/// Why a `.memory` set has no outside changes to record.
const NO_RECORDING: &str = "memwb journals every change it makes to a .memory set itself; recording changes made outside memwb is for Claude Code folders";

/// Why a `.memory` set files no proposal of another program's file writes.
const NO_FILE_PROPOSALS: &str = "a .memory set's proposals are plans of its records, filed through memwb (memwb propose); a write of its files made outside memwb is not filed; nothing was filed";

/// An open `.memory` set, read through its store.
pub struct MemoryBackend<'a> {
    store: &'a Store,
}

impl<'a> MemoryBackend<'a> {
    pub fn new(store: &'a Store) -> Self {
        Self { store }
    }
}

impl Backend for MemoryBackend<'_> {
    fn format(&self) -> Format {
        FORMAT
    }

    fn root(&self) -> &Path {
        self.store.root()
    }

    fn read(&self) -> Result<Reading, ReadError> {
        let set = self.store.read()?;
        Ok(Reading {
            memories: set.memories(),
            others: Vec::new(),
            catalog: set.index_text(),
        })
    }

    fn find<'r>(&self, reading: &'r Reading, name: &str) -> Result<&'r Memory, ReadError> {
        // The store's addressing rules and wording, on the set as it reads now.
        let file = self.store.read()?.require(name)?.file.clone();
        reading
            .memories
            .iter()
            .find(|m| m.file == file)
            .ok_or_else(|| {
                StoreError::NotFound {
                    name: name.to_owned(),
                }
                .into()
            })
    }

    fn text(&self, memory: &Memory) -> Result<String, ReadError> {
        Ok(self
            .store
            .read()?
            .require(&memory.file)?
            .record
            .to_file_text())
    }

    fn raw(&self, memory: &Memory) -> Result<Vec<u8>, ReadError> {
        self.store
            .entry_bytes(&memory.file)
            .ok_or_else(|| ReadError::Removed {
                path: self.store.root().join(&memory.file),
            })
    }

    fn audit(&self) -> Vec<Finding> {
        self.store.inspect().findings()
    }

    fn add(&self, memories: &[RecordInput]) -> Result<Written, FormatError> {
        self.add_records(memories)
    }

    fn set(&self, name: &str, edit: &Edit) -> Result<Written, FormatError> {
        self.set_record(name, edit)
    }

    fn rm(&self, names: &[String]) -> Result<Written, FormatError> {
        self.rm_records(names)
    }

    fn index(&self) -> Result<String, FormatError> {
        self.index_text()
    }

    fn index_fix(&self, write: bool) -> Result<IndexFix, FormatError> {
        self.fix_index(write)
    }

    fn consolidate(&self, plan: &serde_json::Value) -> Result<Written, FormatError> {
        self.consolidate_plan(plan)
    }

    fn repair(&self, file: &str, with: Option<&Replacement>) -> Result<Written, FormatError> {
        self.repair_entry(file, with)
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
        copy::copy_sources(self.store)
    }

    fn propose_copy(
        &self,
        sources: &super::CopySources,
        from: &str,
    ) -> Result<super::Copied, FormatError> {
        copy::propose_copy(self.store, sources, from)
    }

    fn propose_outside_change(
        &self,
        _files: Vec<FileImage>,
        _origin: Origin,
        _evidence: Option<String>,
    ) -> Result<Proposal, FormatError> {
        Err(FormatError::refused(NO_FILE_PROPOSALS))
    }

    fn record_outside_change(
        &self,
        _files: Vec<FileImage>,
        _meta: EntryMeta,
    ) -> Result<Option<Entry>, FormatError> {
        Err(FormatError::refused(NO_RECORDING))
    }

    fn nouns(&self) -> Nouns {
        Nouns {
            list: "Manifest",
            item: "Record",
        }
    }

    fn lacks(&self, capability: super::Capability) -> Option<&'static str> {
        match capability {
            super::Capability::RecordOutsideChanges => Some(NO_RECORDING),
            super::Capability::Adopt => None,
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
        self.refuse_recording(sink)
    }

    fn shown(&self) -> super::Shown {
        super::Shown::from(std::sync::Arc::new(self.store.inspect()))
    }

    fn state_place(&self) -> Result<StatePlace, FormatError> {
        Ok(self.place_of_state())
    }

    fn lock_changes(&self) -> Result<ChangeLock, FormatError> {
        self.lock_for_changes()
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
        Ok(Journal::of(self.store))
    }

    fn editor_rules(&self) -> &'static dyn super::EditorRules {
        &editor_rules::RECORD_RULES
    }

    fn shown_after_change(&self, shown: &super::Shown) -> Option<super::Shown> {
        self.reread_after_change(shown)
    }

    fn entry_bytes(&self, file: &str) -> Option<Vec<u8>> {
        self.store.entry_bytes(file)
    }

    fn memories_after_approving(
        &self,
        memories: &[Memory],
        proposal: &Proposal,
    ) -> Result<Vec<Memory>, FormatError> {
        self.applied(memories, proposal)
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
}
