//! Record pane: the selected record's fields, file, size against the budgets and its body,
//! wrapped and scrollable; for an invalid file the raw text with the error and its line.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::{Component, Ctx, Detail, block, findings, labelled, state_marker, state_reason};
use crate::content::report::SetReport;
use crate::finding::Finding;
use crate::redact::redact;
use crate::sanitize;
use crate::store::inspect::{EntryState, ManifestEntry};
use crate::store::record::{MAX_RECORD_BYTES, MAX_RECORD_LINES, count_lines};
use crate::tui::keymap::{Action, Scope};
use crate::tui::theme::Theme;

#[derive(Debug, Default)]
pub struct RecordPane {
    pub view: Detail,
    /// What `n`/`N` look for: the Manifest's filter at the last render.
    search: String,
    /// The entry last shown: another one starts at the top, whatever changed the selection.
    shown: Option<String>,
    /// The file outside the set the Manifest's selection is on (set by the app).
    pub stray: Option<super::strays::StrayView>,
    /// The strays whose bytes were asked for and have not arrived yet.
    pub stray_reads: Vec<String>,
    /// A line of the record's file to scroll to and mark at the next render (a jump from
    /// the Findings view).
    pub goto: Option<usize>,
    /// The row marked by the last jump, while the same entry is shown.
    marked: Option<usize>,
}

impl RecordPane {
    /// Shows the item `key`: another one than last time starts at the top.
    pub fn follow(&mut self, key: &str) {
        if self.shown.as_deref() != Some(key) {
            self.view.scroll = 0;
            self.shown = Some(key.to_owned());
        }
    }
}

