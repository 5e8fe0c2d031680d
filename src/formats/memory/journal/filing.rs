//! A `.memory` proposal filed from a record plan ([`NewProposal`], [`file`]) and checked against
//! the set as it is now ([`state`]). The proposal as filed is neutral (`review::proposal`); its
//! base, taken from the set the proposer read, and what makes it stale (a source removed or
//! changed, a name now taken) are the `.memory` engine's.

use std::collections::HashSet;

use crate::redact::records::{is_copy_of, redact_input};
use crate::review::ReviewError;
use crate::review::journal::JournalRecord;
use crate::review::proposal::{Kind, Origin, Proposal, ProposalStatus, State, create_in};
use crate::review::state::JournalHome;
use crate::session::Plan;
use crate::store::inspect::ManifestState;
use crate::store::{EntryState, Inspection, MemorySet, Record, Store};

/// What a proposer hands in.
#[derive(Debug, Clone)]
pub struct NewProposal {
    pub plan: Plan,
    pub origin: Origin,
    /// The set as the proposer saw it (the sources' full content is kept from it).
    pub seen: MemorySet,
    pub additions: Vec<Record>,
    pub evidence: Option<String>,
}

/// Files a proposal in `home`, changing nothing in the set. Sources must be among what the
/// proposer saw and the additions.
pub fn file(home: &dyn JournalHome, new: NewProposal) -> Result<Proposal, ReviewError> {
    let candidates: HashSet<&str> = new
        .seen
        .records()
        .chain(&new.additions)
        .map(Record::name)
        .collect();
    for name in new.plan.source_names() {
        if !candidates.contains(name.as_str()) {
            return Err(ReviewError::ProposalInvalid {
                rule: format!("source name {name:?} is not among the candidates"),
            });
        }
    }
    let sources: HashSet<&str> = new.plan.source_names().iter().map(String::as_str).collect();
    let base: Vec<JournalRecord> = new
        .seen
        .entries
        .iter()
        .filter(|e| sources.contains(e.record.name()))
        .map(JournalRecord::from)
        .collect();
    let mut proposal = Proposal::pending(Kind::of_plan(&new.plan), new.origin, new.evidence);
    proposal.base = base;
    proposal.additions = new
        .additions
        .iter()
        .map(|r| redact_input(&r.to_input()))
        .collect();
    proposal.plan = new.plan.to_value();
    create_in(&home.create_state()?, &proposal)?;
    Ok(proposal)
}

/// How `proposal` stands against `current`: decided, ready, or stale with what changed, said
/// as every format says it (`State::was_changed`): a source changed or removed since it was
/// filed, a memory it would write that exists now, or a plan that no longer reads.
pub fn state(proposal: &Proposal, current: &MemorySet) -> State {
    stale_if(proposal, current, &HashSet::new())
}

/// The records of a set that read, and the files it lists that are there but do not read
/// (not a record the codec parses, not a regular file): what a proposal is checked against
/// when the strict reading fails or is not wanted (the workbench's).
pub(crate) struct Readable {
    pub(crate) records: MemorySet,
    unreadable: HashSet<String>,
}

impl Readable {
    /// A set that reads whole.
    pub(crate) fn all(records: MemorySet) -> Readable {
        Readable {
            records,
            unreadable: HashSet::new(),
        }
    }

    /// [`state`] against what reads of the set: a source whose file is still listed but does
    /// not read is said as such, not as removed (a Claude Code folder says the same of a file
    /// that does not read).
    pub(crate) fn state(&self, proposal: &Proposal) -> State {
        stale_if(proposal, &self.records, &self.unreadable)
    }

    /// What of `inspection` reads (the workbench's reading).
    pub(crate) fn of(inspection: &Inspection) -> Readable {
        let unreadable = inspection
            .entries
            .iter()
            .filter(|entry| !matches!(entry.state, EntryState::Valid(_) | EntryState::Missing))
            .map(|entry| entry.file.clone())
            .collect();
        Readable {
            records: inspection.valid_set(),
            unreadable,
        }
    }

    /// What reads of `store`'s set once its strict reading failed (a record does not read);
    /// `None` when the set itself does not (a manifest that does not read, a `.memory` that
    /// escapes), where no record can be told apart.
    pub(crate) fn when_strict_fails(store: &Store) -> Option<Readable> {
        let inspection = store.inspect();
        let whole = inspection.root_error.is_none()
            && !matches!(inspection.manifest, ManifestState::Invalid(_));
        whole.then(|| Readable::of(&inspection))
    }

    /// The first source of `proposal` whose version it saw is listed but does not read, said
    /// as every format says it (`State::cannot_be_read`).
    pub(crate) fn unreadable_source(&self, proposal: &Proposal) -> Option<String> {
        proposal
            .base
            .iter()
            .find(|source| self.unreadable.contains(&source.file))
            .map(|source| State::cannot_be_read(&source.record.name))
    }
}

/// [`state`], a source whose file is among `unreadable` said as not read.
fn stale_if(proposal: &Proposal, current: &MemorySet, unreadable: &HashSet<String>) -> State {
    match proposal.status {
        ProposalStatus::Approved => return State::Approved,
        ProposalStatus::Rejected => return State::Rejected,
        ProposalStatus::Pending => {}
    }
    let mut changes = Vec::new();
    for source in &proposal.base {
        let name = &source.record.name;
        match current.get(name) {
            None if unreadable.contains(&source.file) => changes.push(State::cannot_be_read(name)),
            None => changes.push(State::was_removed(name)),
            Some(entry) if !is_copy_of(&source.record, &entry.record) => {
                changes.push(State::was_changed(name))
            }
            Some(_) => {}
        }
    }
    match proposal.plan() {
        Err(e) => changes.push(State::plan_invalid(&e)),
        Ok(plan) => {
            let sources: HashSet<&str> = plan.source_names().iter().map(String::as_str).collect();
            let additions = proposal
                .additions
                .iter()
                .map(|r| r.name.as_str())
                .filter(|n| !sources.contains(n));
            for name in plan.records().iter().map(Record::name).chain(additions) {
                if current.get(name).is_some() && !sources.contains(name) {
                    changes.push(State::exists_now(name));
                }
            }
        }
    }
    if changes.is_empty() {
        State::Ready
    } else {
        State::Stale(changes)
    }
}
