//! The upkeep of a `.memory` set: its index derived from the manifest, consolidation, the
//! repair of a manifest entry that does not read, and acceptances; each change one store
//! transaction, journaled.

use std::path::Path;

use serde::Deserialize;

use super::MemoryBackend;
use super::journal::journaled;
use super::write::{journaled_written, validate_all, written};
use crate::claude::edit::TextChange;
use crate::formats::{FormatError, IndexFix, Replacement, Written};
use crate::memory::Memory;
use crate::review::journal::{Journal, MEMWB_DIR, Repaired};
use crate::review::{EntryMeta, Op, ReviewError};
use crate::store::index::INDEX_FILE;
use crate::store::record::ObjectOnly;
use crate::store::{Commit, RecordInput, Store, codec};

/// The reference consolidator's reply format; an object with exactly these keys.
struct ConsolidationPlan {
    source_names: Vec<String>,
    records: Vec<RecordInput>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanFields {
    source_names: Vec<String>,
    records: Vec<RecordInput>,
}

impl<'de> Deserialize<'de> for ConsolidationPlan {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let fields: PlanFields = deserializer
            .deserialize_map(ObjectOnly::expecting("an object {source_names, records}"))?;
        Ok(Self {
            source_names: fields.source_names,
            records: fields.records,
        })
    }
}

/// What the fix of MEMORY.md does on a `.memory` set, whatever it differs in.
const REWRITE: &str = "MEMORY.md rewritten as the manifest derives it";

impl MemoryBackend<'_> {
    pub(super) fn index_text(&self) -> Result<String, FormatError> {
        Ok(self.store.read()?.index_text())
    }

    /// The difference from the index the manifest derives; written by rebuilding it.
    pub(super) fn fix_index(&self, write: bool) -> Result<IndexFix, FormatError> {
        let derived = self.store.read()?.index_text();
        let current = self.index_on_disk()?;
        if current.as_deref() == Some(derived.as_str()) {
            return Ok(IndexFix {
                diff: String::new(),
                summary: String::new(),
                written: None,
            });
        }
        let change = TextChange {
            file: INDEX_FILE.into(),
            before: current,
            after: derived,
        };
        let written = if write {
            let said = |_: &Commit| Some(REWRITE.to_owned());
            Some(journaled_written(
                self.store,
                Op::RebuildIndex,
                said,
                Store::rebuild_index,
            )?)
        } else {
            None
        };
        Ok(IndexFix {
            diff: crate::formats::unified_diff(&change),
            summary: REWRITE.to_owned(),
            written,
        })
    }

    pub(super) fn consolidate_plan(
        &self,
        plan: &serde_json::Value,
    ) -> Result<Written, FormatError> {
        let plan: ConsolidationPlan = serde_json::from_value(plan.clone())
            .map_err(|e| FormatError::refused(format!("the consolidation plan is refused: {e}")))?;
        let replacements = validate_all(&plan.records)?;
        let base = self.store.records()?;
        let said = |commit: &Commit| {
            (!commit.is_empty()).then(|| {
                crate::formats::consolidated(
                    &plan.source_names,
                    plan.records.iter().map(|r| r.name.as_str()),
                )
            })
        };
        journaled_written(self.store, Op::Consolidate, said, |s| {
            s.apply_consolidation(&base, Vec::new(), &plan.source_names, replacements)
        })
    }

    pub(super) fn repair_entry(
        &self,
        given: &str,
        with: Option<&Replacement>,
    ) -> Result<Written, FormatError> {
        let replacement = with
            .map(|with| {
                codec::parse(with.text.as_bytes()).map_err(|e| {
                    FormatError::refused(format!(
                        "the corrected file ({}) does not read: {e}",
                        with.from
                    ))
                })
            })
            .transpose()?;
        let file = &super::repair_target::resolve(self.store, given)?;
        let seen = self.store.entry_bytes(file);
        let meta = EntryMeta {
            op: Some(Op::Repair),
            ..EntryMeta::default()
        };
        let dropping = replacement.is_none();
        let (commit, entry) = journaled(self.store, meta, None, |s| {
            s.repair_entry(file, seen.as_deref(), replacement)
        })?;
        let journal = entry
            .map(|e| format!(" (journal #{})", e.id))
            .unwrap_or_default();
        let done = if dropping { "dropped" } else { "repaired" };
        let mut said = format!("{done} {file}{journal}");
        if !dropping || !commit.is_empty() || commit.lock_lost.is_some() {
            said = format!(
                "{said}; {}",
                crate::review::summary::commit_summary(&commit)
            );
        }
        Ok(written(commit, Some(said)))
    }

    pub(super) fn repair_journal_lines(&self) -> Result<Option<Repaired>, FormatError> {
        Ok(Journal::of(self.store).repair()?)
    }

    pub(super) fn accept_finding(
        &self,
        name: &str,
        keep: &mut dyn FnMut(&Memory, &Path) -> Result<(), ReviewError>,
    ) -> Result<String, FormatError> {
        let _lock = self.store.lock_for_write()?;
        let set = self.store.read().map_err(|error| FormatError::Placed {
            place: "a finding is accepted for a record of the set, which must read first".into(),
            error: Box::new(error.into()),
        })?;
        let entry = set.require(name)?;
        let memory = entry.memory(0);
        keep(&memory, &self.store.root().join(MEMWB_DIR))?;
        Ok(memory.name)
    }
}
