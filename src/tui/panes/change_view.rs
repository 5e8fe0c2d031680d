//! What a change does to its memories, drawn once for the Proposals view (what approving a
//! proposal would do, [`Proposal::change`](crate::review::Proposal::change)) and the History
//! view (what a journal entry did, [`Entry::change`](crate::review::Entry::change)), the same on
//! every format: the memories it replaces or adds and what it keeps, the files it touches, then
//! each memory it writes, whole and against what it replaces, word by word. Whatever the format
//! kept of a memory (a record's fields, a whole file), it is drawn as its fields.

use std::collections::HashSet;

use ratatui::style::Style;
use ratatui::text::Line;

use super::{diff, labelled};
use crate::change::Change;
use crate::memory::{Memory, RecordInput};
use crate::review::proposal::version_fields;
use crate::sanitize;
use crate::tui::theme::Theme;

/// What the drawing of a change knows beside the change.
pub(super) struct Around<'a> {
    /// The folder's memories as they are now, for a proposal: what it keeps. `None` for a
    /// change already made (its journal entry).
    pub now: Option<&'a [Memory]>,
    /// Whether the change is still to be made (a pending proposal): a name it writes that
    /// another memory took since is said.
    pub pending: bool,
    /// The written memory a `▶` points at (the one the editor opens), by its place among
    /// those the change writes.
    pub pointed: Option<usize>,
    /// The heading over a written memory whole when the change replaces memories.
    pub whole: &'static str,
}

/// One memory the change touches: its fields before and after (`None`: absent).
struct Sides {
    before: Option<RecordInput>,
    after: Option<RecordInput>,
}

fn heading(text: String, theme: &Theme) -> Line<'static> {
    Line::styled(format!("── {text}"), theme.label())
}

fn names<'a>(records: impl Iterator<Item = &'a RecordInput>) -> String {
    records
        .map(|r| r.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The lines of `change`: what it replaces or adds, keeps and touches, then its memories.
pub(super) fn lines(change: &Change, around: &Around, theme: &Theme) -> Vec<Line<'static>> {
    let memories: Vec<Sides> = change
        .touched
        .iter()
        .map(|t| Sides {
            before: t.before.as_ref().and_then(version_fields),
            after: t.after.as_ref().and_then(version_fields),
        })
        .filter(|m| m.before.is_some() || m.after.is_some())
        .collect();
    let sources: Vec<&RecordInput> = memories.iter().filter_map(|m| m.before.as_ref()).collect();
    let source_names: HashSet<&str> = sources.iter().map(|r| r.name.as_str()).collect();
    let written: Vec<&Sides> = memories.iter().filter(|m| m.after.is_some()).collect();
    let mut lines = Vec::new();
    if sources.is_empty() {
        if !written.is_empty() {
            let added = names(written.iter().filter_map(|m| m.after.as_ref()));
            lines.push(labelled("adds", &added, theme.added(), theme));
        }
    } else {
        let label = if written.is_empty() {
            "removes"
        } else {
            "replaces"
        };
        let replaced = names(sources.iter().copied());
        lines.push(labelled(label, &replaced, theme.removed(), theme));
    }
    if let Some(now) = around.now {
        lines.push(keeps(now, &source_names, theme));
    }
    lines.extend(files(change, theme));
    // What a written memory replaces: the memory in its own file before, then every memory
    // the change removes (what a consolidation merged into it).
    let removed: Vec<&RecordInput> = memories
        .iter()
        .filter(|m| m.after.is_none())
        .filter_map(|m| m.before.as_ref())
        .collect();
    let count = written.len();
    for (i, sides) in written.iter().enumerate() {
        let Some(new) = &sides.after else {
            continue;
        };
        let taken = around.pending
            && !source_names.contains(new.name.as_str())
            && around
                .now
                .is_some_and(|now| now.iter().any(|m| m.name == new.name));
        let pointer = if around.pointed == Some(i) {
            "▶ "
        } else {
            ""
        };
        let mut header = format!(
            "{pointer}memory {}/{count}: {}",
            i + 1,
            sanitize::line(&new.name)
        );
        if taken {
            header.push_str("  ⚠ this name is now taken by another memory");
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            header,
            if taken { theme.warning() } else { theme.key() },
        ));
        // the memory whole first, as it is written; then how it differs from what it replaces
        let whole = if sources.is_empty() {
            "new memory"
        } else {
            around.whole
        };
        lines.push(heading(whole.into(), theme));
        lines.extend(diff::record(None, new, theme));
        for old in sides.before.iter().chain(removed.iter().copied()) {
            lines.push(heading(
                format!(
                    "{} → {}",
                    sanitize::line(&old.name),
                    sanitize::line(&new.name)
                ),
                theme,
            ));
            lines.extend(diff::record(Some(old), new, theme));
        }
    }
    // A change that only removes: each memory as it was.
    if written.is_empty() {
        for (i, old) in removed.iter().enumerate() {
            lines.push(Line::raw(""));
            lines.push(Line::styled(
                format!(
                    "memory {}/{}: {}",
                    i + 1,
                    removed.len(),
                    sanitize::line(&old.name)
                ),
                theme.key(),
            ));
            lines.push(heading("removed memory, as it was".into(), theme));
            lines.extend(diff::record(None, old, theme));
        }
    }
    lines
}

/// What the change leaves as it is, of the memories there are now.
fn keeps(now: &[Memory], sources: &HashSet<&str>, theme: &Theme) -> Line<'static> {
    if sources.is_empty() {
        return labelled(
            "keeps",
            &format!("all {} memories", now.len()),
            theme.dim(),
            theme,
        );
    }
    let kept: Vec<&str> = now
        .iter()
        .map(|memory| memory.name.as_str())
        .filter(|name| !sources.contains(name))
        .collect();
    let text = if kept.is_empty() {
        "nothing else: every memory is a source".to_owned()
    } else {
        kept.join(", ")
    };
    labelled("keeps", &text, Style::default(), theme)
}

/// The files the change touches (`+` created, `-` removed, `~` edited), a memory's or an
/// index's; a memory a proposal writes into a file named only when it is approved has none.
fn files(change: &Change, theme: &Theme) -> Vec<Line<'static>> {
    let touched: Vec<_> = change
        .touched
        .iter()
        .filter(|t| !t.file.is_empty())
        .collect();
    if touched.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![Line::styled("files:", theme.label())];
    for t in touched {
        let (sign, what, style) = match (&t.before, &t.after) {
            (None, _) => ('+', "new file", theme.added()),
            (_, None) => ('-', "removed", theme.removed()),
            _ => ('~', "edited", Style::default()),
        };
        lines.push(Line::styled(
            format!("  {sign} {} ({what})", sanitize::line(&t.file)),
            style,
        ));
    }
    lines
}
