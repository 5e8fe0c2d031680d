//! The agent session (`session::MemorySession`) on any open folder: [`MemoryFolder`] for
//! [`Open`], each method through the format's [`Backend`](super::Backend) (`propose`'s
//! candidates, `commit_plan`, `propose_plan`). `session` sits below `formats`, so the folder a
//! session holds is this one behind its trait; review mode (`review::ReviewPlans`) files its
//! plans through [`MemoryFolder::propose`].

use std::path::Path;

use super::Open;
use crate::session::{Committed, FolderReading, MemoryFolder, MemoryPlan, PlanError};
use crate::who::Origin;

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

    fn commit(&self, plan: MemoryPlan) -> Result<Committed, PlanError> {
        Ok(self.backend().commit_plan(&plan)?)
    }

    fn propose(
        &self,
        plan: &MemoryPlan,
        origin: &Origin,
        evidence: Option<String>,
    ) -> Result<String, PlanError> {
        Ok(self.backend().propose_plan(plan, origin, evidence)?)
    }
}

impl From<Open> for Box<dyn MemoryFolder> {
    fn from(open: Open) -> Self {
        Box::new(open)
    }
}
