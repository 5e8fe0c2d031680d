//! Layout and drawing: the four panes, the status line, the hints bar and the overlays.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::app::{App, Modal, StatusKind, View};
use super::keymap;
use super::panes::Pane;
use crate::sanitize;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Areas {
    pub manifest: Rect,
    pub record: Rect,
    pub index: Rect,
    pub query: Rect,
    pub status: Rect,
    pub hints: Rect,
    /// The Proposals or History view: the list, and the selected item's detail (or the editor).
    pub list: Rect,
    pub detail: Rect,
}

impl Areas {
    pub fn pane(&self, pane: Pane) -> Rect {
        match pane {
            Pane::Manifest => self.manifest,
            Pane::Record => self.record,
            Pane::Index => self.index,
            Pane::Query => self.query,
        }
    }
}

/// Where everything goes. A zoomed pane takes the whole body; the editor takes the whole right
/// column (it needs the room more than MEMORY.md does).
pub fn layout(area: Rect, focus: Pane, zoom: bool, editing: bool) -> Areas {
    let [body, status, hints] = Layout::vertical([
        Constraint::Min(4),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let mut areas = Areas {
        status,
        hints,
        ..Areas::default()
    };
    if zoom && !editing {
        match focus {
            Pane::Manifest => areas.manifest = body,
            Pane::Record => areas.record = body,
            Pane::Index => areas.index = body,
            Pane::Query => areas.query = body,
        }
        return areas;
    }
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)]).areas(body);
    let [manifest, query] =
        Layout::vertical([Constraint::Percentage(62), Constraint::Percentage(38)]).areas(left);
    areas.manifest = manifest;
    areas.query = query;
    if editing {
        areas.record = right;
    } else {
        let [record, index] =
            Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(right);
        areas.record = record;
        areas.index = index;
    }
    areas
}

