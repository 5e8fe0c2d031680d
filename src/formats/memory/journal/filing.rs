//! A `.memory` proposal filed from a record plan ([`NewProposal`], [`file`]). The proposal as filed is
//! neutral (`review::proposal`); its base, taken from the set the proposer read, is the
//! `.memory` engine's.

use std::collections::HashSet;

use crate::redact::records::redact_input;
use crate::review::ReviewError;
use crate::review::journal::JournalRecord;
use crate::review::proposal::{Kind, Origin, Proposal, create_in};
use crate::review::state::JournalHome;
use crate::session::Plan;
use crate::store::{MemorySet, Record};

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
