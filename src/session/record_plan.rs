//! A validated record plan ([`Plan`]): what an extractor's or a consolidator's reply says to
//! write, checked exactly as the session checks it. Every format uses it: a `.memory`
//! proposal keeps it as its plan, the Claude Code backend makes topic files of it, and
//! `consolidate --plan` and `propose import` read their replies into it.
//!
//! It is [`MemoryPlan`](super::MemoryPlan)'s near twin and stays its own type: a `Plan` is a
//! reply (the records to write and, for a consolidation, the names of the memories they
//! replace), while a `MemoryPlan` also carries what the turn read (the base and the extracted
//! additions) that a commit checks again under the folder's lock.

use serde_json::Value;

use super::replies::{parse_consolidation_reply, parse_extraction_reply};
use crate::memory::RecordInput;
use crate::redact::records::redact_input;
use crate::store::Record;

/// A validated plan: new records, or records that replace the memories named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    Extraction(Vec<Record>),
    Consolidation {
        source_names: Vec<String>,
        records: Vec<Record>,
    },
}

impl Plan {
    /// An extractor's reply, read as the session reads it: exact keys, every record valid,
    /// and at least one record.
    pub fn extraction(reply: &Value) -> Result<Self, String> {
        let plan = parse_extraction_reply(reply)
            .map(Plan::Extraction)
            .map_err(|e| e.to_string())?;
        plan.with_records()
    }

    /// A consolidator's reply, read as the session reads it: exact keys, every record valid,
    /// the sources unique and among `candidates`.
    pub fn consolidation(reply: &Value, candidates: &[Record]) -> Result<Self, String> {
        let plan = parse_consolidation_reply(reply, candidates)
            .map(|reply| Plan::Consolidation {
                source_names: reply.source_names,
                records: reply.records,
            })
            .map_err(|e| e.to_string())?;
        plan.with_records()
    }

    /// A consolidation as a proposal filed it: `candidates` are the records it was checked
    /// against, as the proposal keeps them, each read as a record again.
    pub fn consolidation_as_filed<'a>(
        reply: &Value,
        candidates: impl IntoIterator<Item = &'a RecordInput>,
    ) -> Result<Self, String> {
        let candidates: Vec<Record> = candidates
            .into_iter()
            .map(Record::from_input)
            .collect::<Result<_, _>>()
            .map_err(|e| format!("a source record is invalid: {e}"))?;
        Self::consolidation(reply, &candidates)
    }

    fn with_records(self) -> Result<Self, String> {
        if self.records().is_empty() {
            return Err("a proposal needs at least one record".into());
        }
        Ok(self)
    }

    pub fn records(&self) -> &[Record] {
        match self {
            Plan::Extraction(records) | Plan::Consolidation { records, .. } => records,
        }
    }

    /// The memories a consolidation replaces, by name (none for an extraction).
    pub fn source_names(&self) -> &[String] {
        match self {
            Plan::Extraction(_) => &[],
            Plan::Consolidation { source_names, .. } => source_names,
        }
    }

    /// The plan as a reply would say it, its credentials redacted: what a proposal keeps.
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
