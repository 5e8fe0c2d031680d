//! The fixes the content audit plans on the read model, and how a backend files them as
//! proposals: planning is written once (`content::fix::plan`), filing is the format's
//! ([`FixTarget`], behind [`super::Backend::file_fixes`]). Nothing here applies a change.

use crate::memory::Memory;
use crate::review::{Proposal, ReviewError};

/// One memory's fix as the audit's findings add up to it, before any format writes it.
#[derive(Debug, Clone)]
pub enum PlannedFix {
    /// The memory with every credential in its file replaced by `[REDACTED]`.
    Redact { memory: Memory },
    /// The memory's relative dates replaced by the dates they meant: the new description
    /// and body (`None`: that field is unchanged), and the phrases, for the reviewer.
    Dates {
        memory: Memory,
        description: Option<String>,
        body: Option<String>,
        why: String,
    },
    /// The dedupe proposal for the group of these memories.
    Dedupe { names: Vec<String> },
}

/// Plans the fixes for a folder's memories as read at filing time.
pub type FixPlanner<'a> = &'a dyn Fn(&[Memory]) -> Vec<PlannedFix>;

/// One format's folder as read now, to which fixes are filed as proposals.
pub(crate) trait FixTarget {
    /// A proposal as the format files it.
    type New;

    /// The memories as read now, which findings are matched to.
    fn memories(&self) -> &[Memory];

    /// The proposal for `planned`, or none when it would change nothing or is already filed
    /// (`proposed` holds the ones this call proposed before it).
    fn propose(
        &mut self,
        planned: PlannedFix,
        proposed: &[Self::New],
    ) -> Result<Option<Self::New>, ReviewError>;

    /// Files one proposal.
    fn file(&self, new: Self::New) -> Result<Proposal, ReviewError>;
}

/// Files what `plan` plans for `target`'s memories, and returns the proposals as filed.
pub(crate) fn file_planned<T: FixTarget>(
    target: &mut T,
    plan: FixPlanner<'_>,
) -> Result<Vec<Proposal>, ReviewError> {
    let mut proposed = Vec::new();
    for planned in plan(target.memories()) {
        if let Some(new) = target.propose(planned, &proposed)? {
            proposed.push(new);
        }
    }
    proposed.into_iter().map(|new| target.file(new)).collect()
}

/// `names` in order, to compare groups whatever order they were given in.
pub(crate) fn sorted(names: &[String]) -> Vec<String> {
    let mut names = names.to_vec();
    names.sort();
    names
}
