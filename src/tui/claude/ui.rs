//! Drawing the workbench on a Claude Code folder: a title naming the format and folder, the
//! four panes (topic files, the selected file's fields, MEMORY.md as Claude Code loads it, the
//! query), or the Sets view; then the status line and the hints.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::app::{ClaudeApp, KEYS, View};
use crate::claude::folder::IndexFile;
use crate::claude::frontmatter::{Frontmatter, display_value};
use crate::claude::index::{LineKind, Load};
use crate::sanitize;
use crate::store::Severity;
use crate::tui::layout::layout;
use crate::tui::panes::manifest::gauge;
use crate::tui::panes::{Pane, block, keep_in_view, labelled, labelled_lines};

pub fn render(frame: &mut Frame, app: &mut ClaudeApp) {
    let [title, rest] =
        Layout::vertical([Constraint::Length(1), Constraint::Min(6)]).areas(frame.area());
    let heading = format!(
        "memwb · Claude Code auto memory · {} · read-only",
        app.folder.root().display()
    );
    frame.render_widget(
        Paragraph::new(Line::styled(
            sanitize::line(&heading).into_owned(),
            app.theme.label(),
        )),
        title,
    );
    let areas = layout(rest, app.focus, false, false);
    if app.view == View::Sets {
        let body = areas
            .manifest
            .union(areas.record)
            .union(areas.index)
            .union(areas.query);
        render_sets(frame, body, app);
    } else {
        render_manifest(frame, areas.manifest, app);
        render_record(frame, areas.record, app);
        render_index(frame, areas.index, app);
        render_query(frame, areas.query, app);
    }
    let theme = app.theme;
    if let Some((error, text)) = &app.status {
        let style = if *error { theme.error() } else { theme.ok() };
        frame.render_widget(
            Paragraph::new(Line::styled(sanitize::line(text).into_owned(), style)),
            areas.status,
        );
    }
    let mut hints = Vec::new();
    for (key, what) in KEYS {
        hints.push(Span::styled(key, theme.key()));
        hints.push(Span::raw(format!(" {what}  ")));
    }
    frame.render_widget(Paragraph::new(Line::from(hints)), areas.hints);
}

/// Terminal columns of `text` (wide characters take two).
fn unicode_width(text: &str) -> usize {
    ratatui::text::Span::raw(text).width()
}

fn mark(app: &ClaudeApp, file: &str) -> (&'static str, Style) {
    match app.health(file) {
        Some(Severity::Error) => ("✗", app.theme.error()),
        Some(Severity::Warning) => ("⚠", app.theme.warning()),
        Some(Severity::Info) | None => ("✓", app.theme.ok()),
    }
}

fn render_manifest(frame: &mut Frame, area: Rect, app: &mut ClaudeApp) {
    let theme = app.theme;
    let outer = block(
        format!("Topic files ({})", app.order.len()),
        app.focus == Pane::Manifest,
        &theme,
    );
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let footer = footer(app);
    let list_height = (inner.height as usize).saturating_sub(footer.len());
    keep_in_view(&mut app.offset, app.selected, list_height, app.order.len());
    let width = inner.width as usize;
    let name_width = app
        .order
        .iter()
        .filter_map(|f| app.snapshot.topic(f))
        .map(|t| unicode_width(t.name()))
        .max()
        .unwrap_or(0)
        .min(28);
    let mut lines = Vec::new();
    for (i, file) in app
        .order
        .iter()
        .enumerate()
        .skip(app.offset)
        .take(list_height)
    {
        let Some(topic) = app.snapshot.topic(file) else {
            continue;
        };
        let (sign, style) = mark(app, file);
        let listed = if app.snapshot.is_listed(file) {
            ""
        } else {
            " (unlisted)"
        };
        let name = topic.name();
        let pad = " ".repeat(name_width.saturating_sub(unicode_width(name)));
        let text = format!(
            "{name}{pad} {:9} {}{listed}",
            topic.kind().unwrap_or("-"),
            topic.description().unwrap_or(&topic.file),
        );
        let text: String = sanitize::line(&text)
            .chars()
            .take(width.saturating_sub(2))
            .collect();
        let mut line = Line::from(vec![
            Span::styled(format!("{sign} "), style),
            Span::raw(text),
        ]);
        if i == app.selected {
            line = line.patch_style(theme.selected());
        }
        lines.push(line);
    }
    while lines.len() < list_height {
        lines.push(Line::raw(""));
    }
    lines.extend(footer);
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The gauges and the consolidation lock under the list.
fn footer(app: &ClaudeApp) -> Vec<Line<'static>> {
    let theme = app.theme;
    let mut lines = Vec::new();
    if let Some(lock) = &app.snapshot.consolidation {
        let text = if lock.live {
            format!("consolidation running (process {})", lock.pid)
        } else {
            "no consolidation running".to_owned()
        };
        lines.push(Line::styled(
            sanitize::line(&text).into_owned(),
            theme.dim(),
        ));
    }
    let limits = app.folder.limits();
    let (used_lines, used_size) = app
        .snapshot
        .parsed_index()
        .map_or((0, 0), |i| (i.counted_lines, i.counted_size));
    lines.push(Line::from(gauge(
        "index lines",
        used_lines,
        limits.lines,
        &theme,
    )));
    lines.push(Line::from(gauge(
        &format!("index {}", limits.unit.label()),
        used_size,
        limits.size,
        &theme,
    )));
    lines
}

