//! What each format gives the check (`report::check`, written once): the folder's own
//! findings and memwb's state about it, the memories the content audit reads, the secrets in
//! its other files, the findings a person accepted, and the roots the audit resolves paths
//! against. The one place the check knows formats; it moves onto `formats::Backend` once the
//! trait reaches memwb's state (the journal and acceptances, kept by `review`, above it).

use std::path::PathBuf;

use super::accept::Acceptances;
use super::report::project_root;
use super::{AuditContext, AuditFinding, Memory, memories_of, other_file_secrets};
use crate::claude::{self, ClaudeFolder, ClaudeState};
use crate::finding::Finding;
use crate::folder::sets::project_of_folder;
use crate::formats::Format;
use crate::formats::Open;
use crate::fs::{Links, read_regular};
use crate::review::audit::{claude_findings, findings as state_findings};
use crate::review::error::ReviewError;
use crate::review::journal::MEMWB_DIR;
use crate::store::index::{INDEX_FILE, MAX_INDEX_FILE_BYTES};
use crate::store::inspect::IndexStatus;
use crate::store::{EntryState, Inspection, Store, StoredRecord};

/// One folder as the check reads it, whatever its format.
pub(crate) struct Gathered<'a> {
    pub(crate) format: Format,
    pub(crate) workspace: String,
    pub(crate) folder: String,
    pub(crate) records: usize,
    /// The format's own audit and memwb's state about the folder.
    pub(crate) folder_findings: Vec<Finding>,
    /// What the content audit reads, in the folder's order.
    pub(crate) memories: Vec<Memory>,
    /// Credentials in the files that are no memory.
    pub(crate) other_secrets: Vec<AuditFinding>,
    pub(crate) acceptances: Result<Acceptances, ReviewError>,
    pub(crate) context: AuditContext<'a>,
}

/// The open folder, by its format.
pub(crate) fn open<'a>(open: &Open, context: &'a AuditContext<'a>) -> Gathered<'a> {
    match open {
        Open::Memory(store) => self::store(store, context),
        Open::Claude(folder) => claude(folder, context),
    }
}

/// A `.memory` set: its inspection (which reads a set whose manifest does not), memwb's
/// state in `.memory/.memwb`, the valid records with the journal's evidence of when memwb
/// wrote them, and the secrets in its index and files that are no valid record.
pub(crate) fn store<'a>(store: &Store, context: &'a AuditContext<'a>) -> Gathered<'a> {
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
    let project = context
        .project_root
        .clone()
        .unwrap_or_else(|| project_root(store));
    Gathered {
        format: Format::Memory,
        workspace: store.workspace().display().to_string(),
        folder: store.root().display().to_string(),
        records: entries.len(),
        folder_findings,
        memories,
        other_secrets: unmanaged_secrets(store, &inspection),
        acceptances: Acceptances::load(&store.root().join(MEMWB_DIR)),
        context: context.for_folder(
            Some(project),
            context.memory_folder.clone(),
            context.machine_home.clone(),
        ),
    }
}

/// A Claude Code folder: its own audit and memwb's state about it, the topic files that
/// read, the secrets in MEMORY.md, and the acceptances in its state directory (outside the
/// folder). Its project is the directory its slug matches unless the context names one.
pub(crate) fn claude<'a>(folder: &ClaudeFolder, context: &'a AuditContext<'a>) -> Gathered<'a> {
    let project: Option<PathBuf> = context
        .project_root
        .clone()
        .or_else(|| project_of_folder(folder.root()));
    let home = claude::locate::machine_home(folder.root(), &claude::locate::process_env);
    let snapshot = folder.read();
    let mut folder_findings = claude::audit(&snapshot);
    folder_findings.extend(claude_findings(folder));
    // In the folder's file order, as the audit has always reported them.
    let memories: Vec<Memory> = snapshot
        .topics
        .iter()
        .map(claude::Topic::memory)
        .filter(Memory::is_readable)
        .collect();
    let other_secrets = snapshot
        .parsed_index()
        .map(|index| {
            let text: Vec<&str> = index.lines.iter().map(|l| l.text.as_str()).collect();
            other_file_secrets(claude::index::INDEX_FILE, text.join("\n"))
        })
        .unwrap_or_default();
    let root = folder.root().display().to_string();
    Gathered {
        format: Format::Claude,
        workspace: root.clone(),
        folder: root,
        records: snapshot.topics.len(),
        folder_findings,
        memories,
        other_secrets,
        // Read where `accept` keeps them; a check creates no state directory.
        acceptances: ClaudeState::path_of(folder)
            .map_err(ReviewError::from)
            .and_then(|dir| Acceptances::load(&dir)),
        context: context.for_folder(project, Some(folder.root().to_owned()), home),
    }
}

/// The secrets in what a `.memory` folder holds besides its valid records: a MEMORY.md that
/// is not the index the manifest derives (a person or an agent wrote into it), record files
/// that do not parse, and files the manifest does not list. Each is read as `check` reads
/// the folder, within the index's size limit.
fn unmanaged_secrets(store: &Store, inspection: &Inspection) -> Vec<AuditFinding> {
    let mut out = Vec::new();
    if inspection.index.status != IndexStatus::InSync
        && let Some(text) = &inspection.index.on_disk
    {
        out.extend(other_file_secrets(INDEX_FILE, text.clone()));
    }
    for entry in &inspection.entries {
        if let EntryState::Invalid { raw, .. } = &entry.state {
            out.extend(other_file_secrets(&entry.file, raw.clone()));
        }
    }
    for file in &inspection.unlisted {
        if let Ok(Some(bytes)) = read_regular(
            &store.root().join(file),
            MAX_INDEX_FILE_BYTES,
            Links::Refuse,
        ) {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            out.extend(other_file_secrets(file, text));
        }
    }
    out
}
