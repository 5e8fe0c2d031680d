//! Manifest pane: the set in manifest order with each entry's state, then what is in `.memory`
//! but not in the set, the lock, and the index budget. Only the visible rows are built, so
//! rendering does not depend on the size of the set.

use std::collections::HashMap;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{Component, Ctx, block, findings, scroll};
use crate::finding::Severity;
use crate::formats::{Gauge, ListView, RowState, Shown, Stray};
use crate::redact::redact;
use crate::sanitize;
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::line_input::LineInput;
use crate::tui::text;
use crate::tui::theme::Theme;

#[derive(Debug, Default)]
pub struct ManifestPane {
    /// Indices into `inspection.entries` that pass the filter, in manifest order.
    pub visible: Vec<usize>,
    /// Position in `visible`.
    pub selected: usize,
    /// First visible row.
    pub offset: usize,
    pub filter: LineInput,
    /// The filter line has the keyboard.
    pub typing: bool,
    /// Rows of the list at the last render.
    pub height: usize,
    /// Where the list was drawn last, for clicks.
    pub(crate) list: Rect,
    /// The files in `.memory` that are not in the set (unlisted, then temp files), listed and
    /// selectable below the entries: position `visible.len() + i` is `strays[i]`.
    pub strays: Vec<Stray>,
    /// Where the rows of the strays were drawn last, and the first one shown, for clicks.
    stray_rows: (Rect, usize),
    /// The most severe finding of each entry with findings, by file (the Findings view's).
    pub marks: HashMap<String, Severity>,
    /// The widest name of the whole list (display columns), measured when it is refiltered:
    /// the columns are laid out for the list, not for the rows in view, so they hold still
    /// as it scrolls.
    pub(crate) longest_name: usize,
}

/// Where a list row's columns go (Manifest and Topic files alike): the name's width, and the
/// type's (0 when it is left out). The description gets the room that is left, at least
/// [`DESCRIPTION_ROOM`] columns where it can: the type gives way first (the Record pane shows
/// it), then the name narrows to a third.
pub(crate) fn row_columns(width: usize, marks: usize, longest_name: usize) -> (usize, usize) {
    let room = width.saturating_sub(marks);
    let name = longest_name.clamp(4, (room * 2 / 5).max(4));
    let left = room.saturating_sub(name + 1);
    if left.saturating_sub(KIND_COLUMN) >= DESCRIPTION_ROOM {
        (name, KIND_COLUMN)
    } else if left >= DESCRIPTION_ROOM {
        (name, 0)
    } else {
        (longest_name.clamp(4, (room / 3).max(4)), 0)
    }
}

/// The type column: the longest type (`reference`) and a space.
const KIND_COLUMN: usize = 10;
/// What a description needs to be read at a glance.
const DESCRIPTION_ROOM: usize = 20;

impl ManifestPane {
    /// Recomputes the visible rows, keeping the selection on the row whose key is `keep`
    /// when it is still there.
    pub fn refilter(&mut self, shown: &Shown, keep: Option<&str>) {
        let stray = self.selected_stray().map(|s| s.file.clone());
        let on_entry = self.selected < self.visible.len();
        let needle = self.filter.text().to_lowercase();
        // A filter applies to the strays too, by file name: every row left matches it, so the
        // selection is on a match or on nothing.
        self.strays = shown
            .strays()
            .into_iter()
            .filter(|stray| needle.is_empty() || stray.file.to_lowercase().contains(&needle))
            .collect();
        self.visible = (0..shown.len())
            .filter(|&i| needle.is_empty() || shown.haystack_at(i).to_lowercase().contains(&needle))
            .collect();
        self.longest_name = (0..shown.len())
            .filter_map(|i| shown.name_and_file_at(i))
            .map(|(name, _)| text::width(&sanitize::line(name)))
            .max()
            .unwrap_or(0);
        // `keep` names the row wanted (a jump); otherwise a selected stray stays selected.
        let kept = keep.and_then(|key| {
            self.visible
                .iter()
                .position(|&i| shown.key_at(i) == Some(key))
        });
        let stray = stray.and_then(|file| self.strays.iter().position(|s| s.file == file));
        match (kept, stray) {
            (Some(pos), _) => self.selected = pos,
            (None, Some(pos)) => self.selected = self.visible.len() + pos,
            // the entry selected went (the last one deleted): its neighbour in the set, not
            // the unlisted files below
            (None, None) if on_entry && !self.visible.is_empty() => {
                self.selected = self.selected.min(self.visible.len() - 1);
            }
            (None, None) => {}
        }
        self.selected = self.selected.min(self.rows_len().saturating_sub(1));
        self.keep_in_view();
    }

