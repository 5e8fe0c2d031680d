//! MEMORY.md pane: the file on disk beside the index the manifest derives, the drift marked
//! line by line (`-` only on disk, `+` only in the derived index). Lines are not wrapped (the
//! exact text matters); ←/→ scroll sideways, by display columns. The view is computed once per reload, and only
//! the visible rows are drawn; a `.memory` index line is redacted and made safe to print the
//! first time it is drawn (redacting all 10,000 lines of a large set cost more than reading
//! the set, on every reload: issue 27).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::claude::{CONTENT, CUT, DANGLING, DIMMED, index_view};
use super::{Component, Ctx, block, max_scroll, scroll};
use crate::redact::redact;
use crate::sanitize;
use crate::store::index;
use crate::store::inspect::{BudgetUse, IndexStatus, Inspection, ManifestState};
use crate::tui::keymap::{self, Action, Scope};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IndexSync {
    #[default]
    InSync,
    Drifted,
    Missing,
    /// The set is unreadable; the drift is against the index its valid entries derive.
    PartialInSync,
    PartialDrifted,
    Unknown,
}

/// What the pane shows, computed once per inspection.
#[derive(Debug, Clone)]
pub struct IndexView {
    pub status: IndexSync,
    /// (marker, line): ' ' same, '-' only on disk, '+' only derived. Lines of a `.memory`
    /// index are as read until drawn ([`IndexView::shown`]); a Claude Code folder's are made
    /// safe to print when the view is made.
    pub lines: Vec<(char, String)>,
    /// The lines of a `.memory` index as drawn (redacted, safe to print), made on first draw.
    shown: Vec<Option<String>>,
    /// The budget use of the derived index (of the valid entries' index when the set is
    /// unreadable).
    pub budget: BudgetUse,
    /// A Claude Code folder's title (and whether it is an error), in place of the drift status.
    pub title: Option<(String, bool)>,
}

/// The drift between the file on disk and the derived index: (marker, line).
/// A line diff of two texts: `' '` kept, `'-'` only in the first, `'+'` only in the second.
pub fn drift(on_disk: &str, derived: &str) -> Vec<(char, String)> {
    similar::TextDiff::from_lines(on_disk, derived)
        .iter_all_changes()
        .map(|c| {
            let marker = match c.tag() {
                similar::ChangeTag::Equal => ' ',
                similar::ChangeTag::Delete => '-',
                similar::ChangeTag::Insert => '+',
            };
            (marker, c.value().trim_end_matches('\n').to_owned())
        })
        .collect()
}

impl IndexView {
    /// Line `at` as drawn: redacted and safe to print (a `.memory` line is made so once).
    pub fn shown(&mut self, at: usize) -> &str {
        let Some(slot) = self.shown.get_mut(at) else {
            return self.lines.get(at).map_or("", |(_, text)| text.as_str());
        };
        slot.get_or_insert_with(|| sanitize::line(&redact(&self.lines[at].1)).into_owned())
    }

    pub fn of(inspection: &Inspection) -> Self {
        let index = &inspection.index;
        let on_disk = index.on_disk.as_deref().unwrap_or("");
        let mut budget = inspection.budget;
        // When bad entries make the set unreadable, the valid ones still say a lot.
        let partial = (index.derived.is_none()
            && inspection.root_error.is_none()
            && inspection.manifest == ManifestState::Valid)
            .then(|| {
                index::render(
                    inspection
                        .entries
                        .iter()
                        .filter_map(|e| e.record().map(|r| (e.file.as_str(), r))),
                )
            });
        if let Some(text) = &partial {
            (budget.index_lines, budget.index_bytes) = index::measure(text);
        }
        let derived = index.derived.as_deref().or(partial.as_deref());
        let status = match (index.status, &partial) {
            (IndexStatus::InSync, _) => IndexSync::InSync,
            (IndexStatus::Drifted, _) => IndexSync::Drifted,
            (IndexStatus::Missing, _) => IndexSync::Missing,
            (IndexStatus::Unknown, Some(p)) if p == on_disk => IndexSync::PartialInSync,
            (IndexStatus::Unknown, Some(_)) => IndexSync::PartialDrifted,
            (IndexStatus::Unknown, None) => IndexSync::Unknown,
        };
        let raw = match derived {
            Some(derived) if derived != on_disk => drift(on_disk, derived),
            _ => on_disk.lines().map(|l| (' ', l.to_owned())).collect(),
        };
        Self {
            status,
            shown: vec![None; raw.len()],
            lines: raw,
            budget,
            title: None,
        }
    }
}

