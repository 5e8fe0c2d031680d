//! The one-line inputs outside the editor (a list's filter, the query, the reason line) and
//! where a paste goes.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::modal::Modal;
use super::{App, Effect, StatusKind};
use crate::tui::keymap::{self, Action, Scope};

/// Pasted text as terminals send it (`\r` or `\r\n` line ends) with `\n` line ends.
fn normalize_paste(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

impl App {
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