fn render_record(frame: &mut Frame, area: Rect, app: &mut ClaudeApp) {
    let theme = app.theme;
    let focused = app.focus == Pane::Record;
    let Some(topic) = app.selected_topic().cloned() else {
        let outer = block("Record", focused, &theme);
        app.record.render(
            frame,
            area,
            outer,
            vec![Line::styled("no topic files", theme.dim())],
        );
        return;
    };
    let title = format!("Record: {}", sanitize::line(topic.name()));
    let width = match topic.frontmatter() {
        Some(Frontmatter::Fields(fields)) => label_width(fields, 0).max(11),
        _ => 11,
    };
    let mut lines = Vec::new();
    push_field(
        &mut lines,
        "file",
        0,
        &serde_json::Value::String(topic.file.clone()),
        width,
        &theme,
    );
    match topic.frontmatter() {
        None => lines.push(labelled("unreadable", "", theme.error(), &theme)),
        Some(Frontmatter::Missing) => {
            lines.push(labelled("frontmatter", "none", theme.warning(), &theme))
        }
        Some(Frontmatter::Invalid { line, message }) => lines.push(labelled(
            "frontmatter",
            &format!("invalid YAML at line {line}: {message}"),
            theme.error(),
            &theme,
        )),
        Some(Frontmatter::Fields(fields)) => {
            for (key, value) in fields {
                push_field(&mut lines, key, 0, value, width, &theme);
            }
        }
    }
    for finding in app.findings_for(&topic.file) {
        let style = match finding.severity {
            Severity::Error => theme.error(),
            Severity::Warning => theme.warning(),
            Severity::Info => theme.dim(),
        };
        lines.push(labelled(finding.code, &finding.message, style, &theme));
    }
    lines.push(Line::styled("────────────", theme.dim()));
    for body in sanitize::lines(topic.body()) {
        lines.push(Line::raw(body));
    }
    let outer = block(title, focused, &theme);
    app.record.render(frame, area, outer, lines);
}

/// The widest label of `fields` and the blocks nested in them (indented by two per level).
fn label_width(fields: &[(String, serde_json::Value)], depth: usize) -> usize {
    fields
        .iter()
        .map(|(key, value)| {
            let nested = match value {
                serde_json::Value::Object(map) => {
                    let inner: Vec<(String, serde_json::Value)> =
                        map.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                    label_width(&inner, depth + 1)
                }
                _ => 0,
            };
            (depth * 2 + key.chars().count()).max(nested)
        })
        .max()
        .unwrap_or(0)
        .min(24)
}

/// One frontmatter field, every one shown; a nested block (`metadata:`) indented below its key.
fn push_field(
    lines: &mut Vec<Line<'static>>,
    key: &str,
    depth: usize,
    value: &serde_json::Value,
    width: usize,
    theme: &crate::tui::theme::Theme,
) {
    let label = format!("{:indent$}{}", "", sanitize::line(key), indent = depth * 2);
    let label = format!("{label:<width$} ");
    match value {
        serde_json::Value::Object(map) => {
            lines.push(Line::styled(label, theme.label()));
            for (inner, value) in map {
                push_field(lines, inner, depth + 1, value, width, theme);
            }
        }
        other => {
            let mut values = sanitize::lines(&display_value(other)).into_iter();
            lines.push(Line::from(vec![
                Span::styled(label, theme.label()),
                Span::raw(values.next().unwrap_or_default()),
            ]));
            for more in values {
                lines.push(Line::raw(format!("{:w$} {more}", "", w = width)));
            }
        }
    }
}

