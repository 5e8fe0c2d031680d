//! The one-line editor shared by the filter, the query and the rejection reason: it edits like
//! a shell line (the keys are `Scope::Input` rows in the keymap) and keeps its own history.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;

use super::keymap::Action;
use super::sanitize;

/// How many earlier lines Up/Down recall.
pub(crate) const HISTORY_SIZE: usize = 50;

#[derive(Debug, Clone, Default)]
pub struct LineInput {
    text: String,
    /// A byte offset into `text`, always on a char boundary.
    cursor: usize,
    /// The whole text is selected: the next typed character replaces it.
    selected: bool,
    /// Lines committed earlier, oldest first.
    history: Vec<String>,
    /// Which history line Up/Down show (`None`: the line being typed).
    recall: Option<usize>,
    /// The line being typed, kept while the history is browsed.
    draft: String,
}

impl LineInput {
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The cursor as a char count from the start.
    pub fn cursor(&self) -> usize {
        self.text[..self.cursor].chars().count()
    }

    pub fn is_selected(&self) -> bool {
        self.selected
    }

    pub fn clear(&mut self) {
        self.set(String::new());
    }

    /// A line holding `text`, the cursor at its end.
    pub fn with(text: String) -> Self {
        let mut line = Self::default();
        line.set(text);
        line
    }

    /// Replaces the text, the cursor at its end.
    pub fn set(&mut self, text: String) {
        self.cursor = text.len();
        self.text = text;
        self.selected = false;
        self.recall = None;
    }

    /// Selects the whole text (a reopened query): typing replaces it, a move keeps it.
    pub fn select_all(&mut self) {
        self.selected = !self.text.is_empty();
        self.cursor = self.text.len();
    }

    /// Remembers the text in the history (Enter), unless it is empty or repeats the last line.
    pub fn commit(&mut self) {
        self.selected = false;
        self.recall = None;
        if self.text.trim().is_empty() || self.history.last() == Some(&self.text) {
            return;
        }
        if self.history.len() == HISTORY_SIZE {
            self.history.remove(0);
        }
        self.history.push(self.text.clone());
    }

    /// Inserts `text` at the cursor (a typed character, a paste); a selection is replaced.
    pub fn insert(&mut self, text: &str) {
        if self.selected {
            self.text.clear();
            self.cursor = 0;
            self.selected = false;
        }
        self.text.insert_str(self.cursor, text);
        self.cursor += text.len();
    }

    /// Carries out an editing action; `false` when `action` is not one.
    pub fn apply(&mut self, action: Action) -> bool {
        match action {
            Action::CursorLeft => self.cursor = self.prev_boundary(self.cursor),
            Action::CursorRight => self.cursor = self.next_boundary(self.cursor),
            Action::LineStart => self.cursor = 0,
            Action::LineEnd => self.cursor = self.text.len(),
            Action::KillToStart => {
                self.text.drain(..self.cursor);
                self.cursor = 0;
            }
            Action::KillToEnd => self.text.truncate(self.cursor),
            Action::KillWord => {
                let start = self.word_start();
                self.text.drain(start..self.cursor);
                self.cursor = start;
            }
            Action::HistoryPrev => self.recall_step(-1),
            Action::HistoryNext => self.recall_step(1),
            _ => return false,
        }
        // a move or a kill ends the selection; what is left is edited in place
        self.selected = false;
        true
    }