    /// The selectable rows: the entries that pass the filter, then the strays.
    fn rows_len(&self) -> usize {
        self.visible.len() + self.strays.len()
    }

    /// The selected file that is not in the set, if the selection is on one.
    pub fn selected_stray(&self) -> Option<&Stray> {
        self.selected
            .checked_sub(self.visible.len())
            .and_then(|i| self.strays.get(i))
    }

    /// The selected row's place in the reading, if the selection is on one of its rows.
    pub fn selected_row(&self) -> Option<usize> {
        self.visible.get(self.selected).copied()
    }

    fn move_selection(&mut self, action: Action) -> bool {
        let len = self.rows_len();
        let moved = scroll(
            &mut self.selected,
            action,
            self.height.saturating_sub(1),
            len,
        );
        self.keep_in_view();
        moved
    }

    fn scroll_view(&mut self, down: bool) {
        let max = self.visible.len().saturating_sub(self.height.max(1));
        self.offset = if down {
            (self.offset + 3).min(max)
        } else {
            self.offset.saturating_sub(3)
        };
        let last = (self.offset + self.height.max(1)).saturating_sub(1);
        self.selected = self
            .selected
            .clamp(self.offset, last.max(self.offset))
            .min(self.visible.len().saturating_sub(1));
    }

    fn keep_in_view(&mut self) {
        // on a stray, the list shows its end
        super::keep_in_view(
            &mut self.offset,
            self.selected.min(self.visible.len().saturating_sub(1)),
            self.height,
            self.visible.len(),
        );
    }

    fn split(&self, inner: Rect, view: &ListView, gauges: usize) -> [Rect; 2] {
        let header = usize::from(self.typing || !self.filter.is_empty());
        let extras = self.strays.len();
        let max_extras = (inner.height as usize / 4).max(1);
        let shown_extras = if extras == 0 {
            0
        } else {
            extras.min(max_extras) + 1
        };
        let footer = (usize::from(view.state.is_some()) + gauges + shown_extras) as u16;
        let [list, footer_area] = Layout::vertical([
            Constraint::Min(2),
            Constraint::Length(footer.min(inner.height.saturating_sub(2))),
        ])
        .areas(inner);
        let list = Rect {
            y: list.y + header as u16,
            height: list.height.saturating_sub(header as u16),
            ..list
        };
        [list, footer_area]
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        let (shown, theme) = (ctx.shown, ctx.theme);
        let view = shown.list_view();
        let total = shown.len();
        let count = if self.filter.is_empty() {
            total.to_string()
        } else {
            format!("{}/{total}", self.visible.len())
        };
        let worst = (0..total).filter_map(|i| self.worst(shown, i, true));
        let title = format!(" {} ({count}){} ", ctx.nouns.list, finding_counts(worst));
        let block = block(title, ctx.focused, theme);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let [list, footer] = self.split(inner, &view, ctx.gauges.len());
        self.list = list;
        self.height = list.height as usize;
        self.keep_in_view();

        if self.typing || !self.filter.is_empty() {
            let mut spans = vec![Span::styled("/", theme.key())];
            spans.extend(self.filter.spans(self.typing));
            let line = Line::from(spans);
            frame.render_widget(
                Paragraph::new(line),
                Rect {
                    height: 1,
                    y: list.y - 1,
                    ..list
                },
            );
        }
        frame.render_widget(
            Paragraph::new(self.rows(shown, &view, theme, list.width as usize)),
            list,
        );
        let selected = self.selected.checked_sub(self.visible.len());
        let (lines, first) = footer_lines(&self.strays, selected, &view, ctx.gauges, theme, footer);
        self.stray_rows = (footer, first);
        frame.render_widget(Paragraph::new(lines), footer);
    }

