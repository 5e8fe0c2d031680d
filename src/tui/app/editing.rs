//! The editing flows: opening the editor on a record, a repair or a proposed record, its keys
//! and its save; the one-line inputs (filter, query).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::modal::{Confirm, Modal};
use super::{App, Effect, StatusKind};
use crate::formats::{EditorChange, RowState};
use crate::review::ProposalStatus;
use crate::tui::editor::{Editor, Target};
use crate::tui::jobs::ReadFor;
use crate::tui::keymap::{self, Action, Scope};

/// Pasted text as terminals send it (`\r` or `\r\n` line ends) with `\n` line ends.
fn normalize_paste(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

impl App {
    /// Closes the editor; a status line about it (a failed save) goes with it.
    pub(super) fn close_editor(&mut self) {
        self.editor = None;
        if self
            .status
            .as_ref()
            .is_some_and(|s| s.text.ends_with(super::job_results::EDIT_KEPT))
        {
            self.status = None;
        }
    }

    /// A paste goes whole into whatever has a text cursor: the editor's focused field, the
    /// filter, the query or the reason line (one-line inputs take it as one line). Elsewhere it
    /// is ignored: pasted text never runs bindings.
    pub(super) fn paste(&mut self, text: &str) {
        let text = normalize_paste(text);
        let one_line = || text.replace('\n', " ");
        match &mut self.modal {
            Some(Modal::Reason { .. }) => {
                self.reason.insert(&one_line());
                return;
            }
            Some(_) => return,
            None => {}
        }
        if let Some(editor) = &mut self.editor {
            editor.paste(&text);
            return;
        }
        if let Some(view) = self.view_mut() {
            if view.typing() {
                view.filter_paste(&one_line());
            }
            return;
        }
        if self.manifest.typing {
            self.manifest.filter.insert(&one_line());
            self.refilter_selected();
        } else if self.query.typing {
            self.query.input.insert(&one_line());
        }
    }

    /// `e`: the selected record in the editor, or the raw text of an entry that does not read.
    pub(super) fn edit_selected(&mut self) -> Vec<Effect> {
        if self.is_topics() {
            return self.read_topic(ReadFor::Edit);
        }
        match self.selected_record().cloned() {
            Some(record) => self.editor = Some(Editor::open(self.editor_rules(), &record)),
            None => match self.repairable() {
                Some(file) => return vec![Effect::ReadEntry { file }],
                None => self.cannot_edit(),
            },
        }
        Vec::new()
    }

    /// `E`: the selected record in `$VISUAL`/`$EDITOR`.
    pub(super) fn edit_selected_externally(&mut self) -> Vec<Effect> {
        match self.selected_record().cloned() {
            Some(base) => return vec![Effect::ExternalEdit { base }],
            None => self.cannot_edit(),
        }
        Vec::new()
    }

    /// `d`: asks before deleting the selected record, or dropping an entry that does not read.
    pub(super) fn delete_selected(&mut self) -> Vec<Effect> {
        if self.is_topics() {
            return self.read_topic(ReadFor::Delete);
        }
        if self.manifest.selected_stray().is_some() {
            self.ask_about_stray(false);
            return Vec::new();
        }
        match self.selected_record().cloned() {
            Some(record) => self.modal = Some(Modal::Confirm(Confirm::Delete(record))),
            None => match self.repairable() {
                Some(file) => {
                    let seen = self
                        .manifest
                        .selected_row()
                        .and_then(|i| self.shown.raw_at(i))
                        .map(str::to_owned);
                    self.modal = Some(Modal::Confirm(Confirm::Drop { file, seen }))
                }
                None => {
                    self.set_status(StatusKind::Error, "select a valid memory to delete".into())
                }
            },
        }
        Vec::new()
    }

    fn cannot_edit(&mut self) {
        let text = match self.manifest.selected_row() {
            None => "no memory selected".to_owned(),
            Some(_) => format!(
                "this entry cannot be edited here; {} drops it from the manifest",
                keymap::label(Scope::Workbench, Action::Delete)
            ),
        };
        self.set_status(StatusKind::Error, text);
    }

    /// The selected manifest entry's file when it does not read and can be repaired.
    fn repairable(&self) -> Option<String> {
        let i = self.manifest.selected_row()?;
        let state = self.shown.row_at(i)?.state;
        if state.reads() || state == RowState::UnsafeName {
            return None;
        }
        self.shown
            .name_and_file_at(i)
            .map(|(_, file)| file.to_owned())
    }

    /// How the selected row's memory stands (`None`: no row is selected).
    pub(super) fn selected_state(&self) -> Option<RowState> {
        let i = self.manifest.selected_row()?;
        self.shown.row_at(i).map(|row| row.state)
    }

    /// Opens the proposed record marked ▶ of the selected pending proposal in the editor.
    pub(super) fn edit_proposal(&mut self) {
        let Some(row) = self.proposals.selected_row() else {
            self.set_status(StatusKind::Error, "no proposal selected".into());
            return;
        };
        if row.proposal.status != ProposalStatus::Pending {
            let text = format!(
                "proposal {} was already {}; only a pending proposal can be edited",
                row.proposal.id,
                row.state.as_str()
            );
            self.set_status(StatusKind::Error, text);
            return;
        }
        let id = row.proposal.id.clone();
        let index = self.proposals.record;
        if !row.proposal.files.is_empty() {
            // A proposal that changes whole files (a Claude Code folder): the file it writes.
            let files = row.proposal.files.clone();
            let written: Vec<_> = files.iter().filter(|f| f.after.is_some()).collect();
            match written.get(index).or(written.first()) {
                Some(image) => {
                    let text = image.after.clone().unwrap_or_default();
                    self.editor = Some(Editor::proposed_topic(
                        self.editor_rules(),
                        &id,
                        &image.file,
                        &text,
                        &files,
                    ));
                }
                None => self.set_status(
                    StatusKind::Error,
                    format!("proposal {id} only removes files: nothing to edit"),
                ),
            }
            return;
        }
        let records = self.proposals.proposed_records();
        match records.get(index) {
            Some(record) => {
                let rules = self.editor_rules();
                self.editor = Some(Editor::proposal(rules, &id, index, record, &records));
            }
            None => self.set_status(
                StatusKind::Error,
                format!("proposal {id} has no valid plan to edit"),
            ),
        }
    }

    pub(super) fn editor_key(&mut self, action: Option<Action>, key: KeyEvent) -> Vec<Effect> {
        let Some(editor) = &mut self.editor else {
            return Vec::new();
        };
        match action {
            Some(Action::Save) => {
                if editor.saving {
                    return Vec::new();
                }
                if !editor.merge.is_empty() {
                    editor.error = Some(format!(
                        "choose for each field both sides changed first ({} keeps yours, {} takes theirs)",
                        keymap::label(Scope::Merge, Action::TakeMine),
                        keymap::label(Scope::Merge, Action::TakeTheirs)
                    ));
                    return Vec::new();
                }
                if editor.is_topic() {
                    return self.save_topic();
                }
                if let Target::Repair { file, seen } = editor.target.clone() {
                    match editor.check_raw() {
                        Ok(()) => {
                            editor.saving = true;
                            editor.error = None;
                            let text = editor.value(crate::tui::editor::BODY);
                            return self.run(EditorChange::Repair { file, seen, text });
                        }
                        Err(e) => editor.error = Some(e),
                    }
                    return Vec::new();
                }
                if !editor.is_dirty() && editor.base.is_some() {
                    let what = match &editor.target {
                        Target::Proposal { id, .. } => format!("proposal {id}"),
                        _ => editor
                            .base
                            .as_ref()
                            .map(|b| b.name().to_owned())
                            .unwrap_or_default(),
                    };
                    self.close_editor();
                    self.set_status(
                        StatusKind::Info,
                        format!("{what}: nothing changed, nothing saved"),
                    );
                    return Vec::new();
                }
                editor.check_set(&self.shown);
                if let (Ok(_), Some(refusal)) = (editor.validate(), &editor.refusal) {
                    editor.error = Some(refusal.clone());
                    return Vec::new();
                }
                match editor.validate() {
                    Ok(edited) => {
                        editor.saving = true;
                        editor.error = None;
                        if let Target::Proposal { id, index, opened } = editor.target.clone() {
                            let mut records = opened.clone();
                            records[index] = edited;
                            return self.run(EditorChange::EditProposalRecords {
                                id,
                                opened,
                                records,
                            });
                        }
                        let base = editor.base.clone();
                        return self.run(EditorChange::SaveRecord { base, edited });
                    }
                    Err(e) => editor.error = Some(format!("{}: {e}", e.field())),
                }
            }
            Some(Action::NextField) => editor.next_field(1),
            Some(Action::PrevField) => editor.next_field(-1),
            Some(Action::CycleType) => editor.cycle_type(),
            Some(Action::Cancel) => {
                if editor.is_dirty() {
                    self.modal = Some(Modal::Confirm(Confirm::DiscardEdit));
                } else {
                    self.close_editor();
                }
            }
            Some(Action::ShowDiff) if editor.is_topic() => self.topic_diff(),
            Some(Action::Reapply) if editor.is_topic() => self.topic_reapply(),
            Some(Action::ShowDiff) => {
                if let Some(conflict) = &editor.conflict {
                    let diff = editor.diff_against(conflict.current.as_ref());
                    if let Some(conflict) = &mut editor.conflict {
                        conflict.diff = Some(diff);
                    }
                }
            }
            Some(Action::Reapply) => {
                let current = editor.conflict.as_ref().and_then(|c| c.current.clone());
                editor.reapply(current);
            }
            Some(Action::KeepEditing) => editor.conflict = None,
            Some(Action::TakeMine) => editor.resolve(false),
            Some(Action::TakeTheirs) => editor.resolve(true),
            Some(Action::Quit) => return self.quit(),
            _ => editor.key(key),
        }
        if matches!(action, Some(Action::Reapply | Action::KeepEditing)) {
            self.say_conflict_handled(action == Some(Action::Reapply));
        }
        Vec::new()
    }

    /// The failed save's status gives way once the conflict is handled, on either format.
    fn say_conflict_handled(&mut self, reapplied: bool) {
        let Some(editor) = &self.editor else {
            return;
        };
        let save = keymap::label(Scope::Editor, Action::Save);
        let text = if !editor.merge.is_empty() {
            format!(
                "re-applied your edit on the version on disk; choose for each field both changed ({} yours, {} theirs), then {save} saves",
                keymap::label(Scope::Merge, Action::TakeMine),
                keymap::label(Scope::Merge, Action::TakeTheirs)
            )
        } else if reapplied {
            format!("re-applied your edit on the version on disk: {save} saves it")
        } else {
            "still editing: your edit is based on the version you opened, so a save conflicts again"
                .to_owned()
        };
        self.set_status(StatusKind::Info, text);
    }

    /// Whether a one-line input outside the modals has the keyboard: a view's list filter, or
    /// the focused pane's filter or query.
    pub(super) fn typing(&self) -> bool {
        match self.view {
            super::View::Panes => self.pane(self.focus).typing(),
            super::View::Proposals => self.proposals.filter.typing,
            super::View::History => self.history.filter.typing,
            super::View::Sets => false,
            super::View::Findings => self.findings.filter.typing,
        }
    }

    /// A key for the one-line input that has the keyboard; true when it submitted the query
    /// (the app runs it).
    pub(super) fn input_key(&mut self, action: Option<Action>, key: KeyEvent) -> bool {
        if let Some(view) = self.view_mut() {
            view.filter_key(action, key);
            return false;
        }
        let filtering = self.manifest.typing;
        let (text, typing) = if filtering {
            (&mut self.manifest.filter, &mut self.manifest.typing)
        } else {
            (&mut self.query.input, &mut self.query.typing)
        };
        match action {
            Some(Action::Submit) => {
                *typing = false;
                text.commit();
            }
            Some(Action::Cancel) => {
                *typing = false;
                if filtering {
                    text.clear();
                }
            }
            Some(edit) if text.apply(edit) => {}
            _ => text.type_key(key),
        }
        if filtering {
            self.refilter_selected();
        }
        !filtering && action == Some(Action::Submit) && self.focus == super::Pane::Query
    }

    /// Enter in the Query pane: the chosen selected memory is selected in the Manifest pane
    /// (shown in the Record pane); a filter that hides it is cleared, and the status says so.
    pub(super) fn jump_to_chosen(&mut self) {
        let chosen = self
            .query
            .result
            .as_ref()
            .and_then(|r| r.names.get(self.query.chosen));
        let Some(key) = chosen.and_then(|name| self.key_of_memory(name)) else {
            let text = format!(
                "no selected memory to jump to; {} types a query",
                keymap::label(Scope::Query, Action::QueryInput)
            );
            self.set_status(StatusKind::Error, text);
            return;
        };
        self.refilter_keeping(Some(&key));
        let mut text = format!("jumped to {}", crate::sanitize::line(&key));
        if self.selected_key().as_deref() != Some(key.as_str()) {
            self.manifest.filter.clear();
            self.refilter_keeping(Some(&key));
            text.push_str("; filter cleared to show it");
        }
        if self.selected_key().as_deref() != Some(key.as_str()) {
            let text = format!("{} is no longer in the set", crate::sanitize::line(&key));
            self.set_status(StatusKind::Error, text);
            return;
        }
        self.focus = super::Pane::Manifest;
        self.set_status(StatusKind::Info, text);
    }

    pub(super) fn run_query(&mut self) -> Vec<Effect> {
        let (candidates, catalog) = self.query_corpus();
        let query = self.query.input.text().to_owned();
        self.query.asked = Some(query.clone());
        vec![Effect::Query {
            query,
            candidates,
            catalog,
        }]
    }

    /// A printable character that is no key of the focused list or view: typing starts where
    /// typing goes (the list's filter, the query) instead of being dropped; elsewhere the status
    /// says where typing goes. Letters that are keys keep running their command.
    pub(super) fn type_unbound(&mut self, key: KeyEvent) -> Vec<Effect> {
        let KeyCode::Char(c) = key.code else {
            return Vec::new();
        };
        // an input that has the keyboard took the character already
        if self.typing()
            || c.is_control()
            || key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return Vec::new();
        }
        let start = match self.view {
            super::View::Panes if self.focus == super::Pane::Query => Action::QueryInput,
            super::View::Panes => {
                self.focus = super::Pane::Manifest;
                Action::Filter
            }
            super::View::Proposals | super::View::History | super::View::Findings => Action::Filter,
            super::View::Sets => {
                let text = format!(
                    "{c:?} is no key here and the Sets view has no filter: {} opens a folder, {} goes back",
                    keymap::label(Scope::Sets, Action::OpenSet),
                    keymap::label(Scope::Sets, Action::Back)
                );
                self.set_status(StatusKind::Info, text);
                return Vec::new();
            }
        };
        let effects = self.act(start);
        if self.typing() {
            self.input_key(None, key);
        }
        effects
    }
}
