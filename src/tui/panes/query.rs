//! Query pane: type a query, see which records the agent would select and the exact
//! `<relevant_memories>` text it would inject.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::{Detail, block};
use crate::sanitize;
use crate::tui::keymap::Action;
use crate::tui::theme::Theme;

/// What a selection for the typed query gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryResult {
    pub query: String,
    pub names: Vec<String>,
    /// The exact text injected before the model request (empty: nothing is injected).
    pub rendered: String,
    /// How the choice was made ("keyword fallback", "model").
    pub how: String,
    pub error: Option<String>,
}

#[derive(Debug, Default)]
pub struct QueryPane {
    pub input: String,
    pub typing: bool,
    pub result: Option<QueryResult>,
    /// The query whose selection is being computed; a result for any other is out of date.
    pub asked: Option<String>,
    pub view: Detail,
}

impl QueryPane {
    pub fn act(&mut self, action: Action) -> bool {
        self.view.page(action)
    }

    pub fn scroll_view(&mut self, down: bool) {
        self.view.wheel(down);
    }

    pub fn render(&mut self, frame: &mut Frame, area: Rect, theme: &Theme, focused: bool) {
        let block = block(" Query ", focused, theme);
        let cursor = if self.typing { "▏" } else { "" };
        let mut lines = vec![Line::from(vec![
            Span::styled("query> ", theme.key()),
            Span::raw(format!("{}{cursor}", sanitize::line(&self.input))),
        ])];
        match &self.result {
            None if self.input.is_empty() && !self.typing => {
                lines.push(Line::styled(
                    "press i to type a query; Enter runs it",
                    theme.dim(),
                ));
            }
            None => {}
            Some(result) => {
                let names = if result.names.is_empty() {
                    "(none: nothing is injected)".to_owned()
                } else {
                    result
                        .names
                        .iter()
                        .map(|n| sanitize::line(n).into_owned())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                lines.push(Line::from(vec![
                    Span::styled(format!("selected ({}): ", result.how), theme.label()),
                    Span::raw(names),
                ]));
                if let Some(error) = &result.error {
                    lines.push(Line::styled(
                        sanitize::line(error).into_owned(),
                        theme.warning(),
                    ));
                }
                lines.extend(
                    sanitize::lines(&result.rendered)
                        .into_iter()
                        .map(Line::from),
                );
            }
        }
        if self.asked.is_some() {
            lines.push(Line::styled("selecting…", theme.dim()));
        }
        self.view.render(frame, area, block, lines);
    }
}
