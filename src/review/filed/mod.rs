//! A proposal as filed: what it proposes (its plan, base and file images), its file in the
//! state directory, and the decision recorded on it. Below the journal, which records a
//! decision on the file when its entry commits (and again in crash recovery); deciding a
//! proposal (approve, reject, edit, rebase) runs through the journal and is `review::proposal`,
//! which re-exports all of this.
//!
//! One JSON file per proposal in `.memory/.memwb/proposals/<id>.json`, written atomically and
//! exclusively. Deciding one happens under the store lock, so two deciders (or two processes)
//! have exactly one effect.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::session::replies::{parse_consolidation_reply, parse_extraction_reply};
use serde_json::Value;

use super::entry::{JournalRecord, ProposalRef};
use super::error::ReviewError;
use super::state::JournalHome;
use super::who::Who;
use crate::change::FileImage;
use crate::memory::RecordInput;
use crate::redact::records::{is_copy_of, redact_input};
use crate::redact::redact;
use crate::store::{MemorySet, Record};
use crate::time::now_ms;

mod change;
mod deciding;
mod files;
pub mod images;
mod origin;

pub(crate) use change::{image_touched, input_version};
pub(crate) use deciding::{check_as_read, check_as_read_in, decision, pending, record_decision_in};
pub(crate) use files::rewrite;
pub use files::{Corrupt, Listing, list, list_all, list_all_in, load, load_in};
pub(crate) use files::{create_in, rewrite_in};
pub(crate) use files::{is_decided, is_decided_in};
pub use origin::{AgentCall, Origin};

pub const PROPOSALS_DIR: &str = "proposals";
/// The most of one proposal file that is read (its base holds at most the whole set).
pub const MAX_PROPOSAL_BYTES: usize = 16 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// New records.
    Extraction,
    /// `source_names` replaced by `records`.
    Consolidation,
    /// Changed files, each with its full text before and after (Claude Code folders).
    Edit,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Extraction => "extraction",
            Kind::Consolidation => "consolidation",
            Kind::Edit => "edit",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProposalStatus {
    Pending,
    Approved,
    Rejected,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    pub id: String,
    pub kind: Kind,
    /// Unix milliseconds.
    pub created_at: i64,
    pub origin: Origin,
    /// Every source record as the proposer saw it, with its file.
    pub base: Vec<JournalRecord>,
    /// Candidates that are not in the set yet (an extraction consolidated in the same turn).
    pub additions: Vec<RecordInput>,
    /// The reference's side-query reply: an array of records, or
    /// `{"source_names":[...],"records":[...]}`.
    pub plan: Value,
    /// The excerpt of conversation the proposal came from.
    pub evidence: Option<String>,
    pub status: ProposalStatus,
    pub decided_at: Option<i64>,
    pub decided_by: Option<Who>,
    pub reason: Option<String>,
    pub journal_entry: Option<u64>,
    /// The full text of every file the proposal changes, before and after (Claude Code
    /// folders, where `base`, `additions` and `plan` are empty). MEMORY.md's lines are not
    /// here unless the proposer edited it itself: approving derives them from the index as it
    /// is then.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FileImage>,
}

/// A validated plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    Extraction(Vec<Record>),
    Consolidation {
        source_names: Vec<String>,
        records: Vec<Record>,
    },
}

impl Plan {
    /// Parses a side-query reply exactly as the session does: exact keys, every record valid,
    /// consolidation sources unique and among `candidates`, or nothing.
    pub fn parse(kind: Kind, value: &Value, candidates: &[Record]) -> Result<Self, String> {
        let plan = match kind {
            Kind::Extraction => parse_extraction_reply(value).map(Plan::Extraction),
            Kind::Consolidation => {
                parse_consolidation_reply(value, candidates).map(|reply| Plan::Consolidation {
                    source_names: reply.source_names,
                    records: reply.records,
                })
            }
            Kind::Edit => {
                return Err("an edit proposal changes files; it has no record plan".into());
            }
        };
        let plan = plan.map_err(|e| e.to_string())?;
        if plan.records().is_empty() {
            return Err("a proposal needs at least one record".into());
        }
        Ok(plan)
    }

    pub fn kind(&self) -> Kind {
        match self {
            Plan::Extraction(_) => Kind::Extraction,
            Plan::Consolidation { .. } => Kind::Consolidation,
        }
    }

