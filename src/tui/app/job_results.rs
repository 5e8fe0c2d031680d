//! What finished work does to the app: a job's result, an external edit's outcome.

use super::{App, Effect, ExternalOutcome, StatusKind};
use crate::store::{Commit, Record};
use crate::tui::editor::{Conflict, Editor};
use crate::tui::jobs::{MemoryJob, MemoryJobDone};
use crate::tui::keymap::{self, Action, Scope};

/// The end of a status line about a failed save: it lasts while the editor is open.
pub(super) const EDIT_KEPT: &str = "; your edit is still in the editor";

/// A one-line summary of a commit, names as they are (sanitized when drawn).
pub fn describe_commit(commit: &Commit) -> String {
    crate::review::summary::commit_summary(commit)
}

impl App {
    /// The record named `name` in the current inspection.
    fn current(&self, name: &str) -> Option<Record> {
        self.shown
            .inspection()?
            .valid_records()
            .find(|r| r.name() == name)
            .cloned()
    }

    pub(super) fn job_done(&mut self, mut done: MemoryJobDone) -> Vec<Effect> {
        self.busy = self.busy.saturating_sub(1);
        if done.result.is_ok() {
            self.own_commit_done(&done.inspection.clone().into());
        }
        if done
            .read_from
            .is_some_and(|readings| readings != self.watch_readings)
        {
            // The job read only what its commit changed on top of the reading shown when it
            // started, trusting the rest to be as the watcher last reported it. The watcher has
            // reported since, maybe a hand edit that base missed: its reading stands, and the
            // watcher reports this job's commit too (it sees the manifest change).
            if let Some(shown) = self.shown.inspection() {
                done.inspection = shown.clone();
            }
        }
        let what = done.job.describe();
        // A filed fix is announced with its proposal's id, as a proposal from elsewhere is.
        let filed = matches!(done.job, MemoryJob::FileFix(_)) && done.result.is_ok();
        self.set_review(done.review.clone(), filed);
        match (&done.job, &done.result) {
            (MemoryJob::FileFix(_), Ok(_)) => self.set_inspection(done.inspection.clone()),
            (MemoryJob::EditProposal { id, .. }, Ok(_)) => {
                self.proposal_edited(id);
            }
            (MemoryJob::Repair { .. }, Ok(commit)) => {
                self.editor = None;
                self.set_inspection(done.inspection.clone());
                self.set_status(
                    StatusKind::Info,
                    format!("{what}: written ({})", describe_commit(commit)),
                );
            }
            (MemoryJob::EditProposal { .. } | MemoryJob::Repair { .. }, Err(error)) => {
                self.set_inspection(done.inspection.clone());
                if let Some(editor) = &mut self.editor {
                    editor.saving = false;
                    editor.error = Some(error.message.clone());
                }
                self.set_status(StatusKind::Error, format!("{what} failed{EDIT_KEPT}"));
            }
            (MemoryJob::Save { edited, .. }, Ok(commit)) => {
                // Keys typed while the save waited (for the lock, say) are not lost with a
                // closing editor: it stays open on them, based on what was saved.
                let typed_since = self
                    .editor
                    .as_mut()
                    .filter(|e| e.validate().map_or(true, |now| now != *edited));
                match typed_since {
                    Some(editor) => editor.saved_as(edited),
                    None => self.editor = None,
                }
                self.set_inspection(done.inspection.clone());
                if let Some(editor) = &mut self.editor {
                    editor.notice = Some(format!(
                        "saved; what you typed since is kept here ({} saves it)",
                        keymap::label(Scope::Editor, Action::Save)
                    ));
                }
                let keep = edited.name().to_owned();
                self.refilter_keeping(Some(&keep));
                let mut text = format!("{what}: written ({})", describe_commit(commit));
                let kept = self.selected_record().is_some_and(|r| r.name() == keep);
                if !kept && !self.manifest.filter.is_empty() {
                    // the filter no longer matches the edited record: clear it, keep the record
                    self.manifest.filter.clear();
                    self.refilter_keeping(Some(&keep));
                    text.push_str("; filter cleared to keep it selected");
                }
                self.set_status(StatusKind::Info, text);
            }
            (MemoryJob::Save { base, edited }, Err(error)) => {
                self.set_inspection(done.inspection.clone());
                let current = base.as_ref().and_then(|b| self.current(b.name()));
                let editor = self.editor.get_or_insert_with(|| {
                    let mut editor = match base {
                        Some(b) => Editor::open(b),
                        None => Editor::new_record(),
                    };
                    let i = edited.to_input();
                    for (field, value) in [i.name, i.kind, i.description, i.body].iter().enumerate()
                    {
                        editor.set_value(field, value);
                    }
                    editor
                });
                editor.saving = false;
                if error.conflict {
                    editor.conflict = Some(Conflict {
                        current,
                        message: format!("not saved: {}", error.message),
                        diff: None,
                    });
                } else {
                    editor.error = Some(error.message.clone());
                }
                self.set_status(StatusKind::Error, format!("{what} failed{EDIT_KEPT}"));
            }
            (MemoryJob::Adopt { .. } | MemoryJob::RemoveStray { .. }, Err(error)) => {
                self.set_inspection(done.inspection.clone());
                // what is shown may be what changed: read it again
                self.record.stray = None;
                self.set_status(
                    StatusKind::Error,
                    format!("{what} refused: {}", error.message),
                );
            }
            (MemoryJob::Rebase { id }, Ok(_)) => self.rebased(id, done.note.as_deref()),
            (MemoryJob::RebuildIndex { .. }, Ok(_)) => {
                // Worded as the same fix on a Claude Code folder: MEMORY.md is not a memory.
                self.set_inspection(done.inspection.clone());
                let index = crate::store::index::INDEX_FILE;
                self.set_status(
                    StatusKind::Info,
                    format!("{what}: written (changed {index})"),
                );
            }
            (_, Ok(commit)) => {
                self.set_inspection(done.inspection.clone());
                let text = if commit.is_empty() {
                    format!("{what}: done")
                } else {
                    format!("{what}: written ({})", describe_commit(commit))
                };
                self.set_status(StatusKind::Info, text);
            }
            (
                MemoryJob::Reject { .. }
                | MemoryJob::Approve { .. }
                | MemoryJob::Undo(_)
                | MemoryJob::Rebase { .. },
                Err(error),
            ) => {
                self.set_inspection(done.inspection.clone());
                self.set_status(
                    StatusKind::Error,
                    format!("{what} refused: {}", error.message),
                );
            }
            (_, Err(error)) => {
                self.set_inspection(done.inspection.clone());
                self.set_status(
                    StatusKind::Error,
                    format!("{what} failed: {}", error.message),
                );
            }
        }
        Vec::new()
    }

    pub(super) fn external_done(&mut self, base: Record, outcome: ExternalOutcome) -> Vec<Effect> {
        match outcome {
            ExternalOutcome::Edited(edited) => self.run(MemoryJob::Save {
                base: Some(base),
                edited,
            }),
            ExternalOutcome::Aborted(why) => {
                self.set_status(StatusKind::Info, why);
                Vec::new()
            }
            ExternalOutcome::Failed(why) => {
                self.set_status(StatusKind::Error, why);
                Vec::new()
            }
        }
    }
}
