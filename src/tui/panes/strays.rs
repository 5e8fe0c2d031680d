//! A file in `.memory` that is not in the set, as the Record pane shows it when the Manifest's
//! selection is on one: what it is, what can be done with it, and its text, made inert (an
//! unlisted file can hold anything, a model's output included).

use ratatui::text::{Line, Span};

use super::labelled;
use crate::formats::Stray;
use crate::redact::redact;
use crate::sanitize;
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::theme::Theme;

/// The stray the Record pane shows, and its bytes once read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrayView {
    pub stray: Stray,
    /// `None` while it is being read; `Some(None)`: it could not be read.
    pub bytes: Option<Option<StrayBytes>>,
    /// `manifest.json` does not parse: the file may be one of the set's records.
    pub set_unreadable: bool,
}

/// A stray's bytes, and what they read as: a memory in words, or why they are not one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrayBytes {
    pub bytes: Vec<u8>,
    pub reading: Result<String, String>,
}

/// The Record pane's title for `stray`.
pub fn title(shown: &StrayView) -> String {
    let stray = &shown.stray;
    format!(" {}: {} ", stray.label, sanitize::line(&stray.file))
}

pub fn lines(shown: &StrayView, theme: &Theme) -> Vec<Line<'static>> {
    let stray = &shown.stray;
    let mut lines = vec![
        labelled("file", &stray.file, theme.warning(), theme),
        labelled("what", stray.what, theme.dim(), theme),
    ];
    let delete = keymap::label(Scope::Workbench, Action::Delete);
    let read = match &shown.bytes {
        None => {
            lines.push(Line::styled("(reading it…)", theme.dim()));
            return lines;
        }
        Some(None) => {
            lines.push(Line::styled(
                "(it cannot be read: not a regular file, larger than a memory may be, or gone)",
                theme.error(),
            ));
            return lines;
        }
        Some(Some(read)) => read,
    };
    let StrayBytes { bytes, reading } = read;
    let keys = match reading {
        _ if shown.set_unreadable => {
            "none while manifest.json does not parse: this may be a memory of the set".to_owned()
        }
        Ok(_) if stray.adoptable => format!(
            "{} adopts it into the set as it is (journaled; asks first), {delete} deletes it (asks first)",
            keymap::label(Scope::Manifest, Action::Adopt)
        ),
        _ => format!("{delete} deletes it (asks first)"),
    };
    lines.push(labelled("keys", &keys, theme.key(), theme));
    match reading {
        Ok(memory) => lines.push(labelled("memory", memory, theme.ok(), theme)),
        Err(e) => lines.push(labelled(
            "memory",
            &format!("does not read as a memory: {e}"),
            theme.error(),
            theme,
        )),
    }
    lines.push(Line::from(vec![
        Span::styled(format!("{:<12}", "size"), theme.label()),
        Span::raw(format!("{} bytes", bytes.len())),
    ]));
    lines.push(Line::styled("─".repeat(12), theme.dim()));
    // Drawn redacted like a record: an unlisted file is often a record the manifest lost.
    let text = String::from_utf8_lossy(bytes);
    lines.extend(sanitize::lines(&redact(&text)).into_iter().map(Line::from));
    lines
}
