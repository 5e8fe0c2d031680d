//! What the evaluation asks of a `.memory` set beyond reading it: the memories as a
//! proposal's plan would leave them, and whether the set is still as the journal's newest
//! change left it (the change a regression is blamed on).

use super::MemoryBackend;
use crate::formats::FormatError;
use crate::memory::Memory;
use crate::review::Proposal;
use crate::review::journal::{Entry, Journal};
use crate::store::StoredRecord;

impl MemoryBackend<'_> {
    /// `memories` with the plan applied: an extraction's records appended, a consolidation's
    /// sources replaced by its records (after the others). Each new record's file is named
    /// after the record, as the real one is chosen at commit.
    pub(super) fn applied(
        &self,
        memories: &[Memory],
        proposal: &Proposal,
    ) -> Result<Vec<Memory>, FormatError> {
        let plan = proposal.plan().map_err(|why| {
            FormatError::refused(format!("proposal {} does not read: {why}", proposal.id))
        })?;
        let sources = plan.source_names();
        let mut after: Vec<Memory> = memories
            .iter()
            .filter(|m| !sources.contains(&m.name))
            .cloned()
            .collect();
        for record in plan.records() {
            let stored = StoredRecord {
                file: format!("{}.md", record.name()),
                record: record.clone(),
            };
            after.push(stored.memory(after.len()));
        }
        Ok(after)
    }

    /// The journal's newest entry when the set is as it left it and `seen` is the set as it
    /// is (the memories the set reads as now: a run over them saw the entry's change).
    pub(super) fn newest_in_place(&self, seen: &[Memory]) -> Result<Option<Entry>, FormatError> {
        let newest = Journal::of(self.store).last_entries(1)?.pop();
        let Some(entry) = newest else {
            return Ok(None);
        };
        let memories = self.store.read()?.memories();
        Ok((left_as(&entry, &memories) && memories == seen).then_some(entry))
    }
}

/// Whether `memories` are as `entry` left them: it changed a record, every record it wrote is
/// there unchanged and every one it removed is gone. (A commit memwb did not journal leaves
/// the set otherwise.)
fn left_as(entry: &Entry, memories: &[Memory]) -> bool {
    let changed = !entry.before.is_empty() || !entry.after.is_empty();
    let written = entry.after.iter().all(|after| {
        let written = &after.record;
        memories.iter().any(|m| {
            m.name == written.name
                && m.kind.as_deref() == Some(written.kind.as_str())
                && m.description() == written.description
                && m.body == written.body
        })
    });
    let removed = entry
        .before
        .iter()
        .filter(|b| !entry.after.iter().any(|a| a.record.name == b.record.name))
        .all(|b| !memories.iter().any(|m| m.name == b.record.name));
    changed && written && removed
}
