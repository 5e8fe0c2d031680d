//! The workbench's jobs on a `.memory` set: its record editor's changes, the strays and
//! broken entries it answers, and `R`, each one store transaction, journaled.

use std::path::{Component, Path};
use std::sync::Arc;

use super::MemoryBackend;
use super::editor_rules::parse_text;
use super::journal::{self, journaled_op, strays};
use super::write::{commit_warning, written};
use crate::claude::edit::TextChange;
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::formats::workbench::{not_here, record_input};
use crate::formats::{
    Changed, EditorChange, Fields, Filed, FormatError, IndexPlan, SavedFile, Shown, Written,
};
use crate::review::Op;
use crate::review::summary::commit_summary;
use crate::store::index::{INDEX_FILE, MAX_INDEX_FILE_BYTES};
use crate::store::{Commit, Record, StoreError, Touched};

impl MemoryBackend<'_> {
    /// MEMORY.md as it is on disk (`None`: there is none).
    pub(super) fn index_on_disk(&self) -> Result<Option<String>, FormatError> {
        let path = self.store.index_path();
        Ok(read_regular(&path, MAX_INDEX_FILE_BYTES)
            .map_err(|e| FormatError::refused(format!("cannot read {}: {e}", path.display())))?
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned()))
    }

    pub(super) fn text_of(&self, file: &str) -> Result<Option<String>, FormatError> {
        let inside = Path::new(file)
            .components()
            .all(|c| matches!(c, Component::Normal(_)));
        if !inside {
            return Err(FormatError::refused(format!(
                "{file} is not a file of the set's folder"
            )));
        }
        let path = self.store.root().join(file);
        match read_regular(&path, MAX_FILE_BYTES) {
            Ok(None) => Ok(None),
            Ok(Some(bytes)) => String::from_utf8(bytes).map(Some).map_err(|_| {
                FormatError::refused(format!(
                    "{file} is not valid UTF-8: edit it as text elsewhere"
                ))
            }),
            Err(e) => Err(FormatError::refused(format!("cannot read {file}: {e}"))),
        }
    }

    /// MEMORY.md against the index the manifest derives.
    pub(super) fn planned_index_fix(&self) -> Result<IndexPlan, FormatError> {
        let derived = match self.store.read() {
            Ok(set) => set.index_text(),
            Err(e) => {
                return Err(FormatError::refused(format!(
                    "cannot rebuild {INDEX_FILE}: the set does not read ({e})"
                )));
            }
        };
        Ok(IndexPlan {
            index: TextChange {
                file: INDEX_FILE.into(),
                before: self.index_on_disk()?,
                after: derived,
            },
            archive: None,
            removed: Vec::new(),
            added: Vec::new(),
            archived: Vec::new(),
            still_over: false,
        })
    }

    /// Rebuilds MEMORY.md if the manifest still derives what `plan` showed.
    pub(super) fn written_index_fix(&self, plan: &IndexPlan) -> Result<Written, FormatError> {
        let shown = &plan.index.after;
        let commit = journaled_op(self.store, Op::RebuildIndex, |s| {
            if s.read()?.index_text() != *shown {
                return Err(StoreError::Conflict {
                    detail: "the set changed since the fix was shown; R shows it again".into(),
                });
            }
            s.rebuild_index()
        })?;
        Ok(written(commit, Some(format!("changed {INDEX_FILE}"))))
    }

    pub(super) fn rebased(&self, id: &str) -> Result<Vec<String>, FormatError> {
        Ok(journal::rebase(self.store, id)?.changes)
    }

    /// A `.memory` proposal's state is the set's to tell: none is given here.
    pub(super) fn filed_proposals(&self) -> Result<Filed, FormatError> {
        let listing = crate::review::proposal::list_all(self.store)?;
        Ok(Filed {
            listed: listing.proposals.into_iter().map(|p| (p, None)).collect(),
            corrupt: listing.corrupt,
        })
    }

    /// After our own commit the manifest names every new record file: only those the reading
    /// shown did not hold are read, as the watcher reads after a commit (no file named).
    pub(super) fn reread_after_change(&self, shown: &Shown) -> Option<Shown> {
        let inspection = shown.downcast_ref::<crate::store::Inspection>()?;
        let after = self.store.reinspect(inspection, &Touched::default());
        Some(Shown::from(Arc::new(after)))
    }

    pub(super) fn edited(&self, change: &EditorChange) -> Result<Changed, FormatError> {
        let store = self.store;
        let mut edited = None;
        let commit = match change {
            EditorChange::SaveFields {
                file: Some(file),
                base: Some(base),
                fields,
            } => {
                let base = base_record(file, base)?;
                let record = record_of(fields)?;
                edited = Some(record.clone());
                journaled_op(store, Op::Set, |s| s.replace(&base, record))
                    .map_err(|e| self.with_current(e.into(), base.name()))?
            }
            EditorChange::SaveFields {
                file: None,
                base: None,
                fields,
            } => {
                let record = record_of(fields)?;
                edited = Some(record.clone());
                journaled_op(store, Op::Add, |s| s.extend(vec![record]))?
            }
            EditorChange::ReplaceText { file, base, text } => {
                let base = base_record(file, base)?;
                let record = parse_text(text).map_err(|why| {
                    FormatError::refused(format!("the edit of {file} is no record file: {why}"))
                })?;
                edited = Some(record.clone());
                journaled_op(store, Op::Set, |s| s.replace(&base, record))
                    .map_err(|e| self.with_current(e.into(), base.name()))?
            }
            EditorChange::RemoveFile { file, base } => {
                let base = base_record(file, base)?;
                journaled_op(store, Op::Rm, |s| s.remove(std::slice::from_ref(&base)))?
            }
            EditorChange::EditProposal {
                id,
                opened,
                at,
                fields,
            } => {
                journal::edit_records(store, id, opened, *at, record_of(fields)?)?;
                Commit::default()
            }
            EditorChange::Adopt { file, seen } => strays::adopt(store, file, seen)?,
            EditorChange::RemoveStray { file, seen } => {
                strays::delete(store, file, seen)?;
                Commit::default()
            }
            EditorChange::Repair { file, seen, text } => {
                let replacement = parse_text(text).map_err(|why| {
                    FormatError::refused(format!("{file} is no record file yet: {why}"))
                })?;
                journaled_op(store, Op::Repair, |s| {
                    s.repair_entry(file, seen.as_deref(), Some(replacement))
                })?
            }
            EditorChange::DropEntry { file, seen } => {
                let now = store.entry_bytes(file);
                let shown = now.as_deref().map(String::from_utf8_lossy);
                if shown.as_deref() != seen.as_deref() {
                    return Err(StoreError::Conflict {
                        detail: format!(
                            "{file} changed since it was shown; look again before dropping it"
                        ),
                    }
                    .into());
                }
                journaled_op(store, Op::Repair, |s| {
                    s.repair_entry(file, now.as_deref(), None)
                })?
            }
            EditorChange::SaveFields { .. } => {
                return Err(not_here(change));
            }
        };
        let saved = edited.as_ref().and_then(|record| {
            let stored = commit.set.get(record.name())?;
            Some(SavedFile {
                file: stored.file.clone(),
                text: record.to_file_text(),
            })
        });
        Ok(Changed {
            summary: (!commit.is_empty()).then(|| commit_summary(&commit)),
            select: edited.map(|record| record.name().to_owned()),
            saved,
            warning: commit_warning(&commit),
        })
    }

    /// A save refused because the record changed or went since the editor opened it, with
    /// the record of that name as it is now (`None`: gone), for the editor's conflict flow.
    fn with_current(&self, error: FormatError, name: &str) -> FormatError {
        if !error.is_conflict() {
            return error;
        }
        let current = self
            .store
            .inspect()
            .valid_records()
            .find(|record| record.name() == name)
            .map(Record::to_file_text);
        FormatError::Conflicted {
            error: Box::new(error),
            current,
        }
    }
}

/// The record an editor opened, from the exact text it opened (a record file reads as one
/// record, or it was no memory to edit).
fn base_record(file: &str, text: &str) -> Result<Record, FormatError> {
    parse_text(text).map_err(|why| FormatError::refused(format!("{file} is no record file: {why}")))
}

/// The record the editor's fields make, refused as the codec words it (`<field>: <rule>`).
fn record_of(fields: &Fields) -> Result<Record, FormatError> {
    Record::from_input(&record_input(fields))
        .map_err(|e| FormatError::refused(format!("{}: {e}", e.field())))
}
