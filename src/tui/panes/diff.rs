//! Word-level differences between two versions of a record, for the Proposals and History
//! views. Changes are marked `[-removed-]` and `{+added+}` (as `git diff --word-diff` does), so
//! they read without colour too; with colour, removed words are red and struck, added green.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use similar::{ChangeTag, TextDiff};

use crate::formats::RecordInput;
use crate::redact::redact;
use crate::sanitize;
use crate::tui::theme::Theme;

const LABEL: usize = 12;

/// `old` against `new`, word by word, as display lines (untrusted text made safe). Both sides
/// are redacted first: a diff between a stored (redacted) copy and the real text would
/// otherwise draw the credential as a change.
pub fn words(old: &str, new: &str, theme: &Theme) -> Vec<Line<'static>> {
    let (old, new) = (redact(old), redact(new));
    let diff = TextDiff::from_words(&old, &new);
    let mut runs: Vec<(ChangeTag, String)> = Vec::new();
    for change in diff.iter_all_changes() {
        match runs.last_mut() {
            Some((tag, text)) if *tag == change.tag() => text.push_str(change.value()),
            _ => runs.push((change.tag(), change.value().to_owned())),
        }
    }
    let mut lines = Vec::new();
    let mut spans: Vec<Span<'static>> = Vec::new();
    for (tag, text) in runs {
        let (open, close, style) = match tag {
            ChangeTag::Equal => ("", "", Style::default()),
            ChangeTag::Delete => ("[-", "-]", theme.removed()),
            ChangeTag::Insert => ("{+", "+}", theme.added()),
        };
        let pieces: Vec<&str> = text.split('\n').collect();
        let last = pieces.len() - 1;
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0 {
                lines.push(Line::from(std::mem::take(&mut spans)));
            }
            let piece = piece.strip_suffix('\r').unwrap_or(piece);
            let mut shown = String::new();
            if i == 0 {
                shown.push_str(open);
            }
            shown.push_str(&sanitize::line(piece));
            if i == last {
                shown.push_str(close);
            }
            if !shown.is_empty() {
                spans.push(Span::styled(shown, style));
            }
        }
    }
    lines.push(Line::from(spans));
    lines
}

fn label(text: &str, theme: &Theme) -> Span<'static> {
    Span::styled(format!("{text:<LABEL$}"), theme.label())
}

/// One field: its label, then the word diff (or the value when unchanged).
fn field(name: &str, old: &str, new: &str, theme: &Theme) -> Line<'static> {
    let mut spans = vec![label(name, theme)];
    for (i, line) in words(old, new, theme).into_iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw(" "));
        }
        spans.extend(line.spans);
    }
    Line::from(spans)
}

/// A record against the version it replaces: each field and the body, word by word. With no
/// `old`, the record is shown as it is (a new record).
pub fn record(old: Option<&RecordInput>, new: &RecordInput, theme: &Theme) -> Vec<Line<'static>> {
    let empty = RecordInput {
        name: String::new(),
        kind: String::new(),
        description: String::new(),
        body: String::new(),
    };
    let base = old.unwrap_or(&empty);
    let plain = |name: &str, value: &str| {
        Line::from(vec![
            label(name, theme),
            Span::raw(sanitize::line(&redact(value)).into_owned()),
        ])
    };
    let mut lines = Vec::new();
    if old.is_some() {
        lines.push(field("name", &base.name, &new.name, theme));
        lines.push(field("type", &base.kind, &new.kind, theme));
        lines.push(field(
            "description",
            &base.description,
            &new.description,
            theme,
        ));
    } else {
        lines.push(plain("name", &new.name));
        lines.push(plain("type", &new.kind));
        lines.push(plain("description", &new.description));
    }
    lines.push(label("body", theme).into());
    if old.is_some() {
        lines.extend(words(&base.body, &new.body, theme));
    } else {
        lines.extend(sanitize::lines(&new.body).into_iter().map(Line::from));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn marks_removed_and_added_words() {
        let lines = words(
            "freeze begins 03-01 now",
            "freeze begins 03-05 now",
            &Theme::plain(),
        );
        assert_eq!(text(&lines), ["freeze begins [-03-01-]{+03-05+} now"]);
    }

    #[test]
    fn keeps_lines_and_makes_controls_visible() {
        let lines = words("a\nb \u{1b}[2J", "a\nc \u{1b}[2J", &Theme::plain());
        assert_eq!(text(&lines), ["a", "[-b-]{+c+} ␛[2J"]);
    }
}
