//! Drawing the editor: the one-line fields, the live check, the body (or the conflict diff, or
//! a field both sides changed).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::{BODY, DESCRIPTION, Editor, LABELS, NAME, TYPE};
use crate::sanitize;
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::theme::Theme;

impl Editor {
    pub fn render(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border(true))
            .title(self.title());
        let inner = block.inner(area);
        frame.render_widget(block, area);

        let status = crate::tui::text::wrap(self.status_lines(theme), inner.width as usize);
        let status_rows = status.len();
        let raw = self.is_raw();
        let [fields_area, status_area, body_area] = Layout::vertical([
            Constraint::Length(if raw { 0 } else { 3 }),
            Constraint::Length(status_rows.min(inner.height.saturating_sub(5) as usize) as u16),
            Constraint::Min(1),
        ])
        .areas(inner);
        let rows = Layout::vertical([Constraint::Length(1); 3]).split(fields_area);
        let shown: &[usize] = if raw { &[] } else { &[NAME, TYPE, DESCRIPTION] };
        for (row, &field) in rows.iter().zip(shown) {
            let [label, input] =
                Layout::horizontal([Constraint::Length(13), Constraint::Min(1)]).areas(*row);
            let style = if self.focus == field {
                theme.key()
            } else {
                theme.label()
            };
            frame.render_widget(Paragraph::new(Span::styled(LABELS[field], style)), label);
            self.style_field(field, theme);
            frame.render_widget(&self.fields[field], input);
        }
        frame.render_widget(Paragraph::new(status), status_area);

        if let Some(diff) = self.conflict.as_ref().and_then(|c| c.diff.as_ref()) {
            let lines: Vec<Line<'static>> = diff
                .iter()
                .map(|(marker, text)| {
                    let style = match marker {
                        '+' => theme.added(),
                        '-' => theme.removed(),
                        _ => Style::default(),
                    };
                    Line::styled(format!("{marker} {}", sanitize::line(text)), style)
                })
                .collect();
            let block = Block::default()
                .borders(Borders::TOP)
                .title(" on disk (-) vs your edit (+) ");
            let lines = crate::tui::text::wrap(lines, body_area.width as usize);
            frame.render_widget(Paragraph::new(lines).block(block), body_area);
            return;
        }
        if let Some(conflict) = self.merge.first() {
            crate::tui::merge::render(frame, body_area, conflict, LABELS[conflict.field], theme);
            return;
        }
        let label_style = if self.focus == BODY {
            theme.key()
        } else {
            theme.label()
        };
        let block = Block::default().borders(Borders::TOP).title(Span::styled(
            if matches!(self.target, super::Target::Text { .. }) {
                " the file's text (saved as it is) "
            } else if raw {
                " the file's text (saved as a whole record file) "
            } else {
                " body "
            },
            label_style,
        ));
        self.fields[BODY].set_block(block);
        self.style_field(BODY, theme);
        frame.render_widget(&self.fields[BODY], body_area);
    }

    fn style_field(&mut self, field: usize, theme: &Theme) {
        let cursor = if self.focus == field {
            theme.selected()
        } else {
            Style::default()
        };
        self.fields[field].set_cursor_style(cursor);
    }

    fn status_lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        if self.is_raw() {
            let save = keymap::label(Scope::Editor, Action::Save);
            let check = self.check_raw().map(|()| match self.target {
                super::Target::Text { .. } => {
                    format!("✓ the frontmatter parses · {save} saves the file as it is")
                }
                _ => format!("✓ parses as a valid record file · {save} repairs the entry with it"),
            });
            match check {
                Ok(text) => out.push(Line::styled(text, theme.ok())),
                Err(e) => out.push(Line::styled(
                    format!("✗ {}", sanitize::line(&e)),
                    theme.error(),
                )),
            }
            if let Some(error) = &self.error {
                out.push(Line::styled(
                    format!("✗ not saved: {}", sanitize::line(error)),
                    theme.error(),
                ));
            } else if self.saving {
                out.push(Line::styled("saving…", theme.dim()));
            }
            return out;
        }
        let save = keymap::label(Scope::Editor, Action::Save);
        let verdict = match (self.check_fields(), &self.refusal) {
            // a format whose files hold more than the fields says that a save keeps it
            (Ok(()), None) if self.keeps_more() => Span::styled(
                format!("✓ valid · {save} saves (other fields and bytes kept)"),
                theme.ok(),
            ),
            (Ok(()), None) => Span::styled("✓ valid", theme.ok()),
            (Ok(()), Some(refusal)) => {
                Span::styled(format!("✗ {}", sanitize::line(refusal)), theme.error())
            }
            (Err(e), _) => Span::styled(format!("✗ {}", sanitize::line(&e)), theme.error()),
        };
        let mut line = vec![verdict];
        if let Some(budget) = self.budget() {
            let (bytes, lines) = self.measure();
            let gauge = format!(
                "{bytes}/{} bytes · {lines}/{} lines",
                budget.bytes, budget.lines
            );
            let over = bytes > budget.bytes || lines > budget.lines;
            let near = near(bytes, budget.bytes) || near(lines, budget.lines);
            // coloured like the index gauge: at 95% of a budget a warning, over it an error
            let style = if over {
                theme.error()
            } else if near {
                theme.warning()
            } else {
                Style::default()
            };
            line.extend([Span::raw(" · "), Span::styled(gauge, style)]);
        }
        out.push(Line::from(line));
        if !self.merge.is_empty() {
            let fields: Vec<&str> = self.merge.iter().map(|c| LABELS[c.field]).collect();
            out.push(Line::styled(
                format!(
                    "⚠ re-applied; changed on both sides: {} (choose for each before saving)",
                    fields.join(", ")
                ),
                theme.warning(),
            ));
        }
        out.extend(self.conflict_lines(theme));
        out
    }

    /// The conflict, the last error, a notice or "saving…".
    fn conflict_lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        if let Some(conflict) = &self.conflict {
            out.push(Line::styled(
                format!("⚠ {}", sanitize::line(&conflict.message)),
                theme.error(),
            ));
            let key = |action| keymap::label(Scope::Conflict, action);
            out.push(Line::styled(
                format!(
                    "  {}: show the difference · {}: reload and re-apply · {}: keep editing",
                    key(Action::ShowDiff),
                    key(Action::Reapply),
                    key(Action::KeepEditing)
                ),
                theme.warning(),
            ));
        } else if let Some(error) = &self.error {
            out.push(Line::styled(
                format!("✗ not saved: {}", sanitize::line(error)),
                theme.error(),
            ));
        } else if let Some(notice) = &self.notice {
            out.push(Line::styled(
                format!("⚠ {}", sanitize::line(notice)),
                theme.warning(),
            ));
        } else if self.saving {
            out.push(Line::styled("saving…", theme.dim()));
        }
        out
    }
}

/// Whether `used` of `max` is at least 95%: the gauge's warning colour.
fn near(used: usize, max: usize) -> bool {
    max > 0 && used * 100 >= max * 95
}
