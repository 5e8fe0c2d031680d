//! A proposal as `memwb proposals --json` prints it, in the shape `memwb log --json` prints a
//! journal entry (docs/cli.md, "One JSON shape per idea"): the change it would make (which
//! memories it adds, changes, renames and removes, and every file with the memory it holds
//! on each side, derived from [`Proposal::change`]) and the proposal's metadata, the same
//! fields on every format.

use serde::Serialize;

use super::change_json::{FileJson, MemoriesJson, SideJson, whole_file_side};
use super::filed::{Kind, Origin, Proposal, State};
use crate::change::Version;
use crate::memory::RecordInput;

/// One proposal in `proposals --json`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ProposalJson<'a> {
    id: &'a str,
    /// What kind of change it is ([`Proposal::change_kind`]).
    kind: Kind,
    state: &'static str,
    /// What changed since it was filed, when it is stale.
    changes: Vec<String>,
    /// What `memwb proposals` says it does.
    summary: String,
    memories: MemoriesJson,
    files: Vec<FileJson>,
    origin: &'a Origin,
    /// Unix milliseconds.
    created_at: i64,
    evidence: &'a Option<String>,
    reason: &'a Option<String>,
    journal_entry: Option<u64>,
}

impl Proposal {
    /// This proposal, in `state`, as `memwb proposals --json` prints it.
    pub(crate) fn json(&self, state: &State) -> ProposalJson<'_> {
        let change = self.change();
        let files = change
            .touched
            .iter()
            .map(|touched| {
                let image = self.files.iter().find(|image| image.file == touched.file);
                let side = |version: &Option<Version>, text: Option<&Option<String>>| match text
                    .and_then(Option::as_deref)
                {
                    Some(text) => Some(whole_file_side(&touched.file, text, false)),
                    None => version.as_ref().map(record_side),
                };
                FileJson {
                    file: touched.file.clone(),
                    before: side(&touched.before, image.map(|i| &i.before)),
                    after: side(&touched.after, image.map(|i| &i.after)),
                    lines: Vec::new(),
                }
            })
            .collect();
        ProposalJson {
            id: &self.id,
            kind: self.kind_of(&change),
            state: state.as_str(),
            changes: match state {
                State::Stale(changes) => changes.clone(),
                _ => Vec::new(),
            },
            summary: self.summary_of(&change),
            memories: MemoriesJson::of(change.op, change.memories()),
            files,
            origin: &self.origin,
            created_at: self.created_at,
            evidence: &self.evidence,
            reason: &self.reason,
            journal_entry: self.journal_entry,
        }
    }
}

/// A record's side as a plan keeps it: its fields are what is kept of it (as JSON).
fn record_side(version: &Version) -> SideJson {
    SideJson {
        memory: version.memory.clone(),
        record: serde_json::from_str::<RecordInput>(&version.kept).ok(),
        ..SideJson::default()
    }
}
