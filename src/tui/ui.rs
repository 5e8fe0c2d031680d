//! Layout and drawing: the four panes, the status line, the hints bar and the overlays.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::app::{App, Confirm, Modal, StatusKind, View};
use super::keymap::{self, Action, Scope};
use super::layout::{centered, layout, view_layout};
use super::line_input::LineInput;
use super::panes::{Ctx, Pane};
use super::text;
use crate::sanitize;

fn render_view(frame: &mut Frame, app: &mut App, area: Rect) {
    let theme = app.theme;
    let shown = app.shown.clone();
    let review = app.review.clone();
    let editing = app.editor.is_some();
    let gauges = app.index.view.gauges.clone();
    let nouns = app.backend.backend().nouns();
    let keys = app.key_state();
    let Some(view) = app.view_mut() else {
        return;
    };
    let areas = view_layout(area, view.rows());
    let ctx = Ctx {
        shown: &shown,
        review: &review,
        theme: &theme,
        focused: true,
        selected_row: None,
        gauges: &gauges,
        search: "",
        editing,
        report: None,
        nouns,
        keys: &keys,
    };
    view.render(frame, areas.list.union(areas.detail), &ctx);
    app.areas = areas;
    if let Some(editor) = &mut app.editor {
        editor.render(frame, areas.detail, &theme);
    }
}

/// The first row names the format and the folder (both formats); the rest is the body, the
/// status line and the hints. A terminal under 8 rows keeps it for the body.
fn title_row(frame: &mut Frame, app: &App) -> Rect {
    let area = frame.area();
    if area.height < 8 {
        return area;
    }
    let heading = format!(
        "memwb · {} · {}",
        app.backend.format().describe(),
        app.backend.root().display()
    );
    frame.render_widget(
        Paragraph::new(Line::styled(
            sanitize::line(&heading).into_owned(),
            app.theme.label(),
        )),
        Rect { height: 1, ..area },
    );
    Rect {
        y: area.y + 1,
        height: area.height - 1,
        ..area
    }
}

pub fn render(frame: &mut Frame, app: &mut App) {
    let area = title_row(frame, app);
    let repairing = app
        .editor
        .as_ref()
        .is_some_and(super::editor::Editor::is_raw);
    if app.view != View::Panes && !repairing {
        render_view(frame, app, area);
        render_overlays(frame, app);
        return;
    }
    let editing = app.editor.is_some();
    let areas = layout(area, app.focus, app.zoom, editing);
    app.areas = areas;
    let theme = app.theme;
    let shown = app.shown.clone();
    let review = app.review.clone();
    let gauges = app.index.view.gauges.clone();
    let search = app.manifest.filter.text().to_owned();
    let report = app.findings.report.clone();
    let nouns = app.backend.backend().nouns();
    let keys = app.key_state();
    for pane in Pane::ALL {
        let area = areas.pane(pane);
        if area.area() == 0 || (editing && pane == Pane::Record) {
            continue;
        }
        let ctx = Ctx {
            shown: &shown,
            review: &review,
            theme: &theme,
            focused: !editing && app.focus == pane,
            selected_row: app.manifest.selected_row(),
            gauges: &gauges,
            search: &search,
            editing,
            report: report.as_deref(),
            nouns,
            keys: &keys,
        };
        app.pane_mut(pane).render(frame, area, &ctx);
    }
    if let Some(editor) = &mut app.editor {
        editor.check_set(&shown);
        editor.render(frame, areas.record, &theme);
    }
    render_overlays(frame, app);
}

fn render_overlays(frame: &mut Frame, app: &mut App) {
    if !app.prompt_on_screen {
        // a question drawn for the first time starts at its top
        app.confirm_view = Default::default();
    }
    app.prompt_on_screen = matches!(app.modal, Some(Modal::Confirm(_)));
    render_status(frame, app, app.areas.status);
    render_hints(frame, app, app.areas.hints);
    match &app.modal {
        Some(Modal::Help(_)) => render_help(frame, app),
        Some(Modal::Log(_)) => render_log(frame, app),
        Some(Modal::Confirm(Confirm::IndexFix(fix))) => {
            let fix = fix.clone();
            render_fix(frame, &fix, app)
        }
        Some(Modal::Confirm(confirm)) => {
            let question = confirm.question();
            render_confirm(frame, &question, app)
        }
        Some(Modal::Reason { ids }) => render_reason(frame, ids, app),
        Some(Modal::SaveCase { query, text }) => render_save_case(frame, query, text, app),
        None => {}
    }
}

fn render_save_case(frame: &mut Frame, query: &str, text: &LineInput, app: &App) {
    let help = format!(
        "names it must select, by spaces; !name must not ({} saves, {} cancels)",
        keymap::label(Scope::Input, Action::Submit),
        keymap::label(Scope::Input, Action::Cancel)
    );
    let query = Line::from(vec![
        Span::styled("query   ", app.theme.label()),
        Span::raw(sanitize::line(query).into_owned()),
    ]);
    input_popup(
        frame,
        app,
        (" Save eval case ".into(), 70),
        vec![query, Line::raw(help)],
        ("expect> ", text),
    );
}

