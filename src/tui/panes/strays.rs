//! A file in `.memory` that is not in the set, as the Record pane shows it when the Manifest's
//! selection is on one: what it is, what can be done with it, and its text, made inert (an
//! unlisted file can hold anything, a model's output included).

use ratatui::text::{Line, Span};

use super::labelled;
use crate::redact::redact;
use crate::sanitize;
use crate::store::{StrayKind, codec};
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::theme::Theme;

/// The stray the Record pane shows, and its bytes once read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrayView {
    pub file: String,
    pub kind: StrayKind,
    /// `None` while it is being read; `Some(None)`: it could not be read.
    pub bytes: Option<Option<Vec<u8>>>,
    /// `manifest.json` does not parse: the file may be one of the set's records.
    pub set_unreadable: bool,
}

/// The Record pane's title for `stray`.
pub fn title(stray: &StrayView) -> String {
    format!(" {}: {} ", stray.kind.as_str(), sanitize::line(&stray.file))
}

pub fn lines(stray: &StrayView, theme: &Theme) -> Vec<Line<'static>> {
    let what = match stray.kind {
        StrayKind::Unlisted => "a .md file in .memory that the manifest does not list",
        StrayKind::Temp => "a temp file a writer left behind (no writer holds the lock)",
    };
    let mut lines = vec![
        labelled("file", &stray.file, theme.warning(), theme),
        labelled("what", what, theme.dim(), theme),
    ];
    let delete = keymap::label(Scope::Workbench, Action::Delete);
    let bytes = match &stray.bytes {
        None => {
            lines.push(Line::styled("(reading it…)", theme.dim()));
            return lines;
        }
        Some(None) => {
            lines.push(Line::styled(
                "(it cannot be read: not a regular file, larger than a record may be, or gone)",
                theme.error(),
            ));
            return lines;
        }
        Some(Some(bytes)) => bytes,
    };
    let record = codec::parse(bytes);
    let keys = match (&record, stray.kind) {
        _ if stray.set_unreadable => {
            "none while manifest.json does not parse: this may be a record of the set".to_owned()
        }
        (Ok(_), StrayKind::Unlisted) => format!(
            "{} adopts it into the set as it is (a transaction; asks first), {delete} deletes it (asks first)",
            keymap::label(Scope::Manifest, Action::Adopt)
        ),
        _ => format!("{delete} deletes it (asks first)"),
    };
    lines.push(labelled("keys", &keys, theme.key(), theme));
    match &record {
        Ok(r) => lines.push(labelled(
            "record",
            &format!(
                "{} ({}): {}",
                r.name(),
                r.kind().as_str(),
                redact(r.description())
            ),
            theme.ok(),
            theme,
        )),
        Err(e) => lines.push(labelled(
            "record",
            &format!("does not read as a record: {e}"),
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
