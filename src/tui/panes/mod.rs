//! The panes and the views. Each is a [`Component`]: its own state, `render`, and the handling
//! of the actions that concern only itself (scrolling, moving the selection, opening its input
//! line). The app asks the focused component first and handles what it hands back.

pub(crate) mod change_view;
pub mod diff;
pub mod findings;
pub mod history;
pub mod index;
pub(crate) mod list_filter;
pub mod manifest;
pub(crate) mod proposal_detail;
pub mod proposals;
pub mod query;
pub mod record;
pub mod sets;
pub mod strays;

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::keymap::{Action, Scope};
use super::review::Review;
use super::theme::Theme;
use crate::sanitize;

/// What a component may read while it draws: the folder state, the review state, the theme.
pub struct Ctx<'a> {
    /// The open folder as read.
    pub shown: &'a crate::formats::Shown,
    pub review: &'a Review,
    pub theme: &'a Theme,
    /// The component has the keyboard (its border is highlighted).
    pub focused: bool,
    /// The list's selected row (what the Record pane shows), by its place in the reading.
    pub selected_row: Option<usize>,
    /// The index's use of its limits (the list's gauges).
    pub gauges: &'a [crate::formats::Gauge],
    /// The Manifest's filter: what `n`/`N` look for in the Record pane.
    pub search: &'a str,
    /// The editor covers the detail half of a view: draw only the list.
    pub editing: bool,
    /// The set's last check (the Findings view's): the Record pane lists the selected
    /// memory's findings from it.
    pub report: Option<&'a crate::content::report::SetReport>,
    /// What the open folder's format calls its list of memories and one memory's file: the
    /// list and memory panes' titles.
    pub(crate) nouns: crate::formats::Nouns,
    /// Which commands are available now: a pane names a key in its text only where it runs.
    pub(crate) keys: &'a super::keymap::KeyState,
}

/// A pane or a view. Adding one is a new type implementing this, its [`Scope`] and bindings
/// in the keymap table, and one arm in `App::pane_mut`/`App::view_mut` (see docs/workbench.md).
pub trait Component {
    /// The keymap scope of this component's own bindings: dispatch, the hints bar, the help.
    fn scope(&self) -> Scope;

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>);

    /// Carries out `action` if it concerns only this component (`None`), else hands it back
    /// for the app (`Some`).
    fn handle_key(&mut self, action: Action) -> Option<Action>;

    /// One turn of the mouse wheel over the component.
    fn scroll(&mut self, down: bool);

    /// A left click at `at` (screen coordinates): selects the row there. True if it did.
    fn click(&mut self, _at: Position) -> bool {
        false
    }

    /// The rows of a view's list, for its layout (the list takes what it needs, up to a third).
    fn rows(&self) -> usize {
        0
    }

    /// The view was switched to.
    fn shown(&mut self) {}

    /// The component's one-line input has the keyboard.
    fn typing(&self) -> bool {
        false
    }

    /// A key for a view's list filter while it has the keyboard ([`Component::typing`]).
    fn filter_key(&mut self, _action: Option<Action>, _key: crossterm::event::KeyEvent) {}

    /// Text pasted while the view's list filter has the keyboard.
    fn filter_paste(&mut self, _text: &str) {}
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Manifest,
    Record,
    Index,
    Query,
}

impl Pane {
    pub const ALL: [Pane; 4] = [Pane::Manifest, Pane::Record, Pane::Index, Pane::Query];

    pub fn next(self, step: isize) -> Pane {
        let i = Self::ALL.iter().position(|p| *p == self).unwrap_or(0) as isize;
        Self::ALL[(i + step).rem_euclid(4) as usize]
    }
}

pub fn block<'a>(title: impl Into<Line<'a>>, focused: bool, theme: &Theme) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(title)
}

/// A scroll position clamped to the content.
pub fn scroll(position: &mut usize, action: Action, page: usize, len: usize) -> bool {
    let max = len.saturating_sub(1);
    let page = page.max(1);
    let next = match action {
        Action::Up => position.saturating_sub(1),
        Action::Down => (*position + 1).min(max),
        Action::PageUp => position.saturating_sub(page),
        Action::PageDown => (*position + page).min(max),
        Action::Top => 0,
        Action::Bottom => max,
        _ => return false,
    };
    *position = next;
    true
}

/// `2026-11-30 00:41:12Z` (UTC) from Unix milliseconds.
pub fn short_time(ms: i64) -> String {
    let full = crate::time::format_ms(ms);
    match full.get(..19) {
        Some(head) => format!("{}Z", head.replace('T', " ")),
        None => full,
    }
}

/// A scrollable text area (the Record and Query panes, the detail of the review views):
/// remembers its scroll position and, from the last render, its height and length for paging.
#[derive(Debug, Default, Clone)]
pub struct Detail {
    pub scroll: usize,
    height: usize,
    len: usize,
    /// The rows as wrapped at the last render, lower-cased, for searching.
    text: Vec<String>,
}

