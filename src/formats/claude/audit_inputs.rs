//! What a Claude Code folder gives the content audit: its own audit and memwb's state about
//! it, the topic files that read, MEMORY.md's text, the acceptances in its state directory
//! (outside the folder), and its roots: the folder itself, this machine's home when the folder
//! is this machine's, and the project its slug names.

use std::path::Path;

use super::ClaudeBackend;
use super::project::project_of_folder;
use crate::claude::write::{TEMP_PREFIX, TEMP_SUFFIX};
use crate::claude::{self, ClaudeFolder, ClaudeState};
use crate::finding::{Finding, Severity};
use crate::formats::{AuditInputs, FolderRoots};
use crate::memory::Memory;
use crate::review::ReviewError;
use crate::review::audit::{finding, journal_findings};
use crate::review::journal::Journal;

impl ClaudeBackend<'_> {
    pub(super) fn gather_audit_inputs(&self) -> AuditInputs {
        let folder = self.folder;
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
        let other_files = snapshot
            .parsed_index()
            .map(|index| {
                let text: Vec<&str> = index.lines.iter().map(|l| l.text.as_str()).collect();
                (claude::index::INDEX_FILE.to_owned(), text.join("\n"))
            })
            .into_iter()
            .collect();
        AuditInputs {
            workspace: folder.root().display().to_string(),
            records: snapshot.topics.len(),
            folder_findings,
            memories,
            other_files,
            // Read where `accept` keeps them; a check creates no state directory.
            state_dir: ClaudeState::path_of(folder).map_err(ReviewError::from),
            project: project_of_folder(folder.root()),
            roots: Some(FolderRoots {
                memory_folder: folder.root().to_owned(),
                machine_home: claude::locate::machine_home(
                    folder.root(),
                    &claude::locate::process_env,
                ),
            }),
        }
    }
}

/// What a Claude Code folder's `check` adds about memwb's own traces: leftover temporary files
/// of an interrupted change in the folder, and a damaged or pending journal in its state
/// directory (read only if it exists: a check creates no state).
pub(crate) fn claude_findings(folder: &ClaudeFolder) -> Vec<Finding> {
    let mut out = Vec::new();
    for name in leftover_temp_files(folder.root()) {
        out.push(finding(
            "temp-file",
            Severity::Warning,
            name,
            "leftover temporary file of an interrupted memwb change; the next change removes it"
                .into(),
        ));
    }
    let state = ClaudeState::path_of(folder)
        .ok()
        .filter(|dir| dir.is_dir())
        .and_then(|_| ClaudeState::for_folder(folder).ok());
    if let Some(state) = state {
        let journal = Journal::of_claude(&state);
        let file = journal.path().display().to_string();
        journal_findings(&journal, file, "the next change to the folder", &mut out);
    }
    out
}

fn leftover_temp_files(root: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX))
        .collect();
    names.sort();
    names
}
