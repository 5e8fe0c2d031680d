//! What a `.memory` set gives the content audit: its inspection (which reads a set whose
//! manifest does not), memwb's state in `.memory/.memwb`, the valid records with the journal's
//! evidence of when memwb wrote them, and the text of what it holds besides its valid records.

use super::MemoryBackend;
use super::journal::audit::findings as state_findings;
use crate::formats::AuditInputs;
use crate::fs::{Links, read_regular};
use crate::memory::Memory;
use crate::review::journal::MEMWB_DIR;
use crate::store::index::{INDEX_FILE, MAX_INDEX_FILE_BYTES};
use crate::store::inspect::IndexStatus;
use crate::store::{EntryState, Inspection, Store, StoredRecord};

impl MemoryBackend<'_> {
    pub(super) fn gather_audit_inputs(&self) -> AuditInputs {
        let store = self.store;
        let inspection = store.inspect();
        let mut folder_findings = inspection.findings();
        folder_findings.extend(state_findings(store));
        let entries: Vec<StoredRecord> = inspection
            .entries
            .iter()
            .filter_map(|e| {
                e.record().map(|record| StoredRecord {
                    file: e.file.clone(),
                    record: record.clone(),
                })
            })
            .collect();
        let mut memories = memories_of(store, &entries);
        super::journaled::stamp_store(store, &entries, &mut memories);
        AuditInputs {
            workspace: store.workspace().display().to_string(),
            records: entries.len(),
            folder_findings,
            memories,
            other_files: unmanaged_files(store, &inspection),
            state_dir: Ok(store.root().join(MEMWB_DIR)),
            project: Some(store.workspace().to_owned()),
            roots: None,
        }
    }
}

/// The memories of a `.memory` set's records, each with its file's modification time.
fn memories_of(store: &Store, entries: &[StoredRecord]) -> Vec<Memory> {
    entries
        .iter()
        .enumerate()
        .map(|(position, entry)| Memory {
            modified: std::fs::symlink_metadata(store.root().join(&entry.file))
                .and_then(|m| m.modified())
                .ok(),
            ..entry.memory(position)
        })
        .collect()
}

/// What a `.memory` folder holds besides its valid records: a MEMORY.md that is not the index
/// the manifest derives (a person or an agent wrote into it), record files that do not parse,
/// and files the manifest does not list. Each is read as `check` reads the folder, within the
/// index's size limit.
fn unmanaged_files(store: &Store, inspection: &Inspection) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if inspection.index.status != IndexStatus::InSync
        && let Some(text) = &inspection.index.on_disk
    {
        out.push((INDEX_FILE.to_owned(), text.clone()));
    }
    for entry in &inspection.entries {
        if let EntryState::Invalid { raw, .. } = &entry.state {
            out.push((entry.file.clone(), raw.clone()));
        }
    }
    for file in &inspection.unlisted {
        if let Ok(Some(bytes)) = read_regular(
            &store.root().join(file),
            MAX_INDEX_FILE_BYTES,
            Links::Refuse,
        ) {
            out.push((file.clone(), String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
    out
}
