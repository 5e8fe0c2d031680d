//! Record pane: the selected memory as its format reads it ([`MemoryView`], made by the
//! backend): its fields, its findings, and its body, wrapped and scrollable; for a file that
//! does not parse the raw text with the error and its line; for a file outside the set (the
//! list's selection on one) what it is.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::{Component, Ctx, Detail, block, findings};
use crate::content::report::SetReport;
use crate::finding::Finding;
use crate::formats::{HeadLine, Look, MemoryText, MemoryView, Segment};
use crate::redact::redact;
use crate::sanitize;
use crate::tui::keymap::{Action, Scope};
use crate::tui::theme::Theme;

#[derive(Debug, Default)]
pub struct RecordPane {
    pub view: Detail,
    /// What `n`/`N` look for: the Manifest's filter at the last render.
    search: String,
    /// The memory last shown: another one starts at the top, whatever changed the selection.
    shown: Option<String>,
    /// The file outside the set the Manifest's selection is on (set by the app).
    pub stray: Option<super::strays::StrayView>,
    /// The strays whose bytes were asked for and have not arrived yet.
    pub stray_reads: Vec<String>,
    /// A line of the memory's file to scroll to and mark at the next render (a jump from
    /// the Findings view).
    pub goto: Option<usize>,
    /// The row marked by the last jump, while the same memory is shown.
    marked: Option<usize>,
}

impl Component for RecordPane {
    fn scope(&self) -> Scope {
        Scope::Record
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        ctx.search.clone_into(&mut self.search);
        let (theme, focused) = (ctx.theme, ctx.focused);
        let row = ctx.selected_row;
        let memory = row.and_then(|i| ctx.shown.memory_view(i));
        let stray = self.stray.as_ref().filter(|_| memory.is_none());
        let title = match (&memory, stray) {
            (Some(m), _) => {
                let notes: String = m.notes.iter().map(|n| format!(" ({n})")).collect();
                format!(" {}: {}{notes} ", ctx.nouns.item, sanitize::line(&m.name))
            }
            (None, Some(stray)) => super::strays::title(stray),
            (None, None) => format!(" {} ", ctx.nouns.item),
        };
        let block = block(title, focused, theme);
        let key = match (&memory, stray) {
            (Some(_), _) => row.and_then(|i| ctx.shown.key_at(i)).map(str::to_owned),
            (None, stray) => stray.map(|s| s.stray.file.clone()),
        };
        if key != self.shown {
            self.view.scroll = 0;
            self.marked = None;
            self.shown = key;
        }
        let Some(memory) = memory else {
            let lines = match stray {
                Some(stray) => super::strays::lines(stray, theme),
                None => vec![Line::styled("(no memory selected)", theme.dim())],
            };
            self.view.render(frame, area, block, lines);
            return;
        };
        let mut found = findings_of(memory.findings.iter(), ctx.report, &memory.file);
        // a memory that does not read already says why on its error line
        if let Some(reason) = &memory.reason {
            found.retain(|f| &f.message != reason);
        }
        let head = head_lines(&memory, theme);
        // the rows above the text: the head, the findings, what is said after them, the rule
        let above = head.len() + found.len() + memory.after.len() + 1;
        let mut lines = head;
        lines.extend(finding_lines(&found, theme));
        lines.extend(memory.after.iter().map(|(text, tone)| {
            Line::styled(sanitize::line(text).into_owned(), theme.tone(*tone))
        }));
        if let Some(text) = &memory.text {
            lines.push(Line::styled("─".repeat(12), theme.dim()));
            lines.extend(text_lines(text, theme));
        }
        if let Some(line) = self.goto.take() {
            let row = row_of_line(&memory, line, above).min(lines.len().saturating_sub(1));
            let width = block.inner(area).width as usize;
            // Rows as drawn: the lines before it may wrap.
            self.view.scroll = crate::tui::text::wrap(lines[..row].to_vec(), width).len();
            self.marked = Some(row);
        }
        if let Some(line) = self.marked.and_then(|row| lines.get_mut(row)) {
            *line = std::mem::take(line).patch_style(theme.selected());
        }
        self.view.render(frame, area, block, lines);
    }

