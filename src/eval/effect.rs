//! What approving a proposal would do to the cases: they run against the set as it would be,
//! with the keyword selector, and the verdicts that change are counted. The set as it would
//! be is the backend's to say ([`Backend::memories_after_approving`]: a `.memory` plan applied
//! to the records, a Claude Code proposal's after-images of its files), so the effect is
//! computed the same way on every format.

use super::cases::Case;
use super::metrics::Verdict;
use super::run::{Corpus, run_keyword};
use crate::formats::{Backend, FormatError};
use crate::review::Proposal;

impl Corpus {
    /// The set as it would be once `proposal` is approved, as `backend` (the folder the
    /// proposal was filed for) applies it. The catalog keeps its text (approving derives the
    /// index), which the keyword selector never reads.
    pub fn after(&self, backend: &dyn Backend, proposal: &Proposal) -> Result<Corpus, FormatError> {
        Ok(Corpus {
            memories: backend.memories_after_approving(&self.memories, proposal)?,
            catalog: self.catalog.clone(),
        })
    }
}

/// The cases a change would turn from failing to passing, and from passing to failing
/// (numbered from 1, as `memwb eval ls` lists them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseChanges {
    pub now_pass: Vec<usize>,
    pub now_fail: Vec<usize>,
}

impl CaseChanges {
    /// Runs `cases` on `before` and `after` with the keyword selector and compares.
    pub fn between(before: &Corpus, after: &Corpus, cases: &[Case], k: usize) -> Self {
        let old = run_keyword(before, cases, k);
        let new = run_keyword(after, cases, k);
        let mut changes = Self::default();
        for (i, (old, new)) in old.results.iter().zip(&new.results).enumerate() {
            match (old.verdict(), new.verdict()) {
                (Verdict::Pass, Verdict::Pass) => {}
                (_, Verdict::Pass) => changes.now_pass.push(i + 1),
                (Verdict::Pass, _) => changes.now_fail.push(i + 1),
                _ => {}
            }
        }
        changes
    }

    pub fn is_empty(&self) -> bool {
        self.now_pass.is_empty() && self.now_fail.is_empty()
    }

    /// "approving this changes 2 cases: +1 pass, -1 fail".
    pub fn describe(&self) -> String {
        let count = self.now_pass.len() + self.now_fail.len();
        if count == 0 {
            return "approving this changes no case".into();
        }
        let plural = if count == 1 { "" } else { "s" };
        let mut parts = Vec::new();
        if !self.now_pass.is_empty() {
            parts.push(format!("+{} pass", self.now_pass.len()));
        }
        if !self.now_fail.is_empty() {
            parts.push(format!("-{} fail", self.now_fail.len()));
        }
        format!(
            "approving this changes {count} case{plural}: {}",
            parts.join(", ")
        )
    }
}