    /// Row `i`'s worst finding: the format's own (its state's health), and the Findings
    /// view's mark where `with_mark` (the title counts both; a row's state takes the mark
    /// where it does not have a column of its own).
    fn worst(&self, shown: &Shown, i: usize, with_mark: bool) -> Option<Severity> {
        let (_, file) = shown.name_and_file_at(i)?;
        let mark = self.marks.get(file).copied();
        [shown.health_at(i), mark.filter(|_| with_mark)]
            .into_iter()
            .flatten()
            .min_by_key(|s| findings::rank(*s))
    }

    fn rows(
        &self,
        shown: &Shown,
        view: &ListView,
        theme: &Theme,
        width: usize,
    ) -> Vec<Line<'static>> {
        let mut lines: Vec<Line<'static>> = view
            .problems
            .iter()
            .map(|problem| Line::styled(format!("✗ {}", sanitize::line(problem)), theme.error()))
            .collect();
        if self.visible.is_empty() && lines.is_empty() {
            let text = if self.filter.is_empty() {
                view.empty
            } else {
                "(nothing matches the filter)"
            };
            lines.push(Line::styled(text, theme.dim()));
        }
        let window = self.visible.iter().skip(self.offset).take(self.height);
        // The column of finding marks, when they do not fold into the state and any row has one.
        let mark_width = if self.marks.is_empty() || !view.marks_beside {
            0
        } else {
            2
        };
        let (name_width, kind_width) = row_columns(width, 2 + mark_width, self.longest_name);
        for (row, &i) in window.enumerate() {
            let (Some(memory), Some((_, file))) = (shown.row_at(i), shown.name_and_file_at(i))
            else {
                continue;
            };
            let (marker, marker_style) = match memory.state {
                RowState::Reads { past_cut, .. } => {
                    match self.worst(shown, i, !view.marks_beside) {
                        Some(Severity::Error) => ("✗", theme.error()),
                        // not loaded at all: said before any lesser problem of its own
                        _ if past_cut => ("✂", theme.dim()),
                        Some(Severity::Warning) => ("⚠", theme.warning()),
                        Some(Severity::Info) | None => ("✓", theme.ok()),
                    }
                }
                other => (other.mark_and_word().0, theme.error()),
            };
            let name = text::fit(&sanitize::line(memory.name), name_width);
            let (kind, kind_style) = match (memory.state.reads(), memory.kind) {
                (true, Some(kind)) => (kind, theme.kind(kind)),
                (true, None) => ("-", theme.label()),
                (false, _) => (memory.state.mark_and_word().1, theme.error()),
            };
            // the rest of the row, cut at a word when it does not fit
            let room = width.saturating_sub(2 + mark_width + name_width + 1 + kind_width);
            let notes: String = memory.notes.iter().map(|n| format!(" ({n})")).collect();
            // A description is shown with its credentials redacted, as the audit reports them.
            let about = format!("{}{notes}", redact(&memory.about));
            let about = text::truncate(&sanitize::line(&about), room);
            let mut line = Line::from(vec![
                Span::styled(format!("{marker} "), marker_style),
                match self.marks.get(file) {
                    _ if mark_width == 0 => Span::raw(""),
                    Some(&severity) => Span::styled(
                        format!("{} ", findings::mark(severity)),
                        findings::severity_style(severity, theme),
                    ),
                    None => Span::raw("  "),
                },
                Span::raw(format!("{name} ")),
                Span::styled(kind_cell(kind, kind_width), kind_style),
                Span::styled(
                    about,
                    if memory.state.reads() {
                        Style::default()
                    } else {
                        theme.error()
                    },
                ),
            ]);
            if self.offset + row == self.selected {
                line = line.patch_style(theme.selected());
            }
            lines.push(line);
        }
        lines
    }
}

/// `  ✗2 ⚠3 F`: how many entries have findings of each severity (each entry counted once, by
/// its worst), and the key that lists them; nothing when none has. The Manifest's and the
/// Topic files' titles alike.
pub(crate) fn finding_counts(worst: impl Iterator<Item = Severity>) -> String {
    let (mut errors, mut warnings) = (0, 0);
    for severity in worst {
        match severity {
            Severity::Error => errors += 1,
            Severity::Warning => warnings += 1,
            Severity::Info => {}
        }
    }
    let counts: Vec<String> = [(Severity::Error, errors), (Severity::Warning, warnings)]
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(severity, n)| format!("{}{n}", findings::mark(severity)))
        .collect();
    if counts.is_empty() {
        return String::new();
    }
    format!(
        "  {} {}",
        counts.join(" "),
        keymap::label(Scope::Global, Action::ShowFindings)
    )
}

