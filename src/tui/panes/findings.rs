//! Findings view (`F`): what `check` finds in the open set, the folder's own findings and the
//! content audit alike, grouped by severity and then code; the selected finding in detail.
//! Enter jumps to its record and line, `f` files its fix. Built on [`SetReport`], which both
//! memory formats produce, so it does not depend on the format of the set.
//!
//! Messages are the audit's own: a credential appears only as its first characters and `…`.
//! The view never draws a record's text.

use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::list_filter::ListFilter;
use super::{Component, Ctx, Detail, ListRows, block, labelled, labelled_lines, scroll};
use crate::content::AuditContext;
use crate::content::fix::Fix;
use crate::content::report::{Checked, SetReport, check_folder};
use crate::finding::Severity;
use crate::formats::Open as Backend;
use crate::sanitize;
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::theme::Theme;

/// The whole check of the workbench's folder, as `memwb check` runs it without a model, for
/// any format (the project is the one the folder names). Runs off the UI thread (the event
/// loop's blocking pool).
pub fn audit(backend: &Backend) -> SetReport {
    check_folder(&*backend.backend(), &AuditContext::new(None), false)
}

/// Most severe first.
pub fn rank(severity: Severity) -> u8 {
    match severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

/// The one-character mark of a severity, in the Findings view and the Manifest pane.
pub fn mark(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "✗",
        Severity::Warning => "⚠",
        Severity::Info => "·",
    }
}

pub fn severity_style(severity: Severity, theme: &Theme) -> Style {
    match severity {
        Severity::Error => theme.error(),
        Severity::Warning => theme.warning(),
        Severity::Info => theme.dim(),
    }
}

/// A row of the list: a group's heading, or one finding (an index into the report).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Row {
    Group {
        severity: Severity,
        code: &'static str,
        count: usize,
    },
    Finding(usize),
}

#[derive(Debug, Default)]
pub struct FindingsPane {
    /// The latest check of the set; `None` until the first one has finished.
    pub report: Option<Arc<SetReport>>,
    rows: Vec<Row>,
    /// Position in `rows`; always a finding when there is one.
    selected: usize,
    offset: usize,
    height: usize,
    drawn: ListRows,
    pub detail: Detail,
    /// A check is wanted (the set changed since the last one started).
    pub due: bool,
    /// A check is running.
    pub running: bool,
    /// The `/` filter: by severity, code, record, file or message.
    pub filter: ListFilter,
}

