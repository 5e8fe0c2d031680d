//! The Sets view (`S`): every memory folder `memwb sets` finds, of either format, the open one
//! marked `▶`; Enter opens the selected one in place.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::Line;

use super::{Component, Ctx, ListRows, block, render_list, scroll};
use crate::formats::Summary;
use crate::sanitize;
use crate::tui::keymap::{self, Action, Scope};

#[derive(Debug, Default)]
pub struct SetsPane {
    /// `None` until the first search has been answered.
    pub sets: Option<Vec<Summary>>,
    pub selected: usize,
    pub offset: usize,
    /// The folder open now (its path as `memwb sets` prints it).
    pub current: String,
    height: usize,
    rows: ListRows,
}

impl SetsPane {
    /// The folders found; the open one is selected.
    pub fn loaded(&mut self, sets: Vec<Summary>) {
        self.selected = sets
            .iter()
            .position(|s| s.path == self.current)
            .unwrap_or(0);
        self.sets = Some(sets);
    }

    pub fn selected_set(&self) -> Option<&Summary> {
        self.sets.as_ref()?.get(self.selected)
    }

    fn len(&self) -> usize {
        self.sets.as_ref().map_or(0, Vec::len)
    }

    fn row(&self, set: &Summary) -> String {
        let here = if set.path == self.current { "▶" } else { " " };
        let project = set
            .project
            .as_ref()
            .map(|p| p.path.clone().unwrap_or_else(|| p.slug.clone()))
            .unwrap_or_default();
        let index = set.index.as_ref().map_or_else(
            || "no MEMORY.md".to_owned(),
            |i| format!("index {}/{}", i.lines, i.max_lines),
        );
        format!(
            "{here} {:6} {}  {} memories, {} errors, {} warnings, {index} {project}",
            set.format.as_str(),
            set.path,
            set.records,
            set.errors,
            set.warnings,
        )
    }
}

impl Component for SetsPane {
    fn scope(&self) -> Scope {
        Scope::Sets
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        let theme = ctx.theme;
        let title = format!(
            " Sets: every memory folder found ({} opens, {} returns) ",
            keymap::label(Scope::Sets, Action::OpenSet),
            keymap::label(Scope::Global, Action::ShowSets)
        );
        let outer = block(title, true, theme);
        let Some(sets) = &self.sets else {
            let inner = outer.inner(area);
            frame.render_widget(outer, area);
            frame.render_widget(
                ratatui::widgets::Paragraph::new(Line::styled(
                    "looking for memory folders…",
                    theme.dim(),
                )),
                inner,
            );
            return;
        };
        let lines: Vec<Line<'static>> = sets
            .iter()
            .map(|set| {
                let style = if set.errors > 0 {
                    theme.error()
                } else {
                    Style::default()
                };
                Line::styled(sanitize::line(&self.row(set)).into_owned(), style)
            })
            .collect();
        let mut rows = self.rows;
        let mut offset = self.offset;
        self.height = render_list(
            frame,
            area,
            outer,
            None,
            "no memory folders found",
            (lines.len(), self.selected, &mut offset),
            &mut rows,
            theme,
            |i| lines[i].clone(),
        );
        self.offset = offset;
        self.rows = rows;
    }

    fn handle_key(&mut self, action: Action) -> Option<Action> {
        match action {
            movement if movement.is_movement() => {
                let len = self.len();
                scroll(
                    &mut self.selected,
                    movement,
                    self.height.saturating_sub(1),
                    len,
                );
            }
            other => return Some(other),
        }
        None
    }

    fn scroll(&mut self, down: bool) {
        let action = if down { Action::Down } else { Action::Up };
        let len = self.len();
        scroll(&mut self.selected, action, 1, len);
    }

    fn click(&mut self, at: Position) -> bool {
        match self.rows.hit(at, self.offset, self.len()) {
            Some(i) => {
                self.selected = i;
                true
            }
            None => false,
        }
    }
}
