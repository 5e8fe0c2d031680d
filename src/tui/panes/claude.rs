//! What the Manifest, Record and MEMORY.md panes draw on a Claude Code folder. The panes are
//! the same components (selection, filter, scrolling, clicks); only what a row or a line says
//! differs: topic files with their health, every frontmatter field, and the index as Claude
//! Code loads it with the line where loading stops.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::manifest::{ManifestPane, finding_counts, gauge, kind_cell, row_columns};
use super::record::{RecordPane, finding_lines, findings_of};
use super::{Ctx, block, labelled};
use crate::claude::frontmatter::{Frontmatter, display_value};
use crate::finding::Severity;
use crate::formats::Gauge;
use crate::formats::claude::ClaudeView;
use crate::redact::{redact, redact_json};
use crate::sanitize;
use crate::tui::text;
use crate::tui::theme::Theme;

/// The mark of a topic file whose index entry is past the cut (Claude Code does not load it).
pub const NOT_LOADED: &str = "✂";

/// The file's worst finding: its health, or the content audit's (the Findings view's marks).
fn worst(
    view: &ClaudeView,
    marks: &std::collections::HashMap<String, Severity>,
    file: &str,
) -> Option<Severity> {
    [view.health(file), marks.get(file).copied()]
        .into_iter()
        .flatten()
        .min_by_key(|s| crate::tui::panes::findings::rank(*s))
}

/// The row's mark: its worst finding, or `✂` for a file Claude Code does not load.
fn mark(
    view: &ClaudeView,
    marks: &std::collections::HashMap<String, Severity>,
    file: &str,
    theme: &Theme,
) -> (&'static str, Style) {
    match worst(view, marks, file) {
        Some(Severity::Error) => ("✗", theme.error()),
        // not loaded at all: said before any lesser problem of its own
        _ if view.past_cut(file) => (NOT_LOADED, theme.dim()),
        Some(Severity::Warning) => ("⚠", theme.warning()),
        Some(Severity::Info) | None => ("✓", theme.ok()),
    }
}

pub fn render_manifest(
    pane: &mut ManifestPane,
    frame: &mut Frame,
    area: Rect,
    ctx: &Ctx<'_>,
    view: &ClaudeView,
) {
    let theme = ctx.theme;
    let total = view.order.len();
    let shown = if pane.filter.is_empty() {
        total.to_string()
    } else {
        format!("{}/{total}", pane.visible.len())
    };
    let counts = finding_counts(
        view.order
            .iter()
            .filter_map(|f| worst(view, &pane.marks, f)),
    );
    let title = format!(" {} ({shown}){counts} ", ctx.nouns.list);
    let outer = block(title, ctx.focused, theme);
    let inner = outer.inner(area);
    frame.render_widget(outer, area);
    let footer = footer(view, ctx.gauges, theme);
    let [list, footer_area] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length((footer.len() as u16).min(inner.height.saturating_sub(1))),
    ])
    .areas(inner);
    let header = u16::from(pane.typing || !pane.filter.is_empty());
    let list = Rect {
        y: list.y + header,
        height: list.height.saturating_sub(header),
        ..list
    };
    if header > 0 {
        let mut spans = vec![Span::styled("/", theme.key())];
        spans.extend(pane.filter.spans(pane.typing));
        frame.render_widget(
            Paragraph::new(Line::from(spans)),
            Rect {
                height: 1,
                y: list.y - 1,
                ..list
            },
        );
    }
    pane.list = list;
    pane.height = list.height as usize;
    super::keep_in_view(
        &mut pane.offset,
        pane.selected,
        pane.height,
        pane.visible.len(),
    );
    let width = list.width as usize;
    let window: Vec<usize> = pane
        .visible
        .iter()
        .skip(pane.offset)
        .take(pane.height)
        .copied()
        .collect();
    let (name_width, kind_width) = row_columns(width, 2, pane.longest_name);
    let mut lines = Vec::new();
    if window.is_empty() {
        let text = if pane.filter.is_empty() {
            "(no topic files)"
        } else {
            "(nothing matches the filter)"
        };
        lines.push(Line::styled(text, theme.dim()));
    }
    for (row, &i) in window.iter().enumerate() {
        let file = &view.order[i];
        let Some(topic) = view.topic(file) else {
            continue;
        };
        let (sign, style) = mark(view, &pane.marks, file, theme);
        let listed = if view.snapshot.is_listed(file) {
            ""
        } else {
            " (unlisted)"
        };
        let unnamed = if topic.name_from_file() {
            " (no name: file name shown)"
        } else {
            ""
        };
        let name = text::fit(&sanitize::line(topic.name()), name_width);
        let room = width.saturating_sub(2 + name_width + 1 + kind_width);
        let about = format!(
            "{}{listed}{unnamed}",
            topic.description().unwrap_or(&topic.file)
        );
        let mut line = Line::from(vec![
            Span::styled(format!("{sign} "), style),
            Span::raw(format!("{name} ")),
            Span::styled(
                kind_cell(topic.kind().unwrap_or("-"), kind_width),
                theme.label(),
            ),
            Span::raw(text::truncate(&sanitize::line(&about), room)),
        ]);
        if pane.offset + row == pane.selected {
            line = line.patch_style(theme.selected());
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), list);
    frame.render_widget(Paragraph::new(footer), footer_area);
}