type Kept = (&'static str, Option<String>, Option<String>, Option<usize>);

/// What the `/` filter looks at in a finding: its severity, code, record, file and message.
fn filter_text(c: &Checked) -> String {
    let f = &c.finding;
    format!(
        "{} {} {} {} {}",
        f.severity.as_str(),
        f.code,
        c.name.as_deref().unwrap_or(""),
        f.file.as_deref().unwrap_or(""),
        f.message
    )
}

/// What identifies a finding across checks, to keep the selection on it.
fn identity(c: &Checked) -> (&'static str, Option<&str>, Option<&str>, Option<usize>) {
    (
        c.finding.code,
        c.name.as_deref(),
        c.finding.file.as_deref(),
        c.finding.line,
    )
}

impl FindingsPane {
    pub fn new() -> Self {
        Self {
            due: true,
            ..Self::default()
        }
    }

    /// Shows `report`, keeping the selection on the same finding when it is still there.
    pub fn refresh(&mut self, report: Arc<SetReport>) {
        let keep = self.kept();
        self.report = Some(report);
        self.relist(keep);
    }

    /// What identifies the selected finding, to find it again after the list changes.
    fn kept(&self) -> Option<Kept> {
        self.selected_finding().map(|c| {
            let (code, name, file, line) = identity(c);
            (code, name.map(str::to_owned), file.map(str::to_owned), line)
        })
    }

    /// The rows of the findings that pass the filter, grouped; the selection on `keep`.
    fn relist(&mut self, keep: Option<Kept>) {
        let Some(report) = self.report.clone() else {
            return;
        };
        let mut order: Vec<usize> = (0..report.findings.len())
            .filter(|&i| self.filter.matches(&filter_text(&report.findings[i])))
            .collect();
        order.sort_by_key(|&i| {
            let f = &report.findings[i].finding;
            (rank(f.severity), f.code, f.file.clone(), f.line)
        });
        self.rows.clear();
        for (n, &i) in order.iter().enumerate() {
            let f = &report.findings[i].finding;
            let first = n == 0 || {
                let before = &report.findings[order[n - 1]].finding;
                (before.severity, before.code) != (f.severity, f.code)
            };
            if first {
                let count = order[n..]
                    .iter()
                    .take_while(|&&j| {
                        let g = &report.findings[j].finding;
                        (g.severity, g.code) == (f.severity, f.code)
                    })
                    .count();
                self.rows.push(Row::Group {
                    severity: f.severity,
                    code: f.code,
                    count,
                });
            }
            self.rows.push(Row::Finding(i));
        }
        let found = keep.and_then(|(code, name, file, line)| {
            self.rows.iter().position(|row| {
                matches!(row, Row::Finding(i)
                    if identity(&report.findings[*i]) == (code, name.as_deref(), file.as_deref(), line))
            })
        });
        match found {
            Some(pos) => self.selected = pos,
            None => {
                self.selected = self.selected.min(self.rows.len().saturating_sub(1));
                self.detail.scroll = 0;
            }
        }
        self.skip_group(true);
    }

    pub fn selected_finding(&self) -> Option<&Checked> {
        match (self.rows.get(self.selected), &self.report) {
            (Some(Row::Finding(i)), Some(report)) => report.findings.get(*i),
            _ => None,
        }
    }

    /// Moves the selection off a group heading: down to its first finding, or (going up)
    /// to the last finding of the group before.
    fn skip_group(&mut self, down: bool) {
        if !matches!(self.rows.get(self.selected), Some(Row::Group { .. })) {
            return;
        }
        if down || self.selected == 0 {
            self.selected = (self.selected + 1).min(self.rows.len().saturating_sub(1));
        } else {
            self.selected -= 1;
        }
    }

    fn move_selection(&mut self, action: Action) {
        let before = self.selected;
        scroll(&mut self.selected, action, self.height, self.rows.len());
        self.skip_group(self.selected >= before);
        if before != self.selected {
            self.detail.scroll = 0;
        }
    }

    fn title(&self) -> String {
        match &self.report {
            None => " Findings (checking the set…) ".into(),
            Some(report) => {
                let counts = [Severity::Error, Severity::Warning, Severity::Info]
                    .map(|s| format!("{} {}", mark(s), report.count(s)))
                    .join("  ");
                let running = if self.running {
                    ", checking again…"
                } else {
                    ""
                };
                format!(" Findings: {counts}{running} ")
            }
        }
    }

    fn row_line(&self, i: usize, theme: &Theme) -> Line<'static> {
        let Some(report) = &self.report else {
            return Line::raw("");
        };
        match self.rows[i] {
            Row::Group {
                severity,
                code,
                count,
            } => Line::styled(
                format!("{} {} {code} ({count})", mark(severity), severity.as_str()),
                severity_style(severity, theme).patch(theme.label()),
            ),
            Row::Finding(i) => {
                let checked = &report.findings[i];
                let f = &checked.finding;
                let place = place(checked);
                Line::from(vec![
                    Span::styled(
                        format!("    {} ", mark(f.severity)),
                        severity_style(f.severity, theme),
                    ),
                    Span::styled(format!("{place}  "), theme.key()),
                    Span::raw(sanitize::line(&f.message).into_owned()),
                ])
            }
        }
    }
}

/// The finding of the same group that carries the fix `checked` lacks: the dedupe of a group
/// that holds its record, or another credential's redaction of the same record. The audit
/// files a group's fix once, on one of its findings; `f` on any of them files it.
pub fn twin_with_fix<'a>(report: &'a SetReport, checked: &Checked) -> Option<&'a Checked> {
    if checked.fix.is_some() {
        return None;
    }
    let name = checked.name.as_deref();
    let file = checked.finding.file.as_deref();
    report.findings.iter().find(|other| match &other.fix {
        Some(Fix::Dedupe { names }) => name.is_some_and(|n| names.iter().any(|m| m == n)),
        Some(Fix::Redact) => {
            other.finding.code == checked.finding.code
                && ((name.is_some() && other.name.as_deref() == name)
                    || (file.is_some() && other.finding.file.as_deref() == file))
        }
        _ => false,
    })
}

/// `name:line`, else `file:line`, else the file or nothing.
fn place(checked: &Checked) -> String {
    let f = &checked.finding;
    let what = checked.name.as_deref().or(f.file.as_deref()).unwrap_or("");
    let place = match f.line {
        Some(line) => format!("{what}:{line}"),
        None => what.to_owned(),
    };
    sanitize::line(&place).into_owned()
}

