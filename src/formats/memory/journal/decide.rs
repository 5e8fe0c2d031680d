//! Deciding a proposal on a `.memory` set: under the store lock and through the journal, so two
//! deciders (or two processes) have exactly one effect, and a decision a crash interrupted is
//! recovered first.

use super::Readable;
use super::observer::journaled;
use crate::change::Touched;
use crate::redact::records::as_current;
use crate::review::ReviewError;
use crate::review::journal::{Entry, EntryMeta, Journal, Op};
use crate::review::proposal::{
    Deciding, Proposal, ProposalStatus, State, decision, load, pending, rewrite,
};
use crate::session::Plan;
use crate::store::{Commit, Record, Store, StoreError};

/// The proposal `id`, pending, read under the lock after any interrupted decision was recovered.
pub(super) fn load_pending(store: &Store, id: &str) -> Result<Proposal, ReviewError> {
    Journal::of(store).recover(store)?;
    let proposal = load(store, id)?;
    pending(&proposal)?;
    Ok(proposal)
}
/// The records `proposal` was made from, as the set's records.
pub(super) fn base_records(proposal: &Proposal) -> Result<Vec<Record>, StoreError> {
    proposal
        .base
        .iter()
        .map(|r| Ok(Record::from_input(&r.record)?))
        .collect()
}

/// The records `proposal` adds that were not in the set when it was made.
pub(super) fn addition_records(proposal: &Proposal) -> Result<Vec<Record>, StoreError> {
    proposal
        .additions
        .iter()
        .map(|r| Ok(Record::from_input(r)?))
        .collect()
}

/// Applies a proposal's plan with its base. A stale proposal is refused with what changed.
pub fn approve(store: &Store, id: &str) -> Result<(Commit, Option<Entry>), ReviewError> {
    let proposal = load(store, id)?;
    pending(&proposal)?;
    let plan = proposal.plan().map_err(|rule| ReviewError::PlanInvalid {
        id: id.to_owned(),
        rule,
    })?;
    let mut base = base_records(&proposal)?;
    let readable = match store.read() {
        Ok(current) => Some(Readable::all(current)),
        Err(_) => Readable::when_strict_fails(store),
    };
    if let Some(readable) = readable {
        // Said as every format says it (`State::was_changed`, `State::cannot_be_read`); the
        // store's compare-and-swap under the lock still refuses what changes after this
        // reading, and a set with a record that does not read.
        if let State::Stale(changes) = readable.state(&proposal) {
            return Err(ReviewError::ProposalStale {
                id: id.to_owned(),
                detail: changes.join("; "),
            });
        }
        base = as_current(&readable.records, base);
    }
    let additions = addition_records(&proposal)?;
    let meta = EntryMeta::deciding(Op::Approve, proposal.reference(), None);
    let stale = |e: ReviewError| match e.into_engine_error::<StoreError>() {
        Ok(StoreError::Conflict { detail }) => ReviewError::ProposalStale {
            id: id.to_owned(),
            detail,
        },
        Ok(StoreError::DuplicateName { name }) => ReviewError::ProposalStale {
            id: id.to_owned(),
            detail: State::exists_now(&name),
        },
        Ok(other) => other.into(),
        Err(other) => other,
    };
    let deciding = Deciding {
        decision: decision(id, ProposalStatus::Approved, None),
        read_as: proposal,
    };
    journaled(store, meta, Some(deciding), |s| match plan {
        Plan::Extraction(records) => s.extend(records),
        Plan::Consolidation {
            source_names,
            records,
        } => s.apply_proposed_consolidation(&base, additions, &source_names, records),
    })
    .map_err(stale)
}

/// Closes a proposal without applying it.
pub fn reject(store: &Store, id: &str, reason: Option<String>) -> Result<Entry, ReviewError> {
    let _lock = store.lock_for_write()?;
    let proposal = load_pending(store, id)?;
    let journal = Journal::of(store);
    let meta = EntryMeta::deciding(Op::Reject, proposal.reference(), reason.clone());
    journal.record_decision_only(meta, decision(id, ProposalStatus::Rejected, reason))
}

/// Replaces the record the pending proposal `id` writes at `at` (a place in its change, as
/// [`Proposal::change`] lays it out) with `record` (a reviewer's edit). `opened` is the
/// proposal's change as the reviewer read it: if someone else edited the proposal since,
/// nothing is written.
pub fn edit_records(
    store: &Store,
    id: &str,
    opened: &[Touched],
    at: usize,
    record: Record,
) -> Result<Proposal, ReviewError> {
    let _lock = store.lock_for_write()?;
    let mut proposal = load_pending(store, id)?;
    let invalid = |rule: String| ReviewError::PlanInvalid {
        id: id.to_owned(),
        rule,
    };
    let current = proposal.plan().map_err(invalid)?;
    if proposal.change().touched != opened {
        return Err(ReviewError::ProposalEdited { id: id.to_owned() });
    }
    let Some(place) = proposal.planned_at(at) else {
        return Err(ReviewError::NothingToEdit { id: id.to_owned() });
    };
    let mut records = current.records().to_vec();
    let Some(edited) = records.get_mut(place) else {
        return Err(ReviewError::NothingToEdit { id: id.to_owned() });
    };
    *edited = record;
    let plan = match current {
        Plan::Extraction(_) => Plan::Extraction(records),
        Plan::Consolidation { source_names, .. } => Plan::Consolidation {
            source_names,
            records,
        },
    };
    proposal.plan = plan.to_value();
    rewrite(store, &proposal)?;
    Ok(proposal)
}