/// The type column's text: the type padded to the column, or nothing when it is left out.
pub(crate) fn kind_cell(kind: &str, width: usize) -> String {
    if width == 0 {
        return String::new();
    }
    format!("{} ", text::fit(kind, width - 1))
}

impl Component for ManifestPane {
    fn scope(&self) -> Scope {
        Scope::Manifest
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        self.draw(frame, area, ctx);
    }

    fn handle_key(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::Filter => self.typing = true,
            movement if movement.is_movement() => {
                self.move_selection(movement);
            }
            other => return Some(other),
        }
        None
    }

    fn scroll(&mut self, down: bool) {
        self.scroll_view(down);
    }

    fn click(&mut self, at: Position) -> bool {
        let (footer, first) = self.stray_rows;
        if footer.contains(at) && !self.strays.is_empty() {
            // the strays' rows start below the "not in the set:" line
            let row = (at.y - footer.y) as usize;
            let pos = first + row.saturating_sub(1);
            if row >= 1 && pos < self.strays.len() && pos < first + footer.height as usize {
                self.selected = self.visible.len() + pos;
                return true;
            }
            return false;
        }
        if !self.list.contains(at) {
            return false;
        }
        let pos = self.offset + (at.y - self.list.y) as usize;
        if pos < self.visible.len() {
            self.selected = pos;
            true
        } else {
            false
        }
    }

    fn typing(&self) -> bool {
        self.typing
    }
}

pub(crate) fn gauge(gauge: &Gauge, theme: &Theme) -> Vec<Span<'static>> {
    const CELLS: usize = 10;
    let (label, used, max) = (&gauge.label, gauge.used, gauge.max);
    let filled = if max == 0 {
        CELLS
    } else {
        (used * CELLS).div_ceil(max).min(CELLS)
    };
    let share = if max == 0 {
        1.0
    } else {
        used as f64 / max as f64
    };
    let style = if share > 1.0 {
        theme.error()
    } else if share >= 0.9 {
        theme.warning()
    } else {
        theme.ok()
    };
    vec![
        Span::styled(format!("{label} "), theme.label()),
        Span::styled("█".repeat(filled), style),
        Span::styled("░".repeat(CELLS - filled), theme.dim()),
        Span::raw(format!(" {used}/{max} ")),
    ]
}

/// The strays (the selected one highlighted, scrolled into view), the folder's state and the
/// gauges; and the position of the first stray shown.
fn footer_lines(
    strays: &[Stray],
    selected: Option<usize>,
    view: &ListView,
    gauges: &[Gauge],
    theme: &Theme,
    area: Rect,
) -> (Vec<Line<'static>>, usize) {
    let mut lines = Vec::new();
    let mut first = 0;
    if !strays.is_empty() {
        lines.push(Line::styled(view.strays_heading, theme.label()));
        let room = (area.height as usize).saturating_sub(4).max(1);
        let shown = if strays.len() > room {
            // a selected one is always shown
            room.saturating_sub(1).max(usize::from(selected.is_some()))
        } else {
            strays.len()
        };
        if let Some(at) = selected {
            first = (at + 1).saturating_sub(shown);
        }
        for (i, stray) in strays.iter().enumerate().skip(first).take(shown) {
            let mut line = Line::from(vec![
                Span::styled(format!("⚠ {:<8} ", stray.label), theme.warning()),
                Span::raw(sanitize::line(&stray.file).into_owned()),
            ]);
            if selected == Some(i) {
                line = line.patch_style(theme.selected());
            }
            lines.push(line);
        }
        let hidden = strays.len() - shown;
        if hidden > 0 {
            lines.push(Line::styled(format!("  … and {hidden} more"), theme.dim()));
        }
    }
    if let Some(state) = &view.state {
        let mut spans = Vec::new();
        if let Some(label) = state.label {
            spans.push(Span::styled(format!("{label} "), theme.label()));
        }
        spans.push(Span::styled(
            sanitize::line(&state.words).into_owned(),
            theme.tone(state.tone),
        ));
        lines.push(Line::from(spans));
    }
    lines.extend(gauges.iter().map(|g| Line::from(gauge(g, theme))));
    (lines, first)
}
