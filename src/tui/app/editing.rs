//! The editing flow, one for every format: a memory opens on its file's exact text (read
//! first, the base of the change), a set entry that does not read as a repair of its raw
//! text, a new memory empty, a memory a pending proposal writes as its fields (saved into the
//! proposal, `EditorChange::EditProposal`); the editor's keys; its save as neutral fields
//! (`EditorChange::SaveFields`) or a file's whole text, which the backend writes
//! compare-and-swap against the text the editor opened; deleting a memory; the conflict flow's
//! difference and re-apply. What the fields are in a file's text is the backend's
//! (`formats::EditorRules`); each change is a [`Job`] off the UI thread.

use crossterm::event::KeyEvent;

use super::modal::{Confirm, Modal};
use super::{App, Effect, StatusKind};
use crate::formats::{EditorChange, EditorRules, RowState};
use crate::tui::editor::{BODY, Editor, NAME, Target};
use crate::tui::jobs::{Job, ReadFor};
use crate::tui::keymap::{self, Action, Scope};

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

    /// How the open format's files are made of the editor's fields.
    pub(super) fn editor_rules(&self) -> &'static dyn EditorRules {
        self.backend.backend().editor_rules()
    }

    /// `n`: the editor on a new memory, in the open format's fields.
    pub(super) fn new_editor(&self) -> Editor {
        Editor::new_memory(self.editor_rules())
    }

    /// The selected memory's file, when the editor opens it from its text: a memory that
    /// reads, or one whose file the folder keeps whole though it does not read (a topic file
    /// whose frontmatter does not parse opens as raw text).
    fn selected_memory_file(&self) -> Option<String> {
        if self.selected_state().is_some_and(RowState::reads) {
            return self.selected_name_and_file().map(|(_, file)| file);
        }
        self.selected_topic_file()
    }

    /// `e` / `d` / `E`: the selected memory's exact text first (the base of the change).
    pub(super) fn read_selected(&mut self, purpose: ReadFor) -> Option<Vec<Effect>> {
        let file = self.selected_memory_file()?;
        Some(self.run(Job::Read { file, purpose }))
    }

    /// `e`: the selected memory in the editor, or the raw text of an entry that does not read.
    pub(super) fn edit_selected(&mut self) -> Vec<Effect> {
        if let Some(effects) = self.read_selected(ReadFor::Edit) {
            return effects;
        }
        match self.repairable() {
            Some(file) => return vec![Effect::ReadEntry { file }],
            None => self.cannot_edit(),
        }
        Vec::new()
    }

    /// `E`: the selected memory's file in `$VISUAL`/`$EDITOR`.
    pub(super) fn edit_selected_externally(&mut self) -> Vec<Effect> {
        match self.read_selected(ReadFor::EditExternally) {
            Some(effects) => effects,
            None => {
                self.cannot_edit();
                Vec::new()
            }
        }
    }

    /// `d`: asks before deleting the selected memory (its text read first), or dropping an
    /// entry that does not read.
    pub(super) fn delete_selected(&mut self) -> Vec<Effect> {
        if self.manifest.selected_stray().is_some() {
            self.ask_about_stray(false);
            return Vec::new();
        }
        if let Some(effects) = self.read_selected(ReadFor::Delete) {
            return effects;
        }
        match self.repairable() {
            Some(file) => {
                let seen = self
                    .manifest
                    .selected_row()
                    .and_then(|i| self.shown.raw_at(i))
                    .map(str::to_owned);
                self.modal = Some(Modal::Confirm(Confirm::Drop { file, seen }))
            }
            None => self.set_status(StatusKind::Error, "select a valid memory to delete".into()),
        }
        Vec::new()
    }

    /// The selected memory's text was read for `purpose`: the editor opens on it, `$EDITOR`
    /// is handed it, or the deletion is asked, each based on that text.
    pub(super) fn memory_read(
        &mut self,
        file: String,
        text: String,
        purpose: ReadFor,
    ) -> Vec<Effect> {
        let rules = self.editor_rules();
        match purpose {
            ReadFor::Edit if self.editor.is_none() => {
                self.editor = Some(Editor::memory(rules, &file, &text));
            }
            ReadFor::Edit => {}
            ReadFor::EditExternally => {
                return vec![Effect::ExternalEdit(crate::tui::external::ExternalEdit {
                    file,
                    text,
                    rules,
                })];
            }
            ReadFor::Delete => {
                let name = rules
                    .fields_of(&text)
                    .map(|fields| fields[NAME].clone())
                    .filter(|name| !name.trim().is_empty())
                    .unwrap_or_else(|| file.clone());
                self.modal = Some(Modal::Confirm(Confirm::Delete {
                    name,
                    file,
                    base: text,
                }));
            }
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

    /// Opens the memory the selected pending proposal writes that ▶ marks in the editor, as
    /// its fields, read from the proposal's change whatever its format keeps (as its detail
    /// draws it): a proposal's edit is a memory's edit, on every format. A decided proposal,
    /// an invalid plan or one that writes no memory never gets here: the key's availability
    /// (`KeyState`) refuses `e` first, in its one wording.
    pub(super) fn edit_proposal(&mut self) {
        let Some(row) = self.proposals.selected_row() else {
            return;
        };
        let rules = self.editor_rules();
        if let Some(editor) = self
            .proposals
            .pointed()
            .and_then(|at| Editor::proposed(rules, &row.proposal.id, &row.change.touched, at))
        {
            self.editor = Some(editor);
        }
    }

    pub(super) fn editor_key(&mut self, action: Option<Action>, key: KeyEvent) -> Vec<Effect> {
        let Some(editor) = &mut self.editor else {
            return Vec::new();
        };
        match action {
            Some(Action::Save) => return self.save_editor(),
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
            Some(Action::ShowDiff) => {
                if let Some(conflict) = &editor.conflict {
                    let diff = editor.diff_against(conflict.current.as_deref());
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

    /// `C-s` in the editor: its change, checked first, written as a job.
    fn save_editor(&mut self) -> Vec<Effect> {
        let Some(editor) = &mut self.editor else {
            return Vec::new();
        };
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
        let checked = if editor.is_raw() {
            editor.check_raw()
        } else {
            editor.check_fields()
        };
        if let Err(e) = checked {
            editor.error = Some(e);
            return Vec::new();
        }
        let unchanged = match &editor.target {
            Target::Memory { file: Some(_), .. } => editor.opened_name().map(str::to_owned),
            Target::Proposal { id, .. } => Some(format!("proposal {id}")),
            _ => None,
        };
        if let Some(what) = unchanged.filter(|_| !editor.is_dirty()) {
            self.close_editor();
            self.set_status(
                StatusKind::Info,
                format!("{what}: nothing changed, nothing saved"),
            );
            return Vec::new();
        }
        let change = match editor.target.clone() {
            Target::Repair { file, seen } => EditorChange::Repair {
                file,
                seen,
                text: editor.value(BODY),
            },
            Target::Text { file, text } => EditorChange::ReplaceText {
                file,
                base: text,
                text: editor.value(BODY),
            },
            Target::Proposal { id, opened, at } => EditorChange::EditProposal {
                id,
                opened,
                at,
                fields: editor.values(),
            },
            Target::Memory { file, text } => {
                editor.check_set(&self.shown);
                if let Some(refusal) = &editor.refusal {
                    editor.error = Some(refusal.clone());
                    return Vec::new();
                }
                EditorChange::SaveFields {
                    file,
                    base: text,
                    fields: editor.values(),
                }
            }
        };
        editor.saving = true;
        editor.error = None;
        self.run(change)
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

    /// Selects the memory whose list key is `key` after a change; a filter that hides it is
    /// cleared, and the status (`text`) says so.
    pub(super) fn keep_selected(&mut self, key: &str, text: &mut String) {
        self.refilter_keeping(Some(key));
        if self.selected_key().as_deref() != Some(key) && !self.manifest.filter.is_empty() {
            self.manifest.filter.clear();
            self.refilter_keeping(Some(key));
            text.push_str("; filter cleared to keep it selected");
        }
    }
}