fn render_reason(frame: &mut Frame, ids: &[String], app: &App) {
    let help = format!(
        "Why? (optional; {} rejects, {} cancels)",
        keymap::label(Scope::Input, Action::Submit),
        keymap::label(Scope::Input, Action::Cancel)
    );
    let title = match ids {
        [id] => format!(" Reject proposal {} ", sanitize::line(id)),
        _ => format!(" Reject {} proposals ", ids.len()),
    };
    input_popup(
        frame,
        app,
        (title, 60),
        vec![Line::raw(help)],
        ("reason> ", &app.reason),
    );
}

/// A popup of `width` columns: the `lines` above, then a one-line input `prompt` holding `text`.
fn input_popup(
    frame: &mut Frame,
    app: &App,
    (title, width): (String, u16),
    mut lines: Vec<Line<'static>>,
    (prompt, text): (&'static str, &LineInput),
) {
    let theme = &app.theme;
    let mut input = vec![Span::styled(prompt, theme.key())];
    input.extend(text.spans(true));
    lines.push(Line::from(input));
    let area = centered(frame.area(), width, lines.len() as u16 + 3);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title);
    popup(frame, area, block, lines);
}

fn render_status(frame: &mut Frame, app: &App, area: Rect) {
    let theme = &app.theme;
    let mut spans = Vec::new();
    if app.busy > 0 {
        spans.push(Span::styled("⏳ ", theme.warning()));
    }
    if let Some(status) = &app.status {
        let style = status_style(status.kind, theme);
        let room = (area.width as usize).saturating_sub(Line::from(spans.clone()).width());
        spans.push(Span::styled(
            text::truncate(&sanitize::line(&status.text), room),
            style,
        ));
    } else {
        let path = app.shown.workspace().display().to_string();
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
    let mut used = 0;
    // most specific first; a hint that does not fit whole is left out, not cut; only what
    // can run now is named
    for (key, hint) in keymap::hints(&app.scopes(), &app.key_state()) {
        let words = format!(" {hint}  ");
        let wide = text::width(&key) + text::width(words.trim_end());
        if used + wide > area.width as usize {
            break;
        }
        used += text::width(&key) + text::width(&words);
        spans.push(Span::styled(key, theme.key()));
        spans.push(Span::raw(words));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn render_help(frame: &mut Frame, app: &mut App) {
    let theme = app.theme;
    let mut lines = Vec::new();
    let here = app.scopes_below_modals();
    let nouns = app.backend.backend().nouns();
    for (scope, rows) in keymap::help_sections_for(&here, &app.key_state()) {
        let title = if here.contains(&scope) {
            format!("{} (here)", scope.title_in(nouns))
        } else {
            scope.title_in(nouns)
        };
        lines.push(Line::styled(title, theme.label()));
        for row in rows {
            // An unavailable command stays listed, marked, with why: the help lists every
            // command of where you are, the hints bar only those that run now.
            let (mark, style) = match &row.unavailable {
                Some(_) => ("✗ ", theme.dim()),
                None => ("  ", ratatui::style::Style::default()),
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{mark}{:<18}", row.keys), theme.key()),
                Span::styled(row.help, style),
            ]));
            if let Some(why) = row.unavailable {
                lines.push(Line::styled(
                    format!("{:20}not available now: {why}", ""),
                    theme.dim(),
                ));
            }
        }
        lines.push(Line::raw(""));
    }
    lines.push(Line::styled("Marks", theme.label()));
    for (mark, meaning) in legend() {
        lines.push(Line::from(vec![
            Span::styled(format!("  {mark:<18}"), theme.key()),
            Span::raw(meaning),
        ]));
    }
    let title = format!(" Keys ({} closes) ", help_close_keys());
    render_text_overlay(frame, app, title, lines);
}

/// What the glyphs of the lists, the titles and MEMORY.md mean (the end of `?`; the same
/// words as docs/workbench.md, "What the marks mean").
fn legend() -> Vec<(String, String)> {
    let findings = keymap::label(Scope::Global, Action::ShowFindings);
    [
        ("✓", "reads and is listed; an eval case passes".to_owned()),
        ("✗", "does not read, or an error finding; a dangling MEMORY.md entry; a failing eval case; in this help: a command not available now".to_owned()),
        ("⚠", "a warning (unlisted, a finding); a MEMORY.md line that is not an entry".to_owned()),
        ("✂", "a Claude Code topic file past MEMORY.md's load cut: Claude Code does not load it".to_owned()),
        ("·", "a note (the finding column); a dimmed MEMORY.md line is not loaded".to_owned()),
        ("!", "an eval case whose expected memory left the set (broken)".to_owned()),
        ("- +", "MEMORY.md: only on disk, only in the index the set derives".to_owned()),
        ("*", "a marked proposal (Space marks)".to_owned()),
        (findings.as_str(), format!("in a title (✗2 ⚠3 {findings}): memories with errors, warnings; {findings} lists them")),
    ]
    .into_iter()
    .map(|(mark, meaning)| (mark.to_owned(), meaning))
    .collect()
}

fn render_log(frame: &mut Frame, app: &mut App) {
    let theme = app.theme;
    let lines: Vec<Line<'static>> = if app.log.is_empty() {
        vec![Line::styled("(no messages yet)", theme.dim())]
    } else {
        app.log
            .iter()
            .rev()
            .map(|status| {
                Line::styled(
                    sanitize::line(&status.text).into_owned(),
                    status_style(status.kind, &theme),
                )
            })
            .collect()
    };
    let title = format!(" Messages, newest first ({} closes) ", help_close_keys());
    render_text_overlay(frame, app, title, lines);
}