impl Component for RecordPane {
    fn scope(&self) -> Scope {
        Scope::Record
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        ctx.search.clone_into(&mut self.search);
        if let Some(view) = ctx.shown.topics() {
            return super::claude::render_record(self, frame, area, ctx, view, ctx.selected_topic);
        }
        let (entry, theme, focused) = (ctx.selected, ctx.theme, ctx.focused);
        let stray = self.stray.as_ref().filter(|_| entry.is_none());
        let title = match (entry, stray) {
            (Some(e), _) => format!(
                " {}: {} ",
                ctx.nouns.item,
                sanitize::line(super::manifest::entry_key(e))
            ),
            (None, Some(stray)) => super::strays::title(stray),
            (None, None) => format!(" {} ", ctx.nouns.item),
        };
        let block = block(title, focused, theme);
        let key = entry
            .map(|e| super::manifest::entry_key(e).to_owned())
            .or_else(|| stray.map(|s| s.file.clone()));
        if key != self.shown {
            self.view.scroll = 0;
            self.marked = None;
            self.shown = key;
        }
        let mut found = entry
            .map(|e| findings_of(std::iter::empty(), ctx.report, &e.file))
            .unwrap_or_default();
        // an entry that does not read already says why on its error line
        if let Some(e) = entry.filter(|e| e.record().is_none()) {
            let reason = state_reason(e);
            found.retain(|f| f.message != reason);
        }
        let mut lines = match (entry, stray) {
            (Some(entry), _) => content(entry, &finding_lines(&found, theme), theme),
            (None, Some(stray)) => super::strays::lines(stray, theme),
            (None, None) => vec![Line::styled("(no memory selected)", theme.dim())],
        };
        if let (Some(line), Some(entry)) = (self.goto.take(), entry) {
            let row = row_of_line(entry, line, found.len()).min(lines.len().saturating_sub(1));
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

/// The row of [`content`] that shows line `line` (1-based) of the entry's file, below its
/// `findings` rows.
fn row_of_line(entry: &ManifestEntry, line: usize, findings: usize) -> usize {
    match &entry.state {
        EntryState::Valid(record) => {
            let body = record.body_line();
            if line >= body {
                VALID_HEADER_ROWS + findings + line - body
            } else if line == DESCRIPTION_LINE {
                2
            } else {
                0
            }
        }
        EntryState::Invalid { .. } => INVALID_HEADER_ROWS + findings + line.saturating_sub(1),
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

/// The rows above a valid record's body (and its findings): name, type, description, file,
/// size, the rule.
const VALID_HEADER_ROWS: usize = 6;
/// The rows above an invalid file's text (and its findings): the state, file, error, size,
/// the rule.
const INVALID_HEADER_ROWS: usize = 5;
/// The codec writes a record's description on line 3 of its file.
const DESCRIPTION_LINE: usize = 3;

fn field(label: &str, value: &str, theme: &Theme) -> Line<'static> {
    labelled(label, value, Style::default(), theme)
}

fn size_line(text: &str, theme: &Theme) -> Line<'static> {
    let (bytes, lines) = (text.len(), count_lines(text));
    let style = |over: bool| {
        if over {
            theme.error()
        } else {
            Style::default()
        }
    };
    Line::from(vec![
        Span::styled(format!("{:<12}", "size"), theme.label()),
        Span::styled(
            format!("{bytes}/{MAX_RECORD_BYTES} bytes"),
            style(bytes > MAX_RECORD_BYTES),
        ),
        Span::raw(" · "),
        Span::styled(
            format!("{lines}/{MAX_RECORD_LINES} lines"),
            style(lines > MAX_RECORD_LINES),
        ),
    ])
}

fn content(entry: &ManifestEntry, findings: &[Line<'static>], theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    match &entry.state {
        EntryState::Valid(record) => {
            lines.push(field("name", record.name(), theme));
            lines.push(Line::from(vec![
                Span::styled(format!("{:<12}", "type"), theme.label()),
                Span::styled(
                    record.kind().as_str().to_owned(),
                    theme.kind(record.kind().as_str()),
                ),
            ]));
            // Credentials are drawn redacted, as the audit reports them.
            lines.push(field("description", &redact(record.description()), theme));
            lines.push(field("file", &entry.file, theme));
            lines.push(size_line(&record.to_file_text(), theme));
            lines.extend_from_slice(findings);
            lines.push(Line::styled("─".repeat(12), theme.dim()));
            lines.extend(
                sanitize::lines(&redact(record.body()))
                    .into_iter()
                    .map(Line::from),
            );
        }
        EntryState::Invalid { error, raw } => {
            let (marker, word) = state_marker(&entry.state);
            lines.push(Line::styled(format!("{marker} {word}"), theme.error()));
            lines.push(field("file", &entry.file, theme));
            lines.push(Line::from(vec![
                Span::styled(format!("{:<12}", "error"), theme.label()),
                Span::styled(
                    sanitize::line(&state_reason(entry)).into_owned(),
                    theme.error(),
                ),
            ]));
            lines.push(size_line(raw, theme));
            lines.extend_from_slice(findings);
            lines.push(Line::styled("─".repeat(12), theme.dim()));
            let bad = error.line();
            let raw_lines = sanitize::lines(&redact(raw));
            let count = raw_lines.len();
            for (i, text) in raw_lines.into_iter().enumerate() {
                let number = i + 1;
                if number == count && text.is_empty() {
                    break;
                }
                let here = bad == Some(number);
                let style = if here { theme.error() } else { theme.dim() };
                let mut line = Line::from(vec![
                    Span::styled(
                        format!("{number:>3}{} ", if here { '▶' } else { '│' }),
                        style,
                    ),
                    Span::raw(text),
                ]);
                if here {
                    line = line.patch_style(theme.error());
                }
                lines.push(line);
            }
        }
        _ => {
            let (marker, word) = state_marker(&entry.state);
            lines.push(Line::styled(format!("{marker} {word}"), theme.error()));
            lines.push(field("file", &entry.file, theme));
            lines.push(Line::from(vec![
                Span::styled(format!("{:<12}", "problem"), theme.label()),
                Span::styled(
                    sanitize::line(&state_reason(entry)).into_owned(),
                    theme.error(),
                ),
            ]));
        }
    }
    lines
}
