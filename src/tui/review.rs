//! What the Proposals and History views show: every proposal and the journal, loaded together
//! off the UI thread (after each job, and when the watcher sees `.memory/.memwb` change).

use crate::review::proposal;
use crate::review::{Entry, Journal, Proposal};
use crate::store::Store;

#[derive(Debug, Clone, Default)]
pub struct Review {
    /// Every proposal, oldest first (unreadable files are skipped by the engine).
    pub proposals: Vec<Proposal>,
    /// The journal, oldest first.
    pub journal: Vec<Entry>,
    /// Why the proposals or the journal could not be read, if so.
    pub error: Option<String>,
}

impl Review {
    /// Reads the proposals and the journal. A failure is kept as a message, never fatal: the
    /// rest of the workbench does not depend on it.
    pub fn load(store: &Store) -> Self {
        let mut errors = Vec::new();
        let proposals = proposal::list(store).unwrap_or_else(|e| {
            errors.push(format!("cannot list the proposals: {e}"));
            Vec::new()
        });
        let journal = Journal::of(store).entries().unwrap_or_else(|e| {
            errors.push(format!("cannot read the journal: {e}"));
            Vec::new()
        });
        Self {
            proposals,
            journal,
            error: (!errors.is_empty()).then(|| errors.join("; ")),
        }
    }
}

impl Review {
    /// The journal of a Claude Code folder (in memwb's state directory for it). Proposals on
    /// these folders are not listed here yet.
    pub fn load_claude(folder: &crate::claude::ClaudeFolder) -> Self {
        let journal = crate::review::claude::journal_of(folder).and_then(|j| j.entries());
        match journal {
            Ok(journal) => Self {
                proposals: Vec::new(),
                journal,
                error: None,
            },
            Err(e) => Self {
                error: Some(format!("cannot read the journal: {e}")),
                ..Self::default()
            },
        }
    }
}
