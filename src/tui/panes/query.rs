//! Query pane: type a query, see which records the agent would select and the exact
//! `<relevant_memories>` text it would inject; its second tab lists the set's eval cases with
//! their pass/fail marks from the latest background run.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::{Component, Ctx, Detail, block};
use crate::eval::Verdict;
use crate::sanitize;
use crate::tui::evals::CaseRow;
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::line_input::LineInput;
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
    pub input: LineInput,
    pub typing: bool,
    pub result: Option<QueryResult>,
    /// The query whose selection is being computed; a result for any other is out of date.
    pub asked: Option<String>,
    pub view: Detail,
    /// Which of the result's names Enter jumps to.
    pub chosen: usize,
    /// The eval cases tab is shown instead of the selection.
    pub show_cases: bool,
    pub cases: Vec<CaseRow>,
    /// Why the case file could not be read.
    pub cases_error: Option<String>,
    /// The set changed since the result shown last was selected: it was dropped.
    pub outdated: bool,
}

impl QueryPane {
    /// Shows the selection for the query asked last, from the top, its first name chosen.
    pub fn show(&mut self, result: QueryResult) {
        self.asked = None;
        self.outdated = false;
        self.view.scroll = 0;
        self.result = Some(result);
        self.chosen = 0;
    }

    /// The set changed: a selection made from the old one no longer says what the agent
    /// would get, so it is dropped (the query stays typed, to run again).
    pub fn set_changed(&mut self) {
        // a selection still running was asked of the old set too
        let running = self.asked.take().is_some();
        if self.result.take().is_some() || running {
            self.outdated = true;
            self.chosen = 0;
            self.view.scroll = 0;
        }
    }
}

impl Component for QueryPane {
    fn scope(&self) -> Scope {
        Scope::Query
    }

    fn handle_key(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::QueryInput => {
                // the old query is selected: typing replaces it, a move edits it
                self.input.select_all();
                self.show_cases = false;
                self.typing = true;
            }
            Action::QueryTab => {
                self.show_cases = !self.show_cases;
                self.view.scroll = 0;
            }
            Action::Left => self.chosen = self.chosen.saturating_sub(1),
            Action::Right => {
                let names = self.result.as_ref().map_or(0, |r| r.names.len());
                self.chosen = (self.chosen + 1).min(names.saturating_sub(1));
            }
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
        if self.show_cases {
            let passing = self
                .cases
                .iter()
                .filter(|c| c.result.verdict() == Verdict::Pass)
                .count();
            let title = format!(" Query · eval cases ({passing}/{} pass) ", self.cases.len());
            let lines = case_lines(&self.cases, self.cases_error.as_deref(), theme);
            self.view
                .render(frame, area, block(title, focused, theme), lines);
            return;
        }
        let block = block(" Query ", focused, theme);
        let mut prompt = vec![Span::styled("query> ", theme.key())];
        prompt.extend(self.input.spans(self.typing));
        let mut lines = vec![Line::from(prompt)];
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
            None if self.outdated => {
                lines.push(Line::styled(
                    format!(
                        "the set changed since this query ran: {} then {} runs it again",
                        keymap::label(Scope::Query, Action::QueryInput),
                        keymap::label(Scope::Input, Action::Submit)
                    ),
                    theme.dim(),
                ));
            }
            None => {}
            Some(result) => {
                let mut spans = vec![Span::styled(
                    format!("selected ({}): ", result.how),
                    theme.label(),
                )];
                if result.names.is_empty() {
                    spans.push(Span::raw("(none: nothing is injected)"));
                }
                for (i, name) in result.names.iter().enumerate() {
                    if i > 0 {
                        spans.push(Span::raw(", "));
                    }
                    let name = sanitize::line(name).into_owned();
                    // the chosen name is marked only while it can be jumped to
                    spans.push(if i == self.chosen && focused {
                        Span::styled(name, theme.selected())
                    } else {
                        Span::raw(name)
                    });
                }
                if !result.names.is_empty() && focused {
                    spans.push(Span::styled(
                        format!(
                            "  ({}/{} choose, {} jumps to it)",
                            keymap::label(Scope::Query, Action::Left),
                            keymap::label(Scope::Query, Action::Right),
                            keymap::label(Scope::Query, Action::JumpTo)
                        ),
                        theme.dim(),
                    ));
                }
                lines.push(Line::from(spans));
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
                lines.push(Line::styled(
                    format!(
                        "{} saves it as an eval case · {} lists the cases",
                        keymap::label(Scope::Query, Action::SaveCase),
                        keymap::label(Scope::Query, Action::QueryTab)
                    ),
                    theme.dim(),
                ));
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

fn names(list: &[String]) -> String {
    if list.is_empty() {
        "(none)".to_owned()
    } else {
        sanitize::line(&list.join(", ")).into_owned()
    }
}

/// One line per case: its mark, query and expectation; what it selected when it fails.
fn case_lines(cases: &[CaseRow], error: Option<&str>, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(error) = error {
        lines.push(Line::styled(
            sanitize::line(error).into_owned(),
            theme.error(),
        ));
    }
    if cases.is_empty() && error.is_none() {
        lines.push(Line::styled(
            format!(
                "no eval cases: run a query, then {} saves it as one",
                keymap::label(Scope::Query, Action::SaveCase)
            ),
            theme.dim(),
        ));
    }
    for (i, row) in cases.iter().enumerate() {
        let result = &row.result;
        let (mark, style) = match result.verdict() {
            // an expected memory left the set: broken, as `memwb eval` says, though the rest hit
            Verdict::Pass if !result.broken.is_empty() => ("!", theme.warning()),
            Verdict::Pass => ("✓", theme.ok()),
            Verdict::Fail => ("✗", theme.error()),
            Verdict::Broken => ("!", theme.warning()),
        };
        let mut spans = vec![
            Span::styled(format!("{mark} {:>2} ", i + 1), style),
            Span::raw(sanitize::line(&result.query).into_owned()),
            Span::styled(format!(" → {}", names(&result.expect)), theme.dim()),
        ];
        if let Some(since) = &row.regressed {
            spans.push(Span::styled(format!("  fails {since}"), theme.warning()));
        }
        lines.push(Line::from(spans));
        if result.verdict() != Verdict::Pass || !result.broken.is_empty() {
            let mut detail = format!("     selected {}", names(&result.selected));
            if !result.broken.is_empty() {
                detail.push_str(&format!("; gone from the set: {}", names(&result.broken)));
            }
            if !result.forbidden.is_empty() {
                detail.push_str(&format!("; forbidden: {}", names(&result.forbidden)));
            }
            lines.push(Line::styled(detail, theme.dim()));
        }
    }
    lines
}