impl Default for IndexView {
    fn default() -> Self {
        Self {
            status: IndexSync::InSync,
            lines: Vec::new(),
            shown: Vec::new(),
            budget: BudgetUse {
                index_lines: 0,
                index_bytes: 0,
                max_index_lines: 0,
                max_index_bytes: 0,
            },
            title: None,
        }
    }
}

#[derive(Debug, Default)]
pub struct IndexPane {
    pub view: IndexView,
    pub scroll: usize,
    /// Columns scrolled sideways.
    pub column: usize,
    pub height: usize,
}

impl IndexPane {
    pub fn update(&mut self, shown: &crate::formats::Shown) {
        self.view = match (shown.topics(), shown.inspection()) {
            (Some(view), _) => index_view(view),
            (None, Some(inspection)) => IndexView::of(inspection),
            (None, None) => IndexView::default(),
        };
        self.scroll = self
            .scroll
            .min(max_scroll(self.view.lines.len(), self.height));
    }

    /// Scrolls to the next (or previous) line that differs between the file and the derived
    /// index, after (before) the top line shown.
    fn next_drift(&mut self, forward: bool) {
        let lines = &self.view.lines;
        let drifted = |i: &usize| lines[*i].0 != ' ';
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
        let (status, style) = match (&self.view.title, self.view.status) {
            (Some((title, error)), _) => (
                title.clone(),
                if *error { theme.error() } else { theme.ok() },
            ),
            (None, status) => sync_status(status, theme),
        };
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
            let end = self.view.lines.len().min(self.scroll + self.height);
            (self.scroll..end)
                .map(|at| {
                    let (marker, text) = (self.view.lines[at].0, self.view.shown(at));
                    let style = match marker {
                        '-' => theme.removed(),
                        '+' => theme.added(),
                        DANGLING | CUT => theme.error(),
                        CONTENT => theme.warning(),
                        DIMMED => theme.dim(),
                        _ => Style::default(),
                    };
                    let shown = crate::tui::text::skip_columns(text, self.column);
                    let marker = match marker {
                        DIMMED | CUT => ' ',
                        other => other,
                    };
                    Line::styled(format!("{marker} {shown}"), style)
                })
                .collect()
        };
        frame.render_widget(Paragraph::new(lines).block(block), area);
    }
}

/// The title's word for the drift between the file and the derived index.
fn sync_status(status: IndexSync, theme: &crate::tui::theme::Theme) -> (String, Style) {
    let rebuild = keymap::label(Scope::Workbench, Action::RebuildIndex);
    match status {
        IndexSync::InSync => ("in sync".to_owned(), theme.ok()),
        IndexSync::Drifted => (format!("DRIFTED, {rebuild} rebuilds"), theme.error()),
        IndexSync::Missing => (format!("MISSING, {rebuild} rebuilds"), theme.error()),
        IndexSync::PartialInSync => (
            "matches the valid entries (set unreadable)".to_owned(),
            theme.warning(),
        ),
        IndexSync::PartialDrifted => ("DRIFTED (set unreadable)".to_owned(), theme.error()),
        IndexSync::Unknown => ("cannot derive: set unreadable".to_owned(), theme.warning()),
    }
}
