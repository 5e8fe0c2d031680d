//! Query pane: type a query, see which records the agent would select and the exact
//! `<relevant_memories>` text it would inject.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::{Component, Ctx, Detail, block};
use crate::sanitize;
use crate::tui::keymap::{self, Action, Scope};

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

impl Component for QueryPane {
    fn scope(&self) -> Scope {
        Scope::Query
    }

    fn handle_key(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::QueryInput => self.typing = true,
            movement if movement.is_movement() => {
                self.view.page(movement);
            }
            other => return Some(other),
        }
        None
    }

    fn scroll(&mut self, down: bool) {
        self.view.wheel(down);
    }

    fn typing(&self) -> bool {
        self.typing
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        let (theme, focused) = (ctx.theme, ctx.focused);
        let block = block(" Query ", focused, theme);
        let cursor = if self.typing { "▏" } else { "" };
        let mut lines = vec![Line::from(vec![
            Span::styled("query> ", theme.key()),
            Span::raw(format!("{}{cursor}", sanitize::line(&self.input))),
        ])];
        match &self.result {
            None if self.input.is_empty() && !self.typing => {
                lines.push(Line::styled(
                    format!(
                        "press {} to type a query; {} runs it",
                        keymap::label(Scope::Query, Action::QueryInput),
                        keymap::label(Scope::Input, Action::Submit)
                    ),
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
                let bytes = result.rendered.len();
                lines.push(Line::styled(
                    format!(
                        "injected: {bytes} bytes, about {} tokens",
                        bytes.div_ceil(4)
                    ),
                    theme.dim(),
                ));
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
