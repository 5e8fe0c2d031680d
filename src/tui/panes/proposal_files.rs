//! What the Proposals view shows of a proposal that changes whole files (a Claude Code
//! folder's): each file's before and after image as a line diff; and of any proposal, the
//! undo of its approval. The images were redacted when the proposal was filed; here they are made safe to print.

use ratatui::style::Style;
use ratatui::text::Line;

use crate::redact::redact;
use crate::review::proposal::images::{self, Change};
use crate::review::{FileImage, Proposal};
use crate::sanitize;
use crate::tui::review::Review;
use crate::tui::theme::Theme;

/// "undone by #7" when the journal entry that applied this proposal was undone.
pub(crate) fn undone_by(proposal: &Proposal, review: &Review) -> Option<String> {
    let applied = proposal.journal_entry?;
    let undos: Vec<String> = review
        .journal
        .iter()
        .filter(|e| e.undoes == Some(applied))
        .map(|e| format!("#{}", e.id))
        .collect();
    (!undos.is_empty()).then(|| format!("undone by {}", undos.join(", ")))
}

/// Every file the proposal writes: a heading saying what happens to it, then its lines
/// (`+` added, `-` removed, kept lines plain), as the index fix shows MEMORY.md.
pub(crate) fn lines(files: &[FileImage], theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![Line::styled(
        "MEMORY.md's lines follow from the index as it is when this is approved",
        theme.dim(),
    )];
    for image in files {
        let what = match images::change(image) {
            Change::Create => "new file",
            Change::Edit => "edited",
            Change::Delete => "removed",
        };
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            format!("── {} ({what})", sanitize::line(&image.file)),
            theme.label(),
        ));
        // Both redacted (a before image kept from an older filing may not be).
        let before = redact(image.before.as_deref().unwrap_or(""));
        let after = redact(image.after.as_deref().unwrap_or(""));
        for (marker, text) in super::index::drift(&before, &after) {
            let style = match marker {
                '-' => theme.removed(),
                '+' => theme.added(),
                _ => Style::default(),
            };
            lines.push(Line::styled(
                format!("{marker} {}", sanitize::line(&text)),
                style,
            ));
        }
    }
    lines
}