    fn handle_key(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::NextMatch | Action::PrevMatch => {
                self.view.jump_to(&self.search, action == Action::NextMatch);
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
}

/// The row that shows line `line` (1-based) of the memory's file, `above` the rows over its
/// text; the row of its description, if the line holds it; else the top.
fn row_of_line(memory: &MemoryView, line: usize, above: usize) -> usize {
    match (&memory.text, memory.description_at) {
        (Some(text), _) if line >= text.first_line => above + line - text.first_line,
        (_, Some((at, row))) if at == line => row,
        _ => 0,
    }
}

/// A memory's findings, worst first: the backend's own reading of the file (`own`, always
/// current) and the set's last check (the content audit's too), each finding once.
pub(crate) fn findings_of<'a>(
    own: impl Iterator<Item = &'a Finding>,
    report: Option<&'a SetReport>,
    file: &str,
) -> Vec<&'a Finding> {
    let mut found: Vec<&Finding> = own.collect();
    let checked = report
        .into_iter()
        .flat_map(|r| r.findings.iter())
        .filter(|c| c.accepted.is_none() && c.finding.file.as_deref() == Some(file))
        .map(|c| &c.finding);
    for finding in checked {
        if !found
            .iter()
            .any(|f| f.code == finding.code && f.message == finding.message)
        {
            found.push(finding);
        }
    }
    found.sort_by_key(|f| findings::rank(f.severity));
    found
}

/// One row per finding: its mark and code, then its message apart from the code (redacted:
/// a secret's message may quote the start of one; made inert).
pub(crate) fn finding_lines(found: &[&Finding], theme: &Theme) -> Vec<Line<'static>> {
    found
        .iter()
        .map(|f| {
            let style = findings::severity_style(f.severity, theme);
            Line::from(vec![
                Span::styled(format!("{} {}", findings::mark(f.severity), f.code), style),
                Span::raw("  "),
                Span::raw(sanitize::line(&redact(&f.message)).into_owned()),
            ])
        })
        .collect()
}

/// The narrowest a label column is (`description` and a space).
const LABEL_WIDTH: usize = 11;
/// The widest a label column grows for long field names.
const MAX_LABEL_WIDTH: usize = 24;

/// The lines above the findings: each field's label in one column (as wide as the widest,
/// nested ones indented by two per level), its value beside it, a value's further lines
/// below it.
fn head_lines(memory: &MemoryView, theme: &Theme) -> Vec<Line<'static>> {
    let width = memory
        .head
        .iter()
        .filter_map(|line| match line {
            HeadLine::Field { label, depth, .. } => Some(depth * 2 + label.chars().count()),
            HeadLine::Said(..) => None,
        })
        .max()
        .unwrap_or(0)
        .clamp(LABEL_WIDTH, MAX_LABEL_WIDTH);
    let mut lines = Vec::new();
    for line in &memory.head {
        match line {
            HeadLine::Said(text, tone) => lines.push(Line::styled(
                sanitize::line(text).into_owned(),
                theme.tone(*tone),
            )),
            HeadLine::Field {
                label,
                depth,
                value,
            } => {
                let label = format!(
                    "{:indent$}{}",
                    "",
                    sanitize::line(label),
                    indent = depth * 2
                );
                let label = Span::styled(format!("{label:<width$} "), theme.label());
                push_value(&mut lines, label, value, width, theme);
            }
        }
    }
    lines
}

/// A field's value beside its `label`: its segments in their looks; a one-part value of
/// several lines goes on below the label, indented to the values' column.
fn push_value(
    lines: &mut Vec<Line<'static>>,
    label: Span<'static>,
    value: &[Segment],
    width: usize,
    theme: &Theme,
) {
    let mut spans = vec![label];
    let mut more = Vec::new();
    for (i, segment) in value.iter().enumerate() {
        let style = match segment.look {
            Look::Plain => Style::default(),
            Look::Tone(tone) => theme.tone(tone),
            Look::Kind => theme.kind(&segment.text),
        };
        let mut parts = sanitize::lines(&segment.text).into_iter();
        spans.push(Span::styled(parts.next().unwrap_or_default(), style));
        if i == 0 && value.len() == 1 {
            more.extend(parts);
        }
    }
    lines.push(Line::from(spans));
    lines.extend(
        more.into_iter()
            .map(|text| Line::raw(format!("{:width$} {text}", ""))),
    );
}

/// The text below the rule: as written, or numbered with the line at fault marked.
fn text_lines(text: &MemoryText, theme: &Theme) -> Vec<Line<'static>> {
    let rows = sanitize::lines(&text.text);
    let Some(bad) = text.numbered else {
        return rows.into_iter().map(Line::from).collect();
    };
    let count = rows.len();
    let mut lines = Vec::new();
    for (i, row) in rows.into_iter().enumerate() {
        let number = i + text.first_line;
        if i + 1 == count && row.is_empty() {
            break;
        }
        let here = bad == Some(number);
        let style = if here { theme.error() } else { theme.dim() };
        let mut line = Line::from(vec![
            Span::styled(
                format!("{number:>3}{} ", if here { '▶' } else { '│' }),
                style,
            ),
            Span::raw(row),
        ]);
        if here {
            line = line.patch_style(theme.error());
        }
        lines.push(line);
    }
    lines
}