/// The help or the message log: a framed, scrollable text over the screen.
fn render_text_overlay(frame: &mut Frame, app: &mut App, title: String, lines: Vec<Line<'static>>) {
    let theme = app.theme;
    let area = centered(frame.area(), 76, frame.area().height.saturating_sub(2));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(title);
    if let Some(Modal::Help(view) | Modal::Log(view)) = &mut app.modal {
        clear(frame, area);
        view.render(frame, area, block, lines);
    }
}

fn status_style(kind: StatusKind, theme: &super::theme::Theme) -> ratatui::style::Style {
    match kind {
        StatusKind::Info => theme.ok(),
        StatusKind::Change => theme.warning(),
        StatusKind::Error => theme.error(),
    }
}

fn render_confirm(frame: &mut Frame, question: &str, app: &mut App) {
    let theme = app.theme;
    let wrapped = super::text::wrap(vec![Line::raw(question.to_owned())], 58).len() as u16;
    let area = centered(frame.area(), 60, wrapped + 3);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" Confirm ");
    let lines = vec![
        Line::raw(question.to_owned()),
        Line::from(vec![
            Span::styled(keymap::label(Scope::Confirm, Action::Yes), theme.key()),
            Span::raw(" yes   "),
            Span::styled(keymap::label(Scope::Confirm, Action::No), theme.key()),
            Span::raw(" no"),
        ]),
    ];
    clear(frame, area);
    app.confirm_view.render(frame, area, block, lines);
}

/// `R`: the planned fix of MEMORY.md as a diff, then yes or no.
fn render_fix(frame: &mut Frame, fix: &crate::formats::IndexPlan, app: &mut App) {
    let theme = app.theme;
    let area = centered(frame.area(), 100, frame.area().height.saturating_sub(2));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" Fix MEMORY.md ");
    let mut lines = vec![
        Line::raw(Confirm::IndexFix(Box::new(fix.clone())).question()),
        Line::from(vec![
            Span::styled(keymap::label(Scope::Confirm, Action::Yes), theme.key()),
            Span::raw(" yes   "),
            Span::styled(keymap::label(Scope::Confirm, Action::No), theme.key()),
            Span::raw(" no"),
            Span::styled(
                format!(
                    "   {}/{} scroll",
                    keymap::label(Scope::Confirm, Action::Down),
                    keymap::label(Scope::Confirm, Action::PageDown)
                ),
                theme.dim(),
            ),
        ]),
    ];
    for (marker, text) in super::app::fix_lines(fix) {
        let style = match marker {
            '-' => theme.removed(),
            '+' => theme.added(),
            '!' => theme.warning(),
            _ => ratatui::style::Style::default(),
        };
        lines.push(Line::styled(
            format!("{marker} {}", sanitize::line(&text)),
            style,
        ));
    }
    clear(frame, area);
    app.confirm_view.render(frame, area, block, lines);
}

/// "? or Esc": the first two keys that close the help.
fn help_close_keys() -> String {
    keymap::BINDINGS
        .iter()
        .find(|b| b.scope == Scope::Help && b.action == Action::Cancel)
        .map(|b| {
            let keys: Vec<String> = b.keys.iter().take(2).map(keymap::Key::label).collect();
            keys.join(" or ")
        })
        .unwrap_or_default()
}

/// A framed text over whatever is below it (a confirmation, the reason prompt).
fn popup(frame: &mut Frame, area: Rect, block: Block<'_>, lines: Vec<Line<'static>>) {
    clear(frame, area);
    let lines = super::text::wrap(lines, block.inner(area).width as usize);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// Clears `area` for an overlay, and the wide characters below that straddle its edges: one
/// starting just left of it would cover its left border on a real terminal.
fn clear(frame: &mut Frame, area: Rect) {
    frame.render_widget(Clear, area);
    let buffer = frame.buffer_mut();
    let bounds = buffer.area;
    for y in area.top()..area.bottom().min(bounds.bottom()) {
        if area.x > bounds.x {
            let cell = &mut buffer[(area.x - 1, y)];
            if text::width(cell.symbol()) > 1 {
                cell.set_symbol(" ");
            }
        }
    }
}