fn render_index(frame: &mut Frame, area: Rect, app: &mut ClaudeApp) {
    let theme = app.theme;
    let focused = app.focus == Pane::Index;
    let (title, lines) = match &app.snapshot.index {
        IndexFile::Missing => (
            "MEMORY.md: missing".to_owned(),
            vec![Line::styled(
                "no MEMORY.md: Claude Code loads no index",
                theme.warning(),
            )],
        ),
        IndexFile::Unreadable(why) => (
            "MEMORY.md: unreadable".to_owned(),
            vec![Line::styled(
                sanitize::line(why).into_owned(),
                theme.error(),
            )],
        ),
        IndexFile::Read(index) => {
            let mut lines = Vec::new();
            let cut_at = index.cut_at();
            for (i, line) in index.lines.iter().enumerate() {
                if Some(i) == cut_at {
                    lines.push(Line::styled(
                        format!(
                            "── not loaded past here: {} entries ──",
                            index.dropped_entries().count()
                        ),
                        theme.error(),
                    ));
                }
                let (sign, style) = match (&line.kind, line.load) {
                    (_, Load::Stripped) => ("  ", theme.dim()),
                    (LineKind::Entry { file, .. }, _)
                        if file
                            .as_deref()
                            .and_then(|f| app.snapshot.topic(f))
                            .is_none() =>
                    {
                        ("✗ ", theme.error())
                    }
                    (LineKind::Text, _) => ("⚠ ", theme.warning()),
                    (_, Load::Dropped) => ("  ", theme.dim()),
                    _ => ("  ", Style::default()),
                };
                lines.push(Line::from(vec![
                    Span::styled(sign, style),
                    Span::styled(sanitize::line(&line.text).into_owned(), style),
                ]));
            }
            for file in &app.order {
                if !app.snapshot.is_listed(file) {
                    lines.push(Line::styled(
                        format!("+ unlisted: {}", sanitize::line(file)),
                        theme.warning(),
                    ));
                }
            }
            let loaded = index
                .lines
                .iter()
                .filter(|l| l.load == Load::Loaded)
                .count();
            let title = if index.cut_by.is_some() {
                format!("MEMORY.md: CUT, {loaded} lines loaded")
            } else {
                format!("MEMORY.md: all {loaded} lines load")
            };
            (title, lines)
        }
    };
    let outer = block(title, focused, &theme);
    app.index.render(frame, area, outer, lines);
}

fn render_query(frame: &mut Frame, area: Rect, app: &mut ClaudeApp) {
    let theme = app.theme;
    let focused = app.focus == Pane::Query;
    let cursor = if app.query.typing { "▏" } else { "" };
    let mut lines = vec![Line::from(vec![
        Span::styled("query> ", theme.label()),
        Span::raw(format!("{}{cursor}", sanitize::line(&app.query.input))),
    ])];
    match &app.query.result {
        None => lines.push(Line::styled(
            "press i to type a query; Enter runs it (keyword fallback over the topic files)",
            theme.dim(),
        )),
        Some((query, names, rendered)) => {
            let chosen = if names.is_empty() {
                "nothing selected".to_owned()
            } else {
                names.join(", ")
            };
            lines.extend(labelled_lines("selected", &chosen, theme.ok(), &theme));
            lines.extend(labelled_lines("for", query, Style::default(), &theme));
            for line in sanitize::lines(rendered) {
                lines.push(Line::raw(line));
            }
        }
    }
    let outer = block("Query", focused, &theme);
    app.query.detail.render(frame, area, outer, lines);
}

fn render_sets(frame: &mut Frame, area: Rect, app: &mut ClaudeApp) {
    let theme = app.theme;
    let outer = block(
        "Sets: every memory folder found (Enter opens, S or Esc returns)",
        true,
        &theme,
    );
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let Some(sets) = &app.sets else {
        frame.render_widget(
            Paragraph::new(Line::styled("looking for memory folders…", theme.dim())),
            inner,
        );
        return;
    };
    let height = inner.height as usize;
    keep_in_view(&mut app.sets_offset, app.sets_selected, height, sets.len());
    let current = app.folder.root().display().to_string();
    let mut lines = Vec::new();
    if sets.is_empty() {
        lines.push(Line::styled("no memory folders found", theme.dim()));
    }
    for (i, set) in sets.iter().enumerate().skip(app.sets_offset).take(height) {
        let here = if set.path == current { "▶" } else { " " };
        let project = set
            .project
            .as_ref()
            .map(|p| p.path.clone().unwrap_or_else(|| p.slug.clone()))
            .unwrap_or_default();
        let text = format!(
            "{here} {:6} {}  {} records, {} errors, {} warnings, index {}/{} {project}",
            set.format.as_str(),
            set.path,
            set.records,
            set.errors,
            set.warnings,
            set.index.lines,
            set.index.max_lines,
        );
        let style = if set.errors > 0 {
            theme.error()
        } else {
            Style::default()
        };
        let mut line = Line::styled(sanitize::line(&text).into_owned(), style);
        if i == app.sets_selected {
            line = line.patch_style(theme.selected());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
