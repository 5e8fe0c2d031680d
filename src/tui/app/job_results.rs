//! What finished work does to the app: a job's result, an external edit's outcome.

use super::modal::{Confirm, Modal};
use super::{App, Effect, ExternalOutcome, Reading, StatusKind};
use crate::formats::{EditorChange, Shown};
use crate::tui::editor::{Conflict, Editor, Target};
use crate::tui::jobs::{Job, JobDone, Outcome};
use crate::tui::keymap::{self, Action, Scope};

/// The end of a status line about a failed save: it lasts while the editor is open.
pub(super) const EDIT_KEPT: &str = "; your edit is still in the editor";

impl App {
    /// Takes the folder as a job left it (`ok`: the job succeeded; `filed`: it filed a
    /// proposal, announced as one from elsewhere is): its review state is shown now, its
    /// reading is given back to be shown once the job's editor is settled (it tells the editor
    /// what changed on disk since it opened). One read only on top of the reading shown when
    /// the job started (`read_from`) yields to one the watcher delivered since, maybe a hand
    /// edit that base missed (the watcher reports this job's commit too).
    pub(super) fn job_reading(
        &mut self,
        after: Reading,
        ok: bool,
        read_from: Option<u64>,
        filed: bool,
    ) -> Shown {
        let Reading { shown, review } = after;
        if ok {
            self.own_commit_done(&shown);
        }
        let shown = if read_from.is_some_and(|r| r != self.watch_readings) {
            if ok && !shown.same_state(&self.shown) {
                self.own_commit_unshown(shown);
            }
            self.shown.clone()
        } else {
            shown
        };
        self.set_review(review, filed);
        shown
    }

    pub(super) fn job_done(&mut self, done: JobDone) -> Vec<Effect> {
        self.busy = self.busy.saturating_sub(1);
        let JobDone {
            job,
            result,
            after,
            read_from,
        } = done;
        let what = job.describe();
        // A filed fix is announced with its proposal's id, as a proposal from elsewhere is.
        let filed = matches!(job, Job::FileFix(_)) && result.is_ok();
        // A set's reading waits for the editor to be settled (it tells the editor what
        // changed on disk since it opened).
        let reading = after.map(|after| self.job_reading(after, result.is_ok(), read_from, filed));
        let show = |app: &mut Self| {
            if let Some(reading) = &reading {
                app.set_shown(reading.clone());
            }
        };
        match (job, result) {
            (
                _,
                Ok(Outcome::Read {
                    file,
                    text,
                    purpose,
                }),
            ) => return self.memory_read(file, text, purpose),
            (_, Ok(Outcome::Planned(fix))) if fix.is_empty() => {
                self.set_status(StatusKind::Info, super::index_fix::NO_FIX.into());
            }
            (_, Ok(Outcome::Planned(fix))) => {
                self.modal = Some(Modal::Confirm(Confirm::IndexFix(fix)));
            }
            (_, Ok(Outcome::ProposalEdited { id })) => self.proposal_edited(&id),
            (_, Ok(Outcome::Rebased { id, changes })) => self.rebased(&id, Some(&changes)),
            (Job::FileFix(_), Ok(_)) => show(self),
            (Job::Edit(EditorChange::Repair { .. }), Ok(outcome)) => {
                self.editor = None;
                show(self);
                self.set_status(kind_of(&outcome), said(&what, &outcome));
            }
            (Job::Edit(EditorChange::SaveFields { fields, .. }), Ok(outcome)) => {
                // Keys typed while the save waited (for the lock, say) are not lost with a
                // closing editor: it stays open on them, based on what was saved.
                let saved = match &outcome {
                    Outcome::Written { saved, .. } => saved.clone(),
                    _ => None,
                };
                let typed_since = self
                    .editor
                    .as_mut()
                    .filter(|e| matches!(e.target, Target::Memory { .. }) && e.values() != fields);
                match (typed_since, &saved) {
                    (Some(editor), Some(saved)) => editor.saved_as(saved, &fields),
                    _ => self.editor = None,
                }
                show(self);
                if let Some(editor) = &mut self.editor {
                    editor.notice = Some(format!(
                        "saved; what you typed since is kept here ({} saves it)",
                        keymap::label(Scope::Editor, Action::Save)
                    ));
                }
                let mut text = said(&what, &outcome);
                if let Outcome::Written {
                    select: Some(key), ..
                } = &outcome
                {
                    self.keep_selected(key, &mut text);
                }
                self.set_status(kind_of(&outcome), text);
            }
            (job, Ok(outcome)) => {
                if matches!(job, Job::Edit(EditorChange::ReplaceText { .. })) {
                    self.editor = None;
                }
                show(self);
                let mut text = said(&what, &outcome);
                if let Outcome::Written {
                    select: Some(key), ..
                } = &outcome
                {
                    self.keep_selected(key, &mut text);
                }
                self.set_status(kind_of(&outcome), text);
            }
            (
                Job::Edit(
                    change @ (EditorChange::SaveFields { .. } | EditorChange::ReplaceText { .. }),
                ),
                Err(error),
            ) => {
                show(self);
                // An edit made in $EDITOR that did not save opens in the editor: nothing is
                // lost.
                if self.editor.is_none()
                    && let EditorChange::ReplaceText { file, base, text } = &change
                {
                    self.editor = Some(self.editor_on(file, base, text));
                }
                if let Some(editor) = &mut self.editor {
                    editor.saving = false;
                    // A raw text has no fields to re-apply: the refusal stays with it.
                    if error.conflict && !editor.is_raw() {
                        editor.conflict = Some(Conflict {
                            current: error.current,
                            message: format!("not saved: {}", error.message),
                            diff: None,
                        });
                    } else {
                        editor.error = Some(error.message);
                    }
                }
                self.set_status(StatusKind::Error, format!("{what} failed{EDIT_KEPT}"));
            }
            (
                Job::Edit(EditorChange::EditProposal { .. } | EditorChange::Repair { .. }),
                Err(error),
            ) => {
                show(self);
                if let Some(editor) = &mut self.editor {
                    editor.saving = false;
                    editor.error = Some(error.message.clone());
                }
                self.set_status(StatusKind::Error, format!("{what} failed{EDIT_KEPT}"));
            }
            (
                Job::Edit(EditorChange::Adopt { .. } | EditorChange::RemoveStray { .. }),
                Err(error),
            ) => {
                show(self);
                // what is shown may be what changed: read it again
                self.record.stray = None;
                self.set_status(
                    StatusKind::Error,
                    format!("{what} refused: {}", error.message),
                );
            }
            (
                Job::Reject { .. } | Job::Approve { .. } | Job::Undo(_) | Job::Rebase { .. },
                Err(error),
            ) => {
                show(self);
                self.set_status(
                    StatusKind::Error,
                    format!("{what} refused: {}", error.message),
                );
            }
            (_, Err(error)) => {
                show(self);
                self.set_status(
                    StatusKind::Error,
                    format!("{what} failed: {}", error.message),
                );
            }
        }
        Vec::new()
    }

