//! What the Proposals and History views show: every proposal and the journal, loaded together
//! off the UI thread (after each job, and when the watcher sees `.memory/.memwb` change).

use std::collections::HashMap;

use crate::review::proposal;
use crate::review::{Entry, Journal, Proposal, State};
use crate::store::Store;

/// The most journal entries History lists (the newest): the journal is read from its end only
/// that far, however long it has grown; `memwb log` shows the rest.
pub const HISTORY_ENTRIES: usize = 1000;

#[derive(Debug, Clone, Default)]
pub struct Review {
    /// Every proposal, oldest first (unreadable files are skipped by the engine).
    pub proposals: Vec<Proposal>,
    /// The journal's newest [`HISTORY_ENTRIES`] entries, oldest first.
    pub journal: Vec<Entry>,
    /// Why the proposals or the journal could not be read, if so.
    pub error: Option<String>,
    /// Per proposal id, whether it still applies, where that takes reading files (a Claude
    /// Code folder's proposals); the others are checked against the set in memory.
    pub states: HashMap<String, State>,
}

impl Review {
    /// The proposals and the journal of the folder `backend` opens, as its format keeps them.
    pub fn of(backend: &crate::formats::Open) -> Self {
        use crate::formats::Open as Backend;
        match backend {
            Backend::Memory(store) => Self::load(store),
            Backend::Claude(folder) => Self::load_claude(folder),
        }
    }

    /// Reads the proposals and the journal. A failure is kept as a message, never fatal: the
    /// rest of the workbench does not depend on it.
    pub fn load(store: &Store) -> Self {
        let mut errors = Vec::new();
        let proposals = proposal::list(store).unwrap_or_else(|e| {
            errors.push(format!("cannot list the proposals: {e}"));
            Vec::new()
        });
        let journal = Journal::of(store)
            .last_entries(HISTORY_ENTRIES)
            .unwrap_or_else(|e| {
                errors.push(format!("cannot read the journal: {e}"));
                Vec::new()
            });
        Self {
            proposals,
            journal,
            error: (!errors.is_empty()).then(|| errors.join("; ")),
            states: HashMap::new(),
        }
    }
}

impl Review {
    /// The proposals and the journal of a Claude Code folder (in memwb's state directory for
    /// it), each proposal checked against the folder's files as they are now.
    pub fn load_claude(folder: &crate::claude::ClaudeFolder) -> Self {
        use crate::formats::claude::journal;
        let mut errors = Vec::new();
        let proposals = match journal::list(folder) {
            Ok(listing) => {
                if !listing.corrupt.is_empty() {
                    errors.push(format!(
                        "{} proposal file(s) do not read (memwb proposals lists them)",
                        listing.corrupt.len()
                    ));
                }
                listing.proposals
            }
            Err(e) => {
                errors.push(format!("cannot list the proposals: {e}"));
                Vec::new()
            }
        };
        let states = proposals
            .iter()
            .map(|p| (p.id.clone(), journal::state(folder, p)))
            .collect();
        let journal = journal::journal_of(folder)
            .and_then(|j| j.last_entries(HISTORY_ENTRIES))
            .unwrap_or_else(|e| {
                errors.push(format!("cannot read the journal: {e}"));
                Vec::new()
            });
        Self {
            proposals,
            journal,
            error: (!errors.is_empty()).then(|| errors.join("; ")),
            states,
        }
    }
}
