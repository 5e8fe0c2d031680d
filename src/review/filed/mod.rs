//! A proposal as filed: what it proposes (its plan, base and file images), its file in the
//! state directory, and the decision recorded on it. Below the journal, which records a
//! decision on the file when its entry commits (and again in crash recovery); deciding a
//! proposal (approve, reject, edit, rebase) runs through the journal and is `review::proposal`,
//! which re-exports all of this.
//!
//! One JSON file per proposal in `.memory/.memwb/proposals/<id>.json`, written atomically and
//! exclusively. Deciding one happens under the store lock, so two deciders (or two processes)
//! have exactly one effect.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::entry::{JournalRecord, ProposalRef};
use super::who::Who;
use crate::change::FileImage;
use crate::memory::RecordInput;
use crate::redact::redact;
use crate::session::Plan;
use crate::time::now_ms;

mod change;
mod deciding;
mod files;
pub mod images;

pub use crate::who::{AgentCall, Origin};
#[cfg(feature = "tui")]
pub(crate) use change::version_fields;
pub(crate) use change::{image_touched, input_version};
pub(crate) use deciding::{check_as_read, check_as_read_in, decision, pending, record_decision_in};
pub(crate) use files::rewrite;
pub use files::{Corrupt, Listing, list, list_all, list_all_in, load, load_in};
pub(crate) use files::{create_in, rewrite_in};
pub(crate) use files::{is_decided, is_decided_in};

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
    /// The kind of proposal that files `plan`.
    pub fn of_plan(plan: &Plan) -> Kind {
        match plan {
            Plan::Extraction(_) => Kind::Extraction,
            Plan::Consolidation { .. } => Kind::Consolidation,
        }
    }

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

/// Whether a pending proposal still applies to the current set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    Ready,
    /// What changed since the proposal was made.
    Stale(Vec<String>),
    Approved,
    Rejected,
}

/// What made a proposal stale, said in one wording on every format (docs/cli.md, "One idea,
/// one word"): the memory by its name, as `memwb show` takes it.
impl State {
    /// A memory the proposal replaces or edits was changed since it was filed.
    pub(crate) fn was_changed(name: &str) -> String {
        format!("{name:?} was changed")
    }

    /// A memory the proposal replaces or edits was removed since it was filed.
    pub(crate) fn was_removed(name: &str) -> String {
        format!("{name:?} was removed")
    }

    /// A memory the proposal would write exists now.
    pub(crate) fn exists_now(name: &str) -> String {
        format!("{name:?} exists now")
    }

    /// A memory the proposal replaces, edits or writes is in a file that does not read now
    /// (not text, not a regular file, or not a record the format can parse). Why is the
    /// file's, not the proposal's, and each format words it its own way: `memwb check` says it.
    pub(crate) fn cannot_be_read(name: &str) -> String {
        format!("{name:?} cannot be read: memwb check says why")
    }

    /// The proposal's plan does not validate, for the reason `why`.
    pub(crate) fn plan_invalid(why: &str) -> String {
        format!("{PLAN_INVALID}{why}")
    }

    /// Why the proposal's plan does not validate, when its state says so (what the
    /// workbench's detail shows instead of the plan).
    pub fn why_plan_invalid(&self) -> Option<&str> {
        match self {
            State::Stale(changes) => changes
                .iter()
                .find_map(|change| change.strip_prefix(PLAN_INVALID)),
            _ => None,
        }
    }
}

/// How a stale state's line saying the plan does not validate begins.
const PLAN_INVALID: &str = "the plan is invalid: ";

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
    /// The record plan this proposal files, read as the session reads a reply; an edit
    /// proposal (whole files) has none.
    pub fn plan(&self) -> Result<Plan, String> {
        match self.kind {
            Kind::Extraction => Plan::extraction(&self.plan),
            Kind::Consolidation => Plan::consolidation_as_filed(
                &self.plan,
                self.base.iter().map(|r| &r.record).chain(&self.additions),
            ),
            Kind::Edit => Err("an edit proposal changes files; it has no record plan".into()),
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