    /// The editor on the memory file `file` (whose text was `base`) holding the text `edited`
    /// (its fields, or the raw text when it does not read as fields).
    fn editor_on(&self, file: &str, base: &str, edited: &str) -> Editor {
        let rules = self.editor_rules();
        let mut editor = Editor::memory(rules, file, base);
        match rules.fields_of(edited).filter(|_| !editor.is_raw()) {
            Some(fields) => {
                for (field, value) in fields.iter().enumerate() {
                    editor.set_value(field, value);
                }
            }
            None => editor.set_value(crate::tui::editor::BODY, edited),
        }
        editor
    }

    pub(super) fn external_done(
        &mut self,
        file: String,
        base: String,
        outcome: ExternalOutcome,
    ) -> Vec<Effect> {
        match outcome {
            ExternalOutcome::Edited(text) => {
                self.run(EditorChange::ReplaceText { file, base, text })
            }
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

/// The status line of a job done: "written (what it did)", then its warning and its notes
/// (as the command line's `note:` lines), or "done" when it wrote nothing.
fn said(what: &str, outcome: &Outcome) -> String {
    let Outcome::Written {
        summary,
        warning,
        notes,
        ..
    } = outcome
    else {
        return format!("{what}: done");
    };
    let mut said = format!("{what}: written ({summary})");
    if let Some(warning) = warning {
        said.push_str(&format!("; warning: {warning}"));
    }
    for note in notes {
        said.push_str(&format!("; note: {note}"));
    }
    said
}

/// How a job done is shown: as an error when what it wrote needs a look.
fn kind_of(outcome: &Outcome) -> StatusKind {
    match outcome {
        Outcome::Written {
            warning: Some(_), ..
        } => StatusKind::Error,
        _ => StatusKind::Info,
    }
}