/// The selected finding's detail; `jump_refused` is why its memory cannot be shown (it is
/// about the folder), so the detail names `Enter` only where it runs.
fn detail_lines(
    checked: &Checked,
    report: &SetReport,
    jump_refused: Option<String>,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let f = &checked.finding;
    let style = severity_style(f.severity, theme);
    let mut lines = vec![labelled(
        "finding",
        &format!("{} {}", f.severity.as_str(), f.code),
        style,
        theme,
    )];
    if let Some(name) = &checked.name {
        lines.push(labelled("memory", name, Style::default(), theme));
    }
    if let Some(file) = &f.file {
        let at = match f.line {
            Some(line) => format!("{file}, line {line}"),
            None => file.clone(),
        };
        lines.push(labelled("file", &at, Style::default(), theme));
    }
    lines.extend(labelled_lines(
        "message",
        &f.message,
        Style::default(),
        theme,
    ));
    if let Some(cut) = &checked.finding.cut {
        lines.push(labelled(
            "past the cut",
            &cut.join(", "),
            theme.dim(),
            theme,
        ));
    }
    let twin = twin_with_fix(report, checked);
    let fix = match checked.fix.as_ref().or(twin.and_then(|t| t.fix.as_ref())) {
        Some(fix) if twin.is_some() => format!(
            "{} (the group's, filed from {}): {} files it (a proposal; nothing is applied until approved)",
            fix.describe(),
            twin.map(place).unwrap_or_default(),
            keymap::label(Scope::Findings, Action::FileFix)
        ),
        Some(fix) => format!(
            "{}: {} files it (a proposal; nothing is applied until approved)",
            fix.describe(),
            keymap::label(Scope::Findings, Action::FileFix)
        ),
        None => "none: a person decides".into(),
    };
    lines.push(labelled("fix", &fix, Style::default(), theme));
    let jump = match jump_refused {
        Some(why) => format!("none: {why}"),
        None => format!(
            "{} shows the memory in the four panes",
            keymap::label(Scope::Findings, Action::JumpTo)
        ),
    };
    lines.push(labelled("jump", &jump, theme.dim(), theme));
    for note in &report.notes {
        lines.push(labelled("note", note, theme.dim(), theme));
    }
    lines
}

impl Component for FindingsPane {
    fn scope(&self) -> Scope {
        Scope::Findings
    }

    fn handle_key(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::PageDown | Action::PageUp => {
                self.detail.page(action);
            }
            Action::Filter => self.filter.typing = true,
            movement if movement.is_movement() => self.move_selection(movement),
            other => return Some(other),
        }
        None
    }

    fn scroll(&mut self, down: bool) {
        self.move_selection(if down { Action::Down } else { Action::Up });
    }

    fn click(&mut self, at: Position) -> bool {
        match self.drawn.hit(at, self.offset, self.rows.len()) {
            Some(i) if matches!(self.rows[i], Row::Finding(_)) => {
                if i != self.selected {
                    self.detail.scroll = 0;
                }
                self.selected = i;
                true
            }
            _ => false,
        }
    }

    fn rows(&self) -> usize {
        self.rows.len()
    }

    fn typing(&self) -> bool {
        self.filter.typing
    }

    fn filter_key(&mut self, action: Option<Action>, key: crossterm::event::KeyEvent) {
        self.filter.key(action, key);
        let keep = self.kept();
        self.relist(keep);
    }

    fn filter_paste(&mut self, text: &str) {
        self.filter.input.insert(text);
        let keep = self.kept();
        self.relist(keep);
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        let theme = ctx.theme;
        let [list, detail] = crate::tui::layout::split_view(area, self.rows.len());
        let outer = block(self.filter.title(self.title(), theme), true, theme);
        let empty = if self.filter.is_active() && self.report.is_some() {
            "(no finding matches the filter)"
        } else if self.report.is_some() {
            "nothing found: the folder is well-formed and the audit is clean"
        } else {
            "checking the set (the folder, memwb's state and the content audit)…"
        };
        let len = self.rows.len();
        let mut offset = self.offset;
        let mut drawn = self.drawn;
        self.height = super::render_list(
            frame,
            list,
            outer,
            None,
            empty,
            (len, self.selected, &mut offset),
            &mut drawn,
            theme,
            |i| self.row_line(i, theme),
        );
        self.offset = offset;
        self.drawn = drawn;
        if ctx.editing {
            return;
        }
        let outer = block(" Finding ", false, theme);
        let lines = match (self.selected_finding(), &self.report) {
            (Some(checked), Some(report)) => {
                let jump_refused = ctx.keys.why_not(Scope::Findings, Action::JumpTo);
                detail_lines(checked, report, jump_refused, theme)
            }
            _ => vec![Line::styled("(no finding selected)", theme.dim())],
        };
        self.detail.render(frame, detail, outer, lines);
    }
}
