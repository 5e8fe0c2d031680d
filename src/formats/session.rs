//! The agent session (`session::MemorySession`) on any open folder: [`MemoryFolder`] for
//! [`Open`] and the review mode's [`PlanSink`], each through the format's [`Backend`](super::Backend)
//! (`commit_plan`, `propose_plan`). `session` sits below `formats`, so the folder a session
//! holds is this one behind its trait, and the review mode finds it again by its type.

use std::any::Any;
use std::path::Path;

use super::Open;
use crate::change::Changed;
use crate::review::sink::{ReviewPlans, evidence};
use crate::session::history::Message;
use crate::session::{FolderReading, MemoryFolder, MemoryPlan, PlanError, PlanOutcome, PlanSink};

impl MemoryFolder for Open {
    fn root(&self) -> &Path {
        Open::root(self)
    }

    /// The memories as `memwb propose` shows them to a side-query, and the index an agent
    /// is given.
    fn read(&self) -> Result<FolderReading, PlanError> {
        let backend = self.backend();
        let begun = backend.propose(&[])?;
        let candidates = begun.candidates();
        Ok(FolderReading {
            records: candidates.records.clone(),
            catalog: candidates.catalog.clone(),
        })
    }

    fn commit(&self, plan: MemoryPlan) -> Result<Changed, PlanError> {
        Ok(self.backend().commit_plan(&plan)?)
    }
}

impl From<Open> for Box<dyn MemoryFolder> {
    fn from(open: Open) -> Self {
        Box::new(open)
    }
}

/// Files every plan as a proposal in the session's folder, with the end of the turn's history
/// as evidence.
impl PlanSink for ReviewPlans {
    fn apply(
        &self,
        folder: &dyn MemoryFolder,
        plan: MemoryPlan,
        history: &[Message],
    ) -> Result<PlanOutcome, PlanError> {
        let folder: &dyn Any = folder;
        let open = folder.downcast_ref::<Open>().ok_or(
            "review mode files proposals in a folder memwb opened (formats::Open, a .memory Store or a Claude Code folder); this session's folder is another kind, so nothing was filed",
        )?;
        let id = open
            .backend()
            .propose_plan(&plan, &self.origin, evidence(history))?;
        Ok(PlanOutcome::Proposed { id })
    }
}
