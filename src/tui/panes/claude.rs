//! What the Record pane draws on a Claude Code folder: every frontmatter field of a topic
//! file, its findings and whether Claude Code loads it. (The list and index panes draw every
//! format from the backend's neutral view.)

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::record::{RecordPane, finding_lines, findings_of};
use super::{Ctx, block, labelled};
use crate::claude::frontmatter::{Frontmatter, display_value};
use crate::formats::claude::ClaudeView;
use crate::redact::{redact, redact_json};
use crate::sanitize;
use crate::tui::theme::Theme;

/// The mark of a topic file whose index entry is past the cut (Claude Code does not load it).
pub const NOT_LOADED: &str = "✂";

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