    pub fn records(&self) -> &[Record] {
        match self {
            Plan::Extraction(records) | Plan::Consolidation { records, .. } => records,
        }
    }

    pub fn source_names(&self) -> &[String] {
        match self {
            Plan::Extraction(_) => &[],
            Plan::Consolidation { source_names, .. } => source_names,
        }
    }

    pub fn to_value(&self) -> Value {
        // What is stored keeps no credential; approving writes the redacted text.
        let records: Vec<RecordInput> = self
            .records()
            .iter()
            .map(|r| redact_input(&r.to_input()))
            .collect();
        match self {
            Plan::Extraction(_) => serde_json::json!(records),
            Plan::Consolidation { source_names, .. } => {
                serde_json::json!({ "source_names": source_names, "records": records })
            }
        }
    }
}

/// Whether a pending proposal still applies to the current set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    Ready,
    /// What changed since the proposal was made.
    Stale(Vec<String>),
    Approved,
    Rejected,
}

impl State {
    pub fn as_str(&self) -> &'static str {
        match self {
            State::Ready => "ready",
            State::Stale(_) => "stale",
            State::Approved => "approved",
            State::Rejected => "rejected",
        }
    }
}

/// A decision about to be applied, with the proposal as the decider read it: under the lock
/// the proposal must still be pending and unchanged, or nothing is applied.
#[derive(Debug, Clone)]
pub struct Deciding {
    pub decision: Decision,
    pub read_as: Proposal,
}

/// The decision on a proposal, applied when its journal entry is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub proposal: String,
    pub status: ProposalStatus,
    pub reason: Option<String>,
    pub by: Who,
    pub at: i64,
}

impl Proposal {
    pub fn plan(&self) -> Result<Plan, String> {
        let candidates: Vec<Record> = self
            .base
            .iter()
            .map(|r| &r.record)
            .chain(&self.additions)
            .map(Record::from_input)
            .collect::<Result<_, _>>()
            .map_err(|e| format!("a source record is invalid: {e}"))?;
        Plan::parse(self.kind, &self.plan, &candidates)
    }

    /// Ready, or stale with what changed, against `current`.
    pub fn state(&self, current: &MemorySet) -> State {
        match self.status {
            ProposalStatus::Approved => return State::Approved,
            ProposalStatus::Rejected => return State::Rejected,
            ProposalStatus::Pending => {}
        }
        let mut changes = Vec::new();
        for source in &self.base {
            match current.get(&source.record.name) {
                None => changes.push(format!("source {:?} was removed", source.record.name)),
                Some(entry) if !is_copy_of(&source.record, &entry.record) => {
                    changes.push(format!("source {:?} was changed", source.record.name))
                }
                Some(_) => {}
            }
        }
        match self.plan() {
            Err(e) => changes.push(format!("the plan is invalid: {e}")),
            Ok(plan) => {
                let sources: HashSet<&str> =
                    plan.source_names().iter().map(String::as_str).collect();
                let additions = self
                    .additions
                    .iter()
                    .map(|r| r.name.as_str())
                    .filter(|n| !sources.contains(n));
                for name in plan.records().iter().map(Record::name).chain(additions) {
                    if current.get(name).is_some() && !sources.contains(name) {
                        changes.push(format!("name {name:?} is now taken"));
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

    pub fn reference(&self) -> ProposalRef {
        ProposalRef {
            id: self.id.clone(),
            kind: self.kind.as_str().into(),
            origin: self.origin.describe(),
            evidence: self.evidence.clone(),
        }
    }
}

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
    let mut proposal = Proposal::pending(new.plan.kind(), new.origin, new.evidence);
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

impl Proposal {
    /// A new pending proposal with a fresh id, nothing in it yet; the evidence is kept with
    /// its credentials redacted.
    pub(crate) fn pending(kind: Kind, origin: Origin, evidence: Option<String>) -> Self {
        Self {
            id: new_id(),
            kind,
            created_at: now_ms(),
            origin,
            base: Vec::new(),
            additions: Vec::new(),
            plan: Value::Null,
            evidence: evidence.map(|e| redact(&e).into_owned()),
            status: ProposalStatus::Pending,
            decided_at: None,
            decided_by: None,
            reason: None,
            journal_entry: None,
            files: Vec::new(),
        }
    }
}

/// A fresh proposal id: 12 lowercase hex digits.
fn new_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..12].to_owned()
}