/// The Proposals and History views: the list on top (at most a third of the body), the detail
/// of the selected item below, full width.
pub fn view_layout(area: Rect, rows: usize) -> Areas {
    let [body, status, hints] = Layout::vertical([
        Constraint::Min(4),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let most = (body.height / 3).max(4);
    let want = (rows as u16).saturating_add(2).clamp(4, most);
    let [list, detail] =
        Layout::vertical([Constraint::Length(want), Constraint::Min(3)]).areas(body);
    Areas {
        status,
        hints,
        list,
        detail,
        ..Areas::default()
    }
}

fn render_view(frame: &mut Frame, app: &mut App) {
    let rows = match app.view {
        View::Proposals => app.proposals.rows.len(),
        _ => app.history.entries.len(),
    };
    let areas = view_layout(frame.area(), rows);
    app.areas = areas;
    let theme = app.theme;
    let detail = if app.editor.is_some() {
        None
    } else {
        Some(areas.detail)
    };
    let review = app.review.clone();
    if app.view == View::Proposals {
        let current = crate::watch::valid_set(&app.inspection);
        let readable = app.inspection.is_readable();
        app.proposals.render(
            frame, areas.list, detail, &current, readable, &review, &theme,
        );
    } else {
        app.history
            .render(frame, areas.list, detail, &review, &theme);
    }
    if let Some(editor) = &mut app.editor {
        editor.render(frame, areas.detail, &theme);
    }
}

pub fn render(frame: &mut Frame, app: &mut App) {
    let repairing = app
        .editor
        .as_ref()
        .is_some_and(super::editor::Editor::is_raw);
    if app.view != View::Panes && !repairing {
        render_view(frame, app);
        render_overlays(frame, app);
        return;
    }
    let areas = layout(frame.area(), app.focus, app.zoom, app.editor.is_some());
    app.areas = areas;
    let theme = app.theme;
    let editing = app.editor.is_some();
    let focused = |pane: Pane| !editing && app.focus == pane;
    let inspection = app.inspection.clone();
    if areas.manifest.area() > 0 {
        let f = focused(Pane::Manifest);
        let budget = app.index.view.budget;
        app.manifest
            .render(frame, areas.manifest, &inspection, budget, &theme, f);
    }
    if areas.query.area() > 0 {
        let f = focused(Pane::Query);
        app.query.render(frame, areas.query, &theme, f);
    }
    if let Some(editor) = &mut app.editor {
        editor.render(frame, areas.record, &theme);
    } else if areas.record.area() > 0 {
        let entry = app.manifest.selected_entry(&inspection);
        let f = focused(Pane::Record);
        app.record.render(frame, areas.record, entry, &theme, f);
    }
    if areas.index.area() > 0 {
        let f = focused(Pane::Index);
        app.index.render(frame, areas.index, &theme, f);
    }
    render_overlays(frame, app);
}

fn render_overlays(frame: &mut Frame, app: &App) {
    render_status(frame, app, app.areas.status);
    render_hints(frame, app, app.areas.hints);
    match &app.modal {
        Some(Modal::Help { scroll }) => render_help(frame, *scroll, app),
        Some(Modal::Confirm(confirm)) => render_confirm(frame, &confirm.question(), app),
        Some(Modal::Reason { id, text }) => render_reason(frame, id, text, app),
        None => {}
    }
}

fn render_reason(frame: &mut Frame, id: &str, text: &str, app: &App) {
    let theme = &app.theme;
    let area = centered(frame.area(), 60, 5);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(format!(" Reject proposal {} ", sanitize::line(id)));
    let lines = vec![
        Line::raw("Why? (optional; Enter rejects, Esc cancels)"),
        Line::from(vec![
            Span::styled("reason> ", theme.key()),
            Span::raw(format!("{}▏", sanitize::line(text))),
        ]),
    ];
    popup(frame, area, block, lines, 0);
}

fn render_status(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let mut spans = Vec::new();
    if app.busy > 0 {
        spans.push(Span::styled("⏳ ", theme.warning()));
    }
    if let Some(status) = &app.status {
        let style = match status.kind {
            StatusKind::Info => theme.ok(),
            StatusKind::Change => theme.warning(),
            StatusKind::Error => theme.error(),
        };
        spans.push(Span::styled(
            sanitize::line(&status.text).into_owned(),
            style,
        ));
    } else {
        let path = app.inspection.workspace.display().to_string();
        spans.push(Span::styled(
            sanitize::line(&path).into_owned(),
            theme.dim(),
        ));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn render_hints(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let mut spans = Vec::new();
    for (key, hint) in keymap::hints(&app.scopes()) {
        spans.push(Span::styled(key, theme.key()));
        spans.push(Span::raw(format!(" {hint}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

fn render_help(frame: &mut Frame, scroll: usize, app: &App) {
    let theme = &app.theme;
    let area = centered(frame.area(), 76, frame.area().height.saturating_sub(2));
    let mut lines = Vec::new();
    for (title, rows) in keymap::help_sections() {
        lines.push(Line::styled(title, theme.label()));
        for (keys, help) in rows {
            lines.push(Line::from(vec![
                Span::styled(format!("  {keys:<18}"), theme.key()),
                Span::raw(help),
            ]));
        }
        lines.push(Line::raw(""));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" Keys (? or Esc closes) ");
    popup(frame, area, block, lines, scroll);
}

fn render_confirm(frame: &mut Frame, question: &str, app: &App) {
    let theme = &app.theme;
    let area = centered(frame.area(), 60, 5);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" Confirm ");
    let lines = vec![
        Line::raw(question.to_owned()),
        Line::from(vec![
            Span::styled("y", theme.key()),
            Span::raw(" yes   "),
            Span::styled("n", theme.key()),
            Span::raw(" no"),
        ]),
    ];
    popup(frame, area, block, lines, 0);
}

/// A framed text over whatever is below it (the help, a confirmation, the reason prompt).
fn popup(frame: &mut Frame, area: Rect, block: Block<'_>, lines: Vec<Line<'_>>, scroll: usize) {
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((scroll.min(u16::MAX as usize) as u16, 0)),
        area,
    );
}
