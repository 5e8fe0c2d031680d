//! What the review methods of [`Backend`](super::Backend) take and answer: the same
//! proposals, journal entries and summary lines on every format (docs/review.md), so that
//! `propose`, `proposals`, `approve`, `reject`, `log` and `undo` are written once above the
//! backends.

use super::{FormatError, Written};
use crate::memory::Refusal;
use crate::review::ReviewError;
use crate::review::journal::Entry;
use crate::review::proposal::{Corrupt, Origin, Proposal, State};
use crate::review::undo::Reverted;
use crate::session::Plan;

/// What a proposal may be about is what the session's side-queries are shown.
pub use crate::session::Candidates;

/// A proposal being made from the folder as it was read when it began: what it was read as
/// is the proposal's base, so that a change made meanwhile makes it stale.
pub trait Proposing {
    /// The memories the proposal may be about.
    fn candidates(&self) -> &Candidates;

    /// Files the plan as a proposal (nothing in the folder changes).
    fn file(self: Box<Self>, draft: Draft) -> Result<Proposed, FormatError>;
}

/// A plan and where it came from.
#[derive(Debug, Clone)]
pub struct Draft {
    pub plan: Plan,
    pub origin: Origin,
    /// The excerpt it came from, shown to the reviewer.
    pub evidence: Option<String>,
}

/// What filing a draft did: the proposal (`None`: the plan changes nothing here, so nothing
/// was filed) and the memories of the plan the format refused.
#[derive(Debug, Clone, Default)]
pub struct Proposed {
    pub filed: Option<Proposal>,
    pub refused: Vec<Refusal>,
}

/// One group of near-duplicates: filed as a new proposal, or already held by one.
#[derive(Debug, Clone)]
pub enum Deduped {
    Filed(Proposal),
    /// The group's memories and the pending (or rejected) proposal that holds them.
    Skipped {
        names: Vec<String>,
        known: Proposal,
    },
}

/// Every filed proposal with whether it still applies, and the proposal files that do not read.
#[derive(Debug, Clone, Default)]
pub struct Proposals {
    pub listed: Vec<(Proposal, State)>,
    pub corrupt: Vec<Corrupt>,
}

/// What approving a proposal or undoing an entry did: the journal entry it became, the
/// change in words (and its warning), and what a person must know about what came back.
#[derive(Debug, Clone)]
pub struct Decided {
    pub entry: Option<Entry>,
    pub written: Written,
    pub notes: Vec<String>,
}

impl Decided {
    pub(crate) fn new(entry: Option<Entry>, written: Written) -> Self {
        Self {
            entry,
            written,
            notes: Vec::new(),
        }
    }

    /// `decided`, or, for a decision (an approval, an undo) that is in place but whose journal
    /// mark could not be written, what it did (said from its entry, which waits as an intent)
    /// with the journal's failure as its warning: as add, set and rm say theirs, on every
    /// format.
    pub(crate) fn or_not_journaled(
        decided: Result<Decided, FormatError>,
    ) -> Result<Decided, FormatError> {
        match decided {
            Err(error) => match not_journaled(&error) {
                Some(written) => Ok(Decided::new(None, written)),
                None => Err(error),
            },
            ok => ok,
        }
    }

    /// What undoing `entry` did, as [`Decided::or_not_journaled`] says it, with what every
    /// format notes of it (`Entry::undo_notes`: a memory written back with its credentials as
    /// `[REDACTED]`), so that the notes are said once, the same on every format: from the
    /// inverse the undo wrote, or, when it is in place but not journaled, from `entry`.
    pub(crate) fn of_undo(
        entry: &Entry,
        undone: Result<Reverted<Decided>, FormatError>,
    ) -> Result<Decided, FormatError> {
        let (mut decided, notes) = match undone {
            Ok(reverted) => {
                let notes = entry.undo_notes_of(&reverted.inverse);
                (reverted.undone, notes)
            }
            Err(error) => (Self::or_not_journaled(Err(error))?, entry.undo_notes()),
        };
        decided.notes.extend(notes);
        Ok(decided)
    }
}

/// A change that is in place but whose journal mark could not be written, as written: what it
/// did, as its entry (which waits as an intent) says it, and the journal's failure as its
/// warning. `None` for any other error.
pub(crate) fn not_journaled(error: &FormatError) -> Option<Written> {
    match error {
        FormatError::Review(review @ ReviewError::NotJournaled { did, .. }) => Some(Written {
            summary: did.clone(),
            warning: Some(review.to_string()),
        }),
        _ => None,
    }
}
