//! What a Claude Code folder gives the content audit: its own audit and memwb's state about
//! it, the topic files that read, MEMORY.md's text, the acceptances in its state directory
//! (outside the folder), and its roots: the folder itself, this machine's home when the folder
//! is this machine's, and the project its slug names.

use super::ClaudeBackend;
use super::project::project_of_folder;
use crate::claude::{self, ClaudeState};
use crate::formats::{AuditInputs, FolderRoots};
use crate::memory::Memory;
use crate::review::ReviewError;
use crate::review::audit::claude_findings;

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
