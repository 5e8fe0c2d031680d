//! MEMORY.md pane: the index file as the folder's format reads it ([`IndexView`], made by the
//! backend): on `.memory` the file on disk beside the index the manifest derives, the drift
//! marked line by line (`-` only on disk, `+` only in the derived index); on Claude Code the
//! index as it loads, cut where loading stops. Lines are not wrapped (the exact text
//! matters); ←/→ scroll sideways, by display columns. The view is computed once per reload,
//! and only the visible rows are drawn; a line is redacted and made safe to print the first
//! time it is drawn (redacting all 10,000 lines of a large set cost more than reading the set,
//! on every reload: issue 27).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Component, Ctx, block, max_scroll, scroll};
pub(crate) use crate::formats::drift;
use crate::formats::{IndexMark, IndexView, Shown};
use crate::redact::redact;
use crate::sanitize;
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::theme::Theme;

#[derive(Debug, Default)]
pub struct IndexPane {
    pub view: IndexView,
    /// The lines as drawn (redacted, safe to print), each made the first time it is drawn.
    drawn: Vec<Option<String>>,
    pub scroll: usize,
    /// Columns scrolled sideways.
    pub column: usize,
    pub height: usize,
}

impl IndexPane {
    pub fn update(&mut self, shown: &Shown) {
        self.view = shown.index_view();
        self.drawn = vec![None; self.view.lines.len()];
        self.scroll = self
            .scroll
            .min(max_scroll(self.view.lines.len(), self.height));
    }

    /// Line `at` as drawn: redacted and safe to print (made so once).
    fn drawn(&mut self, at: usize) -> &str {
        let text = self.view.lines.get(at).map_or("", |l| l.text.as_str());
        match self.drawn.get_mut(at) {
            Some(slot) => slot.get_or_insert_with(|| sanitize::line(&redact(text)).into_owned()),
            None => "",
        }
    }

    /// Scrolls to the next (or previous) line that is not as it should be (on `.memory`: that
    /// differs between the file and the derived index), after (before) the top line shown.
    fn next_drift(&mut self, forward: bool) {
        let lines = &self.view.lines;
        let drifted = |i: &usize| lines[*i].mark.is_drift();
        let found = if forward {
            (self.scroll + 1..lines.len()).find(drifted)
        } else {
            (0..self.scroll.min(lines.len())).rev().find(drifted)
        };
        if let Some(line) = found {
            self.scroll = line.min(max_scroll(lines.len(), self.height));
        }
    }

    fn move_view(&mut self, action: Action) -> bool {
        match action {
            Action::Left => self.column = self.column.saturating_sub(8),
            Action::Right => self.column += 8,
            _ => {
                return scroll(
                    &mut self.scroll,
                    action,
                    self.height.saturating_sub(1),
                    max_scroll(self.view.lines.len(), self.height) + 1,
                );
            }
        }
        true
    }
}

impl Component for IndexPane {
    fn scope(&self) -> Scope {
        Scope::Index
    }

    fn handle_key(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::NextMatch | Action::PrevMatch => self.next_drift(action == Action::NextMatch),
            movement if movement.is_movement() => {
                self.move_view(movement);
            }
            other => return Some(other),
        }
        None
    }

    fn scroll(&mut self, down: bool) {
        let action = if down { Action::Down } else { Action::Up };
        for _ in 0..3 {
            self.move_view(action);
        }
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        let (theme, focused) = (ctx.theme, ctx.focused);
        let (status, style) = heading(&self.view, theme);
        let title = Line::from(vec![
            Span::raw(" MEMORY.md: "),
            Span::styled(status, style),
            Span::raw(" "),
        ]);
        let block = block(title, focused, theme);
        self.height = block.inner(area).height as usize;
        self.scroll = self
            .scroll
            .min(max_scroll(self.view.lines.len(), self.height));
        let lines: Vec<Line> = if self.view.lines.is_empty() {
            vec![Line::styled("(empty)", theme.dim())]
        } else {
            let (end, column) = (
                self.view.lines.len().min(self.scroll + self.height),
                self.column,
            );
            (self.scroll..end)
                .map(|at| {
                    let (marker, style) = mark(self.view.lines[at].mark, theme);
                    let shown = crate::tui::text::skip_columns(self.drawn(at), column);
                    Line::styled(format!("{marker} {shown}"), style)
                })
                .collect()
        };
        frame.render_widget(Paragraph::new(lines).block(block), area);
    }
}

/// The title's words for how the index stands, with the key that rebuilds it where that
/// is the fix.
fn heading(view: &IndexView, theme: &Theme) -> (String, Style) {
    let words = if view.rebuildable {
        let rebuild = keymap::label(Scope::Workbench, Action::RebuildIndex);
        format!("{}, {rebuild} rebuilds", view.heading)
    } else {
        view.heading.clone()
    };
    (words, theme.tone(view.tone))
}

/// A line's marker and style.
fn mark(mark: IndexMark, theme: &Theme) -> (char, Style) {
    match mark {
        IndexMark::Same => (' ', Style::default()),
        IndexMark::OnlyOnDisk => ('-', theme.removed()),
        IndexMark::OnlyDerived | IndexMark::Unlisted => ('+', theme.added()),
        IndexMark::Dangling => ('✗', theme.error()),
        IndexMark::Cut => (' ', theme.error()),
        IndexMark::Content => ('⚠', theme.warning()),
        IndexMark::NotLoaded => (' ', theme.dim()),
    }
}
