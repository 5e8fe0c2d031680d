//! The workbench's jobs on a Claude Code folder: its text editor's changes and `R`, each
//! planned by `claude::edit` against the text the editor opened (or the fix showed), then
//! written as one journaled compare-and-swap, refused when a file changed since.

use jiff::Timestamp;

use super::ClaudeBackend;
use super::editor_rules::TOPIC_RULES;
use super::journal;
use super::journal::index_lines::LINE_FILES;
use super::write::{read_file, read_index};
use crate::claude::edit::{self, Changes, FileWrite, NewMemory, TopicFile, TopicSummary};
use crate::claude::index::{ARCHIVE_FILE, INDEX_FILE};
use crate::formats::workbench::not_here;
use crate::formats::{
    Changed, EditorChange, EditorRules, Fields, Filed, FormatError, IndexPlan, SavedFile, Written,
    not_durable,
};
use crate::review::summary::files_summary;
use crate::review::{EntryMeta, Op, ReviewError};

/// The changes the editor's fields make to the topic as it was read.
pub(super) fn changes(fields: &Fields) -> Changes {
    let [name, kind, description, body] = fields.clone();
    Changes {
        name: Some(name),
        kind: Some(kind),
        description: Some(description),
        body: Some(body),
        fields: Vec::new(),
    }
}

impl ClaudeBackend<'_> {
    /// Writes `writes` as one journaled change of `op`; what it did, in words, and its
    /// warning when it is not yet durable.
    fn write_journaled(&self, op: Op, writes: Vec<FileWrite>) -> Result<Written, FormatError> {
        let meta = EntryMeta {
            op: Some(op),
            ..EntryMeta::default()
        };
        let (applied, _) = journal::journaled(self.folder, writes, meta)?;
        Ok(Written::with_warnings(
            files_summary(&applied.images, &LINE_FILES),
            [applied.not_durable.as_deref().map(not_durable)],
        ))
    }

    /// The names in the folder a new or renamed file must not take: its directory listed,
    /// no file read (the write refuses a file that appeared meanwhile: its base is "absent").
    fn taken_names(&self) -> Result<Vec<String>, FormatError> {
        let root = self.folder.root();
        let listing = std::fs::read_dir(root)
            .map_err(|e| FormatError::io(format!("list {}", root.display()), e))?;
        let mut names = Vec::new();
        for entry in listing {
            let entry =
                entry.map_err(|e| FormatError::io(format!("list {}", root.display()), e))?;
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
        Ok(names)
    }

    pub(super) fn text_of(&self, file: &str) -> Result<Option<String>, FormatError> {
        read_file(self.folder, file)
    }

    /// Dangling entries out, unlisted files in, the oldest entries archived past the load
    /// limit, as planned from the files now.
    pub(super) fn planned_index_fix(&self) -> Result<IndexPlan, FormatError> {
        let snapshot = self.folder.read();
        let index = read_index(self.folder, &snapshot)?;
        let archive = read_file(self.folder, ARCHIVE_FILE)?;
        Ok(edit::plan_index_fix(
            index.as_deref(),
            archive.as_deref(),
            &TopicSummary::all(&snapshot),
            self.folder.limits(),
        ))
    }

    /// Writes the planned texts, each based on the text it was planned from.
    pub(super) fn written_index_fix(&self, plan: &IndexPlan) -> Result<Written, FormatError> {
        let writes = [Some(&plan.index), plan.archive.as_ref()]
            .into_iter()
            .flatten()
            .filter(|change| change.changed())
            .map(|change| FileWrite {
                file: change.file.clone(),
                base: change.before.clone(),
                after: Some(change.after.clone()),
            })
            .collect();
        self.write_journaled(Op::RebuildIndex, writes)
    }

    pub(super) fn rebased(&self, id: &str) -> Result<Vec<String>, FormatError> {
        Ok(journal::rebase(self.folder, id)?.changes)
    }

    /// Each pending proposal checked against the folder's files as they are now.
    pub(super) fn filed_proposals(&self) -> Result<Filed, FormatError> {
        let listing = journal::list(self.folder)?;
        let listed = listing
            .proposals
            .into_iter()
            .map(|p| {
                let state = journal::state(self.folder, &p);
                (p, Some(state))
            })
            .collect();
        Ok(Filed {
            listed,
            corrupt: listing.corrupt,
        })
    }

    pub(super) fn edited(&self, change: &EditorChange) -> Result<Changed, FormatError> {
        let now = Timestamp::now();
        let (op, writes, select) = match change {
            EditorChange::SaveFields {
                file: Some(file),
                base: Some(base),
                fields,
            } => {
                let index = read_file(self.folder, INDEX_FILE)?;
                let taken = self.taken_names()?;
                let taken: Vec<&str> = taken.iter().map(String::as_str).collect();
                let topic = TopicFile { file, text: base };
                let (moved, writes) =
                    edit::plan_edit(topic, index.as_deref(), &changes(fields), Some(&taken), now)?;
                (Op::Set, writes, Some(moved))
            }
            EditorChange::SaveFields { fields, .. } => {
                let index = read_file(self.folder, INDEX_FILE)?;
                let taken = self.taken_names()?;
                let taken: Vec<&str> = taken.iter().map(String::as_str).collect();
                let [name, kind, description, body] = fields.clone();
                let memory = NewMemory {
                    name,
                    kind,
                    description,
                    body,
                };
                let (file, writes) = edit::plan_add(&memory, index.as_deref(), &taken, now)?;
                (Op::Add, writes, Some(file))
            }
            EditorChange::ReplaceText { file, base, text } => {
                let writes = vec![FileWrite {
                    file: file.clone(),
                    base: Some(base.clone()),
                    after: Some(text.clone()),
                }];
                (Op::Set, writes, Some(file.clone()))
            }
            EditorChange::RemoveFile { file, base } => {
                let index = read_file(self.folder, INDEX_FILE)?;
                let writes = edit::plan_rm(&[TopicFile { file, text: base }], index.as_deref());
                (Op::Rm, writes, None)
            }
            EditorChange::EditProposal {
                id,
                opened,
                at,
                fields,
            } => {
                // What the proposal writes there, as it keeps it: the file the fields go into.
                let base = opened
                    .get(*at)
                    .and_then(|t| t.after.as_ref())
                    .ok_or_else(|| ReviewError::NothingToEdit { id: id.clone() })?;
                TOPIC_RULES
                    .check_fields(fields)
                    .map_err(FormatError::refused)?;
                let after = TOPIC_RULES
                    .text_with(Some(&base.kept), fields)
                    .map_err(FormatError::refused)?;
                journal::edit_file(self.folder, id, opened, *at, after)?;
                return Ok(Changed::default());
            }
            EditorChange::Adopt { .. }
            | EditorChange::RemoveStray { .. }
            | EditorChange::Repair { .. }
            | EditorChange::DropEntry { .. } => return Err(not_here(change)),
        };
        // What a save of the fields wrote into the memory's file: the base of the next save.
        let saved = match change {
            EditorChange::SaveFields { .. } => writes.iter().find_map(|write| {
                let text = write.after.clone()?;
                (Some(&write.file) == select.as_ref()).then(|| SavedFile {
                    file: write.file.clone(),
                    text,
                })
            }),
            _ => None,
        };
        let written = self.write_journaled(op, writes)?;
        Ok(Changed {
            summary: Some(written.summary),
            select,
            saved,
            warning: written.warning,
        })
    }
}
