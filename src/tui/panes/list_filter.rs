//! The `/` filter of the Proposals and History lists: a [`LineInput`] that, while it has the
//! keyboard, narrows the list live, the way the Manifest's filter does. `Enter` keeps it, `Esc`
//! clears it. It is shown in the list's title.

use crossterm::event::KeyEvent;
use ratatui::text::{Line, Span};

use crate::tui::keymap::Action;
use crate::tui::line_input::LineInput;
use crate::tui::theme::Theme;

#[derive(Debug, Default)]
pub struct ListFilter {
    pub input: LineInput,
    /// The filter line has the keyboard.
    pub typing: bool,
}

impl ListFilter {
    /// Whether an item described by `hay` passes (case-insensitive; an empty filter passes all).
    pub fn matches(&self, hay: &str) -> bool {
        let needle = self.input.text().to_lowercase();
        needle.is_empty() || hay.to_lowercase().contains(&needle)
    }

    /// Shown when it has the keyboard or holds text.
    pub fn is_active(&self) -> bool {
        self.typing || !self.input.is_empty()
    }

    /// One key while the filter has the keyboard.
    pub fn key(&mut self, action: Option<Action>, key: KeyEvent) {
        match action {
            Some(Action::Submit) => {
                self.typing = false;
                self.input.commit();
            }
            Some(Action::Cancel) => {
                self.typing = false;
                self.input.clear();
            }
            Some(edit) if self.input.apply(edit) => {}
            _ => self.input.type_key(key),
        }
    }

    /// A list title with the filter after it: `Proposals (2/5 …) /text`.
    pub fn title(&self, title: String, theme: &Theme) -> Line<'static> {
        let mut spans = vec![Span::raw(title)];
        if self.is_active() {
            spans.push(Span::styled("/", theme.key()));
            spans.extend(self.input.spans(self.typing));
            spans.push(Span::raw(" "));
        }
        Line::from(spans)
    }
}
