//! The modal flows: the help overlay, a yes/no confirmation, the reason for a rejection.

use crossterm::event::KeyEvent;

use super::{App, Effect, StatusKind};
use crate::formats::EditorChange;
use crate::tui::jobs::Job;
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::line_input::LineInput;
use crate::tui::panes::Detail;
use crate::tui::sanitize;

#[derive(Debug, Clone)]
pub enum Confirm {
    /// Delete the memory `name` in the file `file`, whose text was `base`, and its index
    /// lines.
    Delete {
        name: String,
        file: String,
        base: String,
    },
    /// Drop a manifest entry that does not read; `seen` is its text as shown (`None`: missing
    /// or unreadable), the base of the drop.
    Drop { file: String, seen: Option<String> },
    /// Approve these pending proposals (applied one by one, each through the engine).
    Approve(Vec<String>),
    /// Undo a journal entry.
    Undo(Box<crate::review::Entry>),
    /// Quit although the editor holds unsaved changes.
    Quit,
    /// Close the editor and drop its unsaved changes.
    DiscardEdit,
    /// Adopt the unlisted file `file` into the set (`adopt`), or delete the file outside the
    /// set; `seen` is its bytes as shown, the base of either.
    Stray {
        file: String,
        seen: Vec<u8>,
        adopt: bool,
    },
    /// Write the `index --fix` shown (a diff of MEMORY.md and its archive).
    IndexFix(Box<crate::formats::IndexPlan>),
}

impl Confirm {
    pub fn question(&self) -> String {
        match self {
            Confirm::Delete { name, .. } => format!(
                "Delete {}? This is journaled (undo in History).",
                sanitize::line(name)
            ),
            Confirm::Drop { file, .. } => format!(
                "Drop {} from the manifest? The file is deleted; this is journaled (undo in History).",
                sanitize::line(file)
            ),
            Confirm::Approve(ids) if ids.len() == 1 => format!(
                "Approve proposal {}? It is written and journaled (undo in History).",
                ids[0]
            ),
            Confirm::Approve(ids) => format!(
                "Approve {} proposals ({})? Each is written and journaled (undo in History).",
                ids.len(),
                ids.join(", ")
            ),
            Confirm::Undo(entry) => format!(
                "Undo entry #{} ({})? This is journaled too (an undo can be undone).",
                entry.id,
                entry.op.as_str()
            ),
            Confirm::Quit => "Quit and lose the unsaved changes in the editor?".into(),
            Confirm::DiscardEdit => "Close the editor and lose its unsaved changes?".into(),
            Confirm::Stray {
                file, adopt: true, ..
            } => format!(
                "Adopt {} into the set as it is? This is journaled (undo in History).",
                sanitize::line(file)
            ),
            Confirm::Stray { file, .. } => format!(
                "Delete {}? It is not in the set; its bytes are kept for undo (History).",
                sanitize::line(file)
            ),
            Confirm::IndexFix(_) => "Write this fix of MEMORY.md? This is journaled.".into(),
        }
    }
}

#[derive(Debug, Clone)]
pub enum Modal {
    /// The `?` overlay, scrolled like any text.
    Help(Detail),
    /// The message log (`M`): the last status messages, scrolled like the help.
    Log(Detail),
    Confirm(Confirm),
    /// Rejecting the proposals `ids`: the reason being typed (one reason for all) is
    /// `App::reason`, which keeps its history across rejections.
    Reason {
        ids: Vec<String>,
    },
    /// Saving `query` as an eval case: the expected names being edited (`!name` forbids).
    SaveCase {
        query: String,
        text: LineInput,
    },
}

impl App {
    /// The help overlay: its own keys scroll it or close it, nothing else gets through.
    pub(super) fn help_key(&mut self, action: Option<Action>) -> Vec<Effect> {
        match action {
            Some(Action::Cancel) => self.modal = None,
            Some(movement) if movement.is_movement() => {
                if let Some(Modal::Help(view) | Modal::Log(view)) = &mut self.modal {
                    view.page(movement);
                }
            }
            _ => {}
        }
        Vec::new()
    }

    pub(super) fn confirm(&mut self, action: Option<Action>) -> Vec<Effect> {
        let Some(Modal::Confirm(question)) = self.modal.clone() else {
            return Vec::new();
        };
        match action {
            // A key read before the question was on screen was typed at something else (a
            // word typed into a list, say): it does not answer it.
            Some(Action::Yes) if !self.prompt_on_screen => {
                let yes = keymap::label(Scope::Confirm, Action::Yes);
                self.set_status(
                    StatusKind::Error,
                    format!(
                        "{yes} came before the question was on screen: press {yes} again to confirm"
                    ),
                );
            }
            Some(Action::Yes) => {
                self.modal = None;
                match question {
                    Confirm::IndexFix(fix) => return self.write_index_fix(&fix),
                    Confirm::Delete { file, base, .. } => {
                        return self.run(EditorChange::RemoveFile { file, base });
                    }
                    Confirm::Drop { file, seen } => {
                        return self.run(EditorChange::DropEntry { file, seen });
                    }
                    Confirm::Undo(entry) => return self.run(Job::Undo(entry)),
                    Confirm::Approve(ids) => {
                        self.proposals.marked.clear();
                        let jobs = ids.into_iter().map(|id| Job::Approve { id }).collect();
                        return self.run_all(jobs);
                    }
                    Confirm::Quit => return self.quit_now(),
                    Confirm::Stray { file, seen, adopt } => {
                        return self.run(if adopt {
                            EditorChange::Adopt { file, seen }
                        } else {
                            EditorChange::RemoveStray { file, seen }
                        });
                    }
                    Confirm::DiscardEdit => {
                        self.close_editor();
                        self.set_status(StatusKind::Info, "edit discarded".into());
                    }
                }
            }
            Some(Action::No) => self.modal = None,
            Some(movement) if movement.is_movement() => {
                self.confirm_view.page(movement);
            }
            _ => {}
        }
        Vec::new()
    }

    /// The wheel over a modal scrolls it (the help, the log, a long question).
    pub(super) fn scroll_modal(&mut self, down: bool) {
        match &mut self.modal {
            Some(Modal::Help(view) | Modal::Log(view)) => view.wheel(down),
            Some(Modal::Confirm(_)) => self.confirm_view.wheel(down),
            _ => {}
        }
    }

    /// Typing the reason for a rejection: Enter rejects, Esc cancels.
    pub(super) fn reason_key(&mut self, action: Option<Action>, key: KeyEvent) -> Vec<Effect> {
        let Some(Modal::Reason { ids }) = &mut self.modal else {
            return Vec::new();
        };
        match action {
            Some(Action::Submit) => {
                let ids = std::mem::take(ids);
                self.reason.commit();
                let reason = self.reason.text().trim().to_owned();
                self.reason.clear();
                let reason = (!reason.is_empty()).then_some(reason);
                self.modal = None;
                self.proposals.marked.clear();
                let jobs = ids
                    .into_iter()
                    .map(|id| {
                        let reason = reason.clone();
                        Job::Reject { id, reason }
                    })
                    .collect();
                return self.run_all(jobs);
            }
            Some(Action::Cancel) => {
                self.modal = None;
                self.reason.clear();
            }
            Some(edit) if self.reason.apply(edit) => {}
            _ => self.reason.type_key(key),
        }
        Vec::new()
    }
}