impl Detail {
    /// Moves the view by `action` (a page is one line less than the view), never past the
    /// point where the last row is at the bottom; true if the action is a move.
    pub fn page(&mut self, action: Action) -> bool {
        let moved = scroll(
            &mut self.scroll,
            action,
            self.height.saturating_sub(1),
            max_scroll(self.len, self.height) + 1,
        );
        self.scroll = self.scroll.min(max_scroll(self.len, self.height));
        moved
    }

    /// Scrolls to the next (`forward`) or previous row holding `needle`, after or before the
    /// top row shown; true if there is one.
    pub fn jump_to(&mut self, needle: &str, forward: bool) -> bool {
        let needle = needle.to_lowercase();
        if needle.is_empty() {
            return false;
        }
        let hit = |i: &usize| self.text[*i].contains(&needle);
        let found = if forward {
            (self.scroll + 1..self.text.len()).find(hit)
        } else {
            (0..self.scroll.min(self.text.len())).rev().find(hit)
        };
        match found {
            Some(row) => {
                self.scroll = row.min(max_scroll(self.len, self.height));
                true
            }
            None => false,
        }
    }

    /// One turn of the mouse wheel: three lines.
    pub fn wheel(&mut self, down: bool) {
        let action = if down { Action::Down } else { Action::Up };
        for _ in 0..3 {
            self.page(action);
        }
    }

    pub fn render(
        &mut self,
        frame: &mut Frame,
        area: Rect,
        outer: Block<'_>,
        lines: Vec<Line<'static>>,
    ) {
        let inner = outer.inner(area);
        // Wrapped here, by display width: a long line is several rows of the scroll.
        let rows = super::text::wrap(lines, inner.width as usize);
        self.height = inner.height as usize;
        self.len = rows.len();
        self.text = rows.iter().map(|r| r.to_string().to_lowercase()).collect();
        self.scroll = self.scroll.min(max_scroll(self.len, self.height));
        let shown: Vec<Line<'static>> = rows
            .into_iter()
            .skip(self.scroll)
            .take(self.height)
            .collect();
        frame.render_widget(Paragraph::new(shown).block(outer), area);
    }
}

/// A multi-line (untrusted) text under `label`: the first line beside it, the rest indented.
pub fn labelled_lines(label: &str, text: &str, style: Style, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = sanitize::lines(text).into_iter();
    let mut out = vec![labelled(
        label,
        &lines.next().unwrap_or_default(),
        style,
        theme,
    )];
    out.extend(lines.map(|more| Line::styled(format!("{:<12}{more}", ""), style)));
    out
}

/// `label` in a fixed column, then the (untrusted) value made inert.
pub fn labelled(label: &str, value: &str, style: Style, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        // a label as wide as the column (a finding's code) still gets its space
        Span::styled(format!("{label:<11} "), theme.label()),
        Span::styled(sanitize::line(value).into_owned(), style),
    ])
}

/// Moves a list's first visible row so that `selected` is on screen, and never past the point
/// where the last of its `len` rows is at the bottom (a list that fits starts at its top).
pub fn keep_in_view(offset: &mut usize, selected: usize, height: usize, len: usize) {
    let height = height.max(1);
    if selected < *offset {
        *offset = selected;
    } else if selected >= *offset + height {
        *offset = selected + 1 - height;
    }
    *offset = (*offset).min(len.saturating_sub(height));
}

/// The furthest a view of `height` rows can scroll over `len` rows: the last row at the bottom.
pub fn max_scroll(len: usize, height: usize) -> usize {
    len.saturating_sub(height.max(1))
}

/// Where a view's list rows were drawn, for clicks.
#[derive(Debug, Default, Clone, Copy)]
pub struct ListRows {
    pub area: Rect,
    /// Rows above the first item (the review's load error).
    pub first: u16,
}

impl ListRows {
    /// The item at `at`, for a list scrolled to `offset` holding `len` items.
    pub fn hit(&self, at: Position, offset: usize, len: usize) -> Option<usize> {
        if !self.area.contains(at) || at.y < self.area.y + self.first {
            return None;
        }
        let i = offset + (at.y - self.area.y - self.first) as usize;
        (i < len).then_some(i)
    }
}

/// The list half of a review view: framed, the review's load error first, `empty` when there
/// are no rows, scrolled so that `selected` stays in view. `row(i)` draws row `i`. Returns the
/// list's height in rows.
#[allow(clippy::too_many_arguments)]
pub fn render_list(
    frame: &mut Frame,
    area: Rect,
    outer: Block<'_>,
    error: Option<&str>,
    empty: &'static str,
    (len, selected, offset): (usize, usize, &mut usize),
    rows: &mut ListRows,
    theme: &Theme,
    row: impl Fn(usize) -> Line<'static>,
) -> usize {
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let height = inner.height as usize;
    rows.area = inner;
    rows.first = u16::from(error.is_some());
    keep_in_view(offset, selected, height, len);
    let mut lines = Vec::new();
    if let Some(error) = error {
        lines.push(Line::styled(
            sanitize::line(error).into_owned(),
            theme.error(),
        ));
    }
    if len == 0 {
        lines.push(Line::styled(empty, theme.dim()));
    }
    for i in (*offset..len).take(height) {
        let mut line = row(i);
        if i == selected {
            line = line.patch_style(theme.selected());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
    height
}
