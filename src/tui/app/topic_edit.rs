//! The editor on a memory whose file is kept whole (`Target::Topic`, `TopicText`,
//! `ProposalTopic`): reading its exact text first (the base of the change), saving its fields,
//! its raw text or a proposal's file, deleting it, and the conflict flow's difference and
//! re-apply. What its text is made of is the backend's (`formats::EditorRules`); each change is
//! a [`Job`] off the UI thread.

use super::{App, Effect, StatusKind};
use crate::formats::EditorChange;
use crate::tui::editor::{Editor, Target};
use crate::tui::jobs::{Job, ReadFor};

impl App {
    /// A topic file's folder is open: the editor and the list work on files' text.
    pub(super) fn is_topics(&self) -> bool {
        self.shown.memories_are_files()
    }

    /// How the open format's files are made of the editor's fields.
    pub(super) fn editor_rules(&self) -> &'static dyn crate::formats::EditorRules {
        self.backend.backend().editor_rules()
    }

    /// `n`: the editor on a new memory, in the open format's fields.
    pub(super) fn new_editor(&self) -> Editor {
        if self.is_topics() {
            Editor::new_topic(self.editor_rules())
        } else {
            Editor::new_record(self.editor_rules())
        }
    }

    /// `e` / `d`: the selected topic file's exact text first (the base of the change).
    pub(super) fn read_topic(&mut self, purpose: ReadFor) -> Vec<Effect> {
        match self.selected_topic_file() {
            Some(file) => self.run(Job::Read { file, purpose }),
            None => {
                self.set_status(StatusKind::Error, "no topic file selected".into());
                Vec::new()
            }
        }
    }

    /// Yes to deleting a topic file whose text was `base`.
    pub(super) fn remove_topic(&mut self, file: String, base: String) -> Vec<Effect> {
        self.run(EditorChange::RemoveFile { file, base })
    }

    /// `C-s` in the editor on a topic file.
    pub(super) fn save_topic(&mut self) -> Vec<Effect> {
        let Some(editor) = &mut self.editor else {
            return Vec::new();
        };
        if let Target::ProposalTopic { id, file, opened } = editor.target.clone() {
            let after = match editor.check_fields().and(
                editor
                    .proposed_topic_text()
                    .unwrap_or_else(|| Err(format!("proposal {id} writes no file {file}"))),
            ) {
                Ok(after) => after,
                Err(e) => {
                    editor.error = Some(e);
                    return Vec::new();
                }
            };
            editor.saving = true;
            editor.error = None;
            return self.run(EditorChange::EditProposalFile {
                id,
                opened,
                file,
                after,
            });
        }
        if let Target::TopicText { file, text } = editor.target.clone() {
            if let Err(e) = editor.check_raw() {
                editor.error = Some(e);
                return Vec::new();
            }
            editor.saving = true;
            editor.error = None;
            let replacement = editor.value(crate::tui::editor::BODY);
            return self.run(EditorChange::ReplaceText {
                file,
                base: text,
                text: replacement,
            });
        }
        let Target::Topic { file, text } = editor.target.clone() else {
            return Vec::new();
        };
        if let Err(e) = editor.check_fields() {
            editor.error = Some(e);
            return Vec::new();
        }
        if !editor.is_dirty() && file.is_some() {
            let what = file.unwrap_or_default();
            self.close_editor();
            self.set_status(
                StatusKind::Info,
                format!("{what}: nothing changed, nothing saved"),
            );
            return Vec::new();
        }
        editor.saving = true;
        editor.error = None;
        let fields = editor.values();
        self.run(EditorChange::SaveFields {
            file,
            base: text,
            fields,
        })
    }

    /// Selects `file` in the list (clearing a filter that hides it).
    pub(super) fn select_topic(&mut self, file: &str) {
        self.refilter_keeping(Some(file));
        if self.selected_key().as_deref() != Some(file) {
            self.manifest.filter.clear();
            self.refilter_keeping(Some(file));
        }
    }

    /// `d` in the editor's conflict flow on a topic file: the file now against this edit.
    pub(super) fn topic_diff(&mut self) {
        if let Some(editor) = &mut self.editor {
            let current = editor.current_text.clone().flatten();
            let diff = editor.topic_diff(current.as_deref());
            if let Some(conflict) = &mut editor.conflict {
                conflict.diff = Some(diff);
            }
        }
    }

    /// `r` in the conflict flow on a topic file: re-apply the edit on the file as it is now.
    pub(super) fn topic_reapply(&mut self) {
        if let Some(editor) = &mut self.editor {
            let current = editor.current_text.clone().flatten();
            editor.reapply_topic(current);
        }
    }
}