/// The consolidation lock and the index gauges under the list.
fn footer(view: &ClaudeView, gauges: &[Gauge], theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(lock) = &view.snapshot.consolidation {
        let (text, style) = if lock.live {
            (
                format!("consolidation running (process {})", lock.pid),
                theme.warning(),
            )
        } else {
            ("no consolidation running".to_owned(), theme.dim())
        };
        lines.push(Line::styled(sanitize::line(&text).into_owned(), style));
    }
    lines.extend(gauges.iter().map(|g| Line::from(gauge(g, theme))));
    lines
}

pub fn render_record(
    pane: &mut RecordPane,
    frame: &mut Frame,
    area: Rect,
    ctx: &Ctx<'_>,
    view: &ClaudeView,
    file: Option<&str>,
) {
    let theme = ctx.theme;
    let Some(topic) = file.and_then(|f| view.topic(f)) else {
        let outer = block(format!(" {} ", ctx.nouns.item), ctx.focused, theme);
        pane.view.render(
            frame,
            area,
            outer,
            vec![Line::styled("(no topic file selected)", theme.dim())],
        );
        return;
    };
    pane.follow(&topic.file);
    let unnamed = if topic.name_from_file() {
        " (no name: file name shown)"
    } else {
        ""
    };
    let title = format!(
        " {}: {}{unnamed} ",
        ctx.nouns.item,
        sanitize::line(topic.name())
    );
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
        theme,
    );
    match topic.frontmatter() {
        None => lines.push(labelled("unreadable", "", theme.error(), theme)),
        Some(Frontmatter::Missing) => {
            lines.push(labelled("frontmatter", "none", theme.warning(), theme))
        }
        Some(Frontmatter::Invalid { line, message }) => lines.push(labelled(
            "frontmatter",
            &format!("invalid YAML at line {line}: {message}"),
            theme.error(),
            theme,
        )),
        Some(Frontmatter::Fields(fields)) => {
            for (key, value) in fields {
                // Credentials are drawn redacted, as the audit reports them, nested
                // fields included.
                let mut value = value.clone();
                redact_json(&mut value);
                push_field(&mut lines, &redact(key), 0, &value, width, theme);
            }
        }
    }
    let found = findings_of(view.findings_for(&topic.file), ctx.report, &topic.file);
    lines.extend(finding_lines(&found, theme));
    if view.past_cut(&topic.file) {
        // what the row's `✂` says, in words
        lines.push(Line::styled(
            format!("{NOT_LOADED} not loaded: its MEMORY.md entry is past the load cut"),
            theme.warning(),
        ));
    }
    lines.push(Line::styled("─".repeat(12), theme.dim()));
    lines.extend(
        sanitize::lines(&redact(topic.body()))
            .into_iter()
            .map(Line::from),
    );
    let outer = block(title, ctx.focused, theme);
    pane.view.render(frame, area, outer, lines);
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
    theme: &Theme,
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
