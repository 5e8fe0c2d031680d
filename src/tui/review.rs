//! What the Proposals and History views show: every proposal and the journal, loaded together
//! off the UI thread (after each job, and when the watcher sees memwb's state for the folder
//! change), through the open folder's backend.

use std::collections::HashMap;
use std::sync::Arc;

use crate::formats::{Filed, Open};
use crate::review::{Entry, Proposal, State};

/// The most journal entries History lists (the newest): the journal is read from its end only
/// that far, however long it has grown; `memwb log` shows the rest.
pub const HISTORY_ENTRIES: usize = 1000;

#[derive(Debug, Clone, Default)]
pub struct Review {
    /// Every proposal, oldest first (unreadable files are skipped by the engine).
    pub proposals: Vec<Proposal>,
    /// The journal's newest [`HISTORY_ENTRIES`] entries, oldest first, shared with what the
    /// open folder keeps of the journal between readings ([`Open::journal_tail`]).
    pub journal: Vec<Arc<Entry>>,
    /// Why the proposals or the journal could not be read, if so.
    pub error: Option<String>,
    /// Per proposal id, whether it still applies, where that takes reading files (the
    /// backend says which); the others are checked against the set in memory.
    pub states: HashMap<String, State>,
}

impl Review {
    /// The proposals and the journal of the folder `open` opens, as its backend keeps them,
    /// nothing resolved or written. A failure is kept as a message, never fatal: the rest of
    /// the workbench does not depend on it.
    pub fn of(open: &Open) -> Self {
        let backend = open.backend();
        let mut errors = Vec::new();
        let filed = backend.filed().unwrap_or_else(|e| {
            errors.push(format!("cannot list the proposals: {e}"));
            Filed::default()
        });
        if !filed.corrupt.is_empty() {
            errors.push(format!(
                "{} proposal file(s) do not read (memwb proposals lists them)",
                filed.corrupt.len()
            ));
        }
        let journal = open.journal_tail(HISTORY_ENTRIES).unwrap_or_else(|e| {
            errors.push(format!("cannot read the journal: {e}"));
            Vec::new()
        });
        let mut states = HashMap::new();
        let mut proposals = Vec::with_capacity(filed.listed.len());
        for (proposal, state) in filed.listed {
            if let Some(state) = state {
                states.insert(proposal.id.clone(), state);
            }
            proposals.push(proposal);
        }
        Self {
            proposals,
            journal,
            error: (!errors.is_empty()).then(|| errors.join("; ")),
            states,
        }
    }
}