    /// A key that is no binding: Backspace and Delete delete, a plain character is inserted.
    pub fn type_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Backspace if self.selected => self.set(String::new()),
            KeyCode::Backspace => {
                let start = self.prev_boundary(self.cursor);
                self.text.drain(start..self.cursor);
                self.cursor = start;
            }
            KeyCode::Delete if self.selected => self.set(String::new()),
            KeyCode::Delete => {
                let end = self.next_boundary(self.cursor);
                self.text.drain(self.cursor..end);
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.insert(c.encode_utf8(&mut [0; 4]));
            }
            _ => {}
        }
    }

    /// The text as spans, sanitized; with `cursor`, the cursor: `▏` at the end, else the
    /// character under it reversed (the whole text reversed while it is selected).
    pub fn spans(&self, cursor: bool) -> Vec<Span<'static>> {
        let clean = |s: &str| sanitize::line(s).into_owned();
        if !cursor {
            return vec![Span::raw(clean(&self.text))];
        }
        let reversed = Style::default().add_modifier(Modifier::REVERSED);
        if self.selected {
            return vec![Span::styled(clean(&self.text), reversed), Span::raw("▏")];
        }
        let (before, rest) = self.text.split_at(self.cursor);
        let mut chars = rest.chars();
        match chars.next() {
            None => vec![Span::raw(clean(before)), Span::raw("▏")],
            Some(under) => vec![
                Span::raw(clean(before)),
                Span::styled(clean(&under.to_string()), reversed),
                Span::raw(clean(chars.as_str())),
            ],
        }
    }

    fn prev_boundary(&self, at: usize) -> usize {
        self.text[..at].char_indices().last().map_or(0, |(i, _)| i)
    }

    fn next_boundary(&self, at: usize) -> usize {
        self.text[at..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8())
    }

    /// Where `C-w` deletes back to: the blanks before the cursor, then the word before them.
    fn word_start(&self) -> usize {
        let before = &self.text[..self.cursor];
        let trimmed = before.trim_end();
        trimmed
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(i, c)| i + c.len_utf8())
    }

    fn recall_step(&mut self, step: isize) {
        if self.history.is_empty() {
            return;
        }
        let last = self.history.len() - 1;
        let next = match (self.recall, step < 0) {
            (None, true) => {
                self.draft = self.text.clone();
                Some(last)
            }
            (None, false) => return,
            (Some(0), true) => Some(0),
            (Some(i), true) => Some(i - 1),
            (Some(i), false) if i == last => None,
            (Some(i), false) => Some(i + 1),
        };
        let text = match next {
            Some(i) => self.history[i].clone(),
            None => std::mem::take(&mut self.draft),
        };
        self.cursor = text.len();
        self.text = text;
        self.recall = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(text: &str) -> LineInput {
        let mut line = LineInput::default();
        line.insert(text);
        line
    }

    #[test]
    fn moves_and_kills_like_a_shell_line() {
        let mut line = typed("deploy the dbs");
        line.apply(Action::CursorLeft);
        line.type_key(KeyEvent::from(KeyCode::Char('x')));
        assert_eq!(line.text(), "deploy the dbxs");
        line.apply(Action::LineStart);
        line.type_key(KeyEvent::from(KeyCode::Char('>')));
        assert_eq!((line.text(), line.cursor()), (">deploy the dbxs", 1));
        line.apply(Action::LineEnd);
        line.apply(Action::KillWord);
        assert_eq!(line.text(), ">deploy the ");
        line.apply(Action::KillWord);
        assert_eq!(line.text(), ">deploy ");
        line.apply(Action::CursorLeft);
        line.apply(Action::CursorLeft);
        line.apply(Action::KillToEnd);
        assert_eq!(line.text(), ">deplo");
        line.apply(Action::CursorLeft);
        line.apply(Action::KillToStart);
        assert_eq!((line.text(), line.cursor()), ("o", 0));
        line.type_key(KeyEvent::from(KeyCode::Delete));
        assert_eq!(line.text(), "");
    }

    #[test]
    fn the_cursor_steps_over_whole_characters() {
        let mut line = typed("née");
        line.apply(Action::CursorLeft);
        line.apply(Action::CursorLeft);
        line.type_key(KeyEvent::from(KeyCode::Backspace));
        assert_eq!((line.text(), line.cursor()), ("ée", 0));
        line.apply(Action::CursorRight);
        assert_eq!(line.cursor(), 1);
    }

    #[test]
    fn history_recalls_committed_lines_and_returns_to_the_draft() {
        let mut line = LineInput::default();
        for text in ["one", "two", "two", " "] {
            line.set(text.into());
            line.commit();
        }
        line.set("draft".into());
        line.apply(Action::HistoryPrev);
        assert_eq!(line.text(), "two");
        line.apply(Action::HistoryPrev);
        assert_eq!(line.text(), "one", "repeats and blanks are not kept");
        line.apply(Action::HistoryPrev);
        assert_eq!(line.text(), "one");
        line.apply(Action::HistoryNext);
        line.apply(Action::HistoryNext);
        assert_eq!(line.text(), "draft");
    }

    #[test]
    fn a_selection_is_replaced_by_typing_and_kept_by_nothing_else() {
        let mut line = typed("old query");
        line.select_all();
        line.type_key(KeyEvent::from(KeyCode::Char('n')));
        assert_eq!(line.text(), "n");
        let mut line = typed("old query");
        line.select_all();
        line.apply(Action::CursorLeft);
        line.type_key(KeyEvent::from(KeyCode::Char('!')));
        assert_eq!(line.text(), "old quer!y", "a move ends the selection");
    }
}
