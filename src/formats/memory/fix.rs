//! Filing a fix in a `.memory` set: a consolidation proposal of the one record, rewritten,
//! against the set as read (the journal's redaction applies when it is stored).

use super::MemoryBackend;
use super::journal::{NewProposal, file};
use super::{Group, find_groups};
use crate::formats::fix::{FixPlanner, FixTarget, PlannedFix as Planned, file_planned};
use crate::memory::Memory;
use crate::redact::records::redact_record;
use crate::redact::redaction_evidence;
use crate::review::{Origin, Proposal, ReviewError, proposal};
use crate::session::Plan;
use crate::store::{MemorySet, Record, Store};

/// A `.memory` set as read now, with the proposals already filed in it.
struct StoreFixes<'a> {
    store: &'a Store,
    seen: MemorySet,
    memories: Vec<Memory>,
    filed: Vec<Proposal>,
}

impl<'a> StoreFixes<'a> {
    fn read(store: &'a Store) -> Result<Self, ReviewError> {
        let seen = store.read()?;
        Ok(Self {
            store,
            memories: seen.memories(),
            filed: proposal::list(store)?,
            seen,
        })
    }

    fn record(&self, memory: &Memory) -> Option<&Record> {
        self.seen.get(&memory.name).map(|e| &e.record)
    }
}

impl FixTarget for StoreFixes<'_> {
    type New = NewProposal;

    fn memories(&self) -> &[Memory] {
        &self.memories
    }

    fn propose(
        &mut self,
        planned: Planned,
        _proposed: &[NewProposal],
    ) -> Result<Option<NewProposal>, ReviewError> {
        Ok(match planned {
            Planned::Redact { memory } => self.record(&memory).and_then(|record| {
                let redacted = redact_record(record).filter(|r| r != record)?;
                let why = redaction_evidence(&record.to_file_text());
                Some(edit(&self.seen, record, redacted, &why))
            }),
            Planned::Dates {
                memory,
                description,
                body,
                why,
            } => self.record(&memory).and_then(|record| {
                let edited = Record::new(
                    record.name(),
                    record.kind(),
                    description.unwrap_or_else(|| record.description().to_owned()),
                    body.unwrap_or_else(|| record.body().to_owned()),
                )
                .ok()
                .filter(|edited| edited != record)?;
                Some(edit(&self.seen, record, edited, &why))
            }),
            // A group already pending or rejected is not filed again, as `propose dedupe` says.
            Planned::Dedupe { names } => find_groups(&self.seen)
                .into_iter()
                .find(|g| {
                    g.sources
                        .iter()
                        .map(Record::name)
                        .eq(names.iter().map(String::as_str))
                })
                .map(|group| dedupe_proposal(&self.seen, group))
                .filter(|new| super::already_filed(&new.plan, &self.filed, &self.seen).is_none()),
        })
    }

    fn file(&self, new: NewProposal) -> Result<Proposal, ReviewError> {
        file(self.store, new)
    }
}

impl MemoryBackend<'_> {
    pub(super) fn file_planned_fixes(
        &self,
        plan: FixPlanner<'_>,
    ) -> Result<Vec<Proposal>, ReviewError> {
        file_planned(&mut StoreFixes::read(self.store)?, plan)
    }
}

fn edit(seen: &MemorySet, record: &Record, edited: Record, why: &str) -> NewProposal {
    NewProposal {
        plan: Plan::Consolidation {
            source_names: vec![record.name().to_owned()],
            records: vec![edited],
        },
        origin: Origin::new("audit"),
        seen: seen.clone(),
        additions: Vec::new(),
        evidence: Some(why.to_owned()),
    }
}

/// The proposal `propose dedupe` files for one group, also filed by `check --fix`.
pub fn dedupe_proposal(seen: &MemorySet, group: Group) -> NewProposal {
    NewProposal {
        plan: Plan::Consolidation {
            source_names: group.sources.iter().map(|r| r.name().to_owned()).collect(),
            records: vec![group.draft],
        },
        origin: Origin::new("dedupe"),
        seen: seen.clone(),
        additions: Vec::new(),
        evidence: Some(format!(
            "near-duplicates sharing the words: {}; the merged record is a draft to edit",
            group.shared_words.join(", ")
        )),
    }
}
