//! The seam between deciding and writing: the plan a turn decided ([`MemoryPlan`]), the folder
//! it reads and changes ([`MemoryFolder`], any format) and where the plan goes ([`PlanSink`]:
//! committed by default, filed as a proposal in review mode).
//!
//! `session` sits below `formats` (the backends use its replies and model clients), so it
//! names no format: memwb implements [`MemoryFolder`] for every folder it opens, through the
//! format's `formats::Backend`, and a `.memory` store or a Claude Code folder converts into
//! one (`MemorySession::new(store)`).

use std::error::Error as StdError;
use std::path::Path;

use super::history::Message;
use crate::change::Changed;
use crate::store::Record;
use crate::who::Origin;

/// What `complete()` decided to change, validated and ready to apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryPlan {
    /// Append the extracted records.
    Extend { records: Vec<Record> },
    /// Replace `source_names` (among `base` and `additions`) with `replacements`; `base` is
    /// the set as read before extraction, `additions` the extracted records.
    Consolidate {
        base: Vec<Record>,
        additions: Vec<Record>,
        source_names: Vec<String>,
        replacements: Vec<Record>,
    },
}

/// What became of a plan.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlanOutcome {
    /// Written: what it changed, and what about how it was written needs a look.
    Committed(Committed),
    /// Filed as a proposal for a person to approve (review mode); the set is unchanged.
    Proposed { id: String },
}

/// A plan written as one change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Committed {
    /// The memories it added, changed and removed, by name.
    pub changed: Changed,
    /// The change is in place (every reader sees it), but something about it needs a look,
    /// in the words every other change says it with (`formats::Written::warning`): "written,
    /// but not journaled: …" (its journal entry waits as an intent the next change records),
    /// "written, but not yet durable: …" (a directory sync after it failed), "written, but
    /// possibly conflicting: …". Show it as a warning: the command line says
    /// "warning: …" and exits 1 for every other change that has one.
    pub warning: Option<String>,
}

pub type PlanError = Box<dyn StdError + Send + Sync>;

/// A folder as a session reads it: the memories the side-queries are shown, as records, and
/// the index an agent is given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FolderReading {
    /// In the folder's order. A memory a side-query cannot be shown as a record (a Claude Code
    /// topic file with no type, say) is left out, as `memwb propose` leaves it out.
    pub records: Vec<Record>,
    /// The index text the selector and the extractor are shown (MEMORY.md as loaded).
    pub catalog: String,
}

/// A memory folder of any format, as a session reads and changes it. memwb implements it for
/// `formats::Open` (every folder it opens); a `.memory` `Store` and a Claude Code
/// `ClaudeFolder` convert into one with `Into<Box<dyn MemoryFolder>>`.
pub trait MemoryFolder: Send + Sync {
    /// The folder's path, for diagnostics.
    fn root(&self) -> &Path;

    /// Reads the folder now.
    fn read(&self) -> Result<FolderReading, PlanError>;

    /// Applies `plan` as one change, journaled by the format's engine: the folder is read
    /// again under its lock, so memories other writers added meanwhile are kept, and a base
    /// memory that changed or vanished since it was read fails the change with nothing
    /// written. A change that is in place is `Ok`, with its warning when something about how
    /// it was written needs a look ([`Committed::warning`]).
    fn commit(&self, plan: MemoryPlan) -> Result<Committed, PlanError>;

    /// Files `plan` as a proposal a person decides (review mode, `review::ReviewPlans`),
    /// changing nothing in the folder, and answers its id: memwb's folders file it through
    /// the format's backend. A folder that keeps no proposals refuses (the default), and
    /// nothing is filed.
    fn propose(
        &self,
        plan: &MemoryPlan,
        origin: &Origin,
        evidence: Option<String>,
    ) -> Result<String, PlanError> {
        let _ = (plan, origin, evidence);
        Err(format!(
            "{}: this folder keeps no proposals, so review mode filed nothing",
            self.root().display()
        )
        .into())
    }
}

/// Where validated plans go: [`CommitPlans`] by default; a review mode files them as proposals
/// instead (`review::ReviewPlans`, through [`MemoryFolder::propose`]).
pub trait PlanSink: Send + Sync {
    /// `history` is the turn's canonical history the plan was extracted from (evidence).
    fn apply(
        &self,
        folder: &dyn MemoryFolder,
        plan: MemoryPlan,
        history: &[Message],
    ) -> Result<PlanOutcome, PlanError>;
}

/// Commits plans with [`MemoryFolder::commit`].
#[derive(Debug, Clone, Copy, Default)]
pub struct CommitPlans;

impl PlanSink for CommitPlans {
    fn apply(
        &self,
        folder: &dyn MemoryFolder,
        plan: MemoryPlan,
        _history: &[Message],
    ) -> Result<PlanOutcome, PlanError> {
        Ok(PlanOutcome::Committed(folder.commit(plan)?))
    }
}
