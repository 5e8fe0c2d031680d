//! The Proposals view's detail of one proposal, the same code for every format and every kind
//! of proposal: its state, decision and evidence, how each source it read differs from the
//! memory as it is now, and what approving it does, drawn from its change
//! ([`Proposal::change`](crate::review::Proposal::change)) as History draws a journal entry's
//! ([`super::change_view`]).

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::proposals::Row;
use super::{change_view, diff, labelled, labelled_lines};
use crate::change::{Change, Touched};
use crate::memory::{Memory, RecordInput};
use crate::redact::records::redact_input;
use crate::review::proposal::version_fields;
use crate::review::{ProposalStatus, State};
use crate::sanitize;
use crate::tui::keymap::{Action, Scope};
use crate::tui::theme::Theme;

/// The mark a proposal's state shows before it, in the list and atop its detail.
pub(super) fn marker(state: &State) -> &'static str {
    match state {
        State::Ready => "●",
        State::Stale(_) => "⚠",
        State::Approved => "✓",
        State::Rejected => "✗",
    }
}

/// A memory as read, in the four fields a proposal keeps of one.
fn as_input(memory: &Memory) -> RecordInput {
    RecordInput {
        name: memory.name.clone(),
        kind: memory.kind.clone().unwrap_or_default(),
        description: memory.description.clone().unwrap_or_default(),
        body: memory.body.clone(),
    }
}

fn heading(text: String, theme: &Theme) -> Line<'static> {
    Line::styled(format!("── {text}"), theme.label())
}

/// The memory a proposal read as the folder holds it now: the one still in its file, else
/// the one of its name (a format may write a changed memory into a new file). One that
/// cannot be read is left out: the stale lines say so, and a diff against nothing misleads.
fn as_now<'a>(current: &'a [Memory], touched: &Touched, name: &str) -> Option<&'a Memory> {
    let readable = || current.iter().filter(|memory| memory.unreadable.is_none());
    readable()
        .find(|memory| !touched.file.is_empty() && memory.file == touched.file)
        .or_else(|| readable().find(|memory| memory.name == name))
}

/// How each memory the proposal read differs from that memory as it is now, whatever its
/// format kept of it (a record's fields, a whole file): a heading and the diff for each that
/// moved on (the stale lines above say which changed or vanished). The stored copy is
/// redacted, so a memory that differs from it only by its credentials is no change.
fn moved_on(change: &Change, current: &[Memory], theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for touched in &change.touched {
        let Some(proposed) = touched.before.as_ref().and_then(version_fields) else {
            continue;
        };
        let Some(now) = as_now(current, touched, &proposed.name).map(as_input) else {
            continue;
        };
        if redact_input(&now) != redact_input(&proposed) {
            lines.push(heading(
                format!(
                    "source {}: as proposed → now",
                    sanitize::line(&proposed.name)
                ),
                theme,
            ));
            lines.extend(diff::record(Some(&proposed), &now, theme));
        }
    }
    lines
}

/// The diff of one proposal.
pub(super) fn detail_lines(
    row: &Row,
    pointed: usize,
    current: &[Memory],
    readable: bool,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let p = &row.proposal;
    let mut lines = Vec::new();
    let state_style = match row.state {
        State::Ready => theme.ok(),
        State::Stale(_) => theme.warning(),
        _ => theme.dim(),
    };
    lines.push(Line::from(vec![
        Span::styled(
            format!("{} {}", marker(&row.state), row.state.as_str()),
            state_style,
        ),
        Span::raw(format!(
            " · {} · {} · {}",
            row.kind.as_str(),
            sanitize::line(&p.origin.describe()),
            super::short_time(p.created_at)
        )),
    ]));
    match p.status {
        ProposalStatus::Pending => {}
        status => {
            let word = if status == ProposalStatus::Approved {
                "approved"
            } else {
                "rejected"
            };
            let mut text = format!("{word} by ");
            if let Some(by) = &p.decided_by {
                text.push_str(&by.to_string());
            }
            if let Some(at) = p.decided_at {
                text.push_str(&format!(" at {}", super::short_time(at)));
            }
            if let Some(entry) = p.journal_entry {
                text.push_str(&format!(" (journal #{entry})"));
            }
            lines.push(labelled("decided", &text, theme.dim(), theme));
            if let Some(reason) = &p.reason {
                lines.push(labelled("reason", reason, Style::default(), theme));
            }
        }
    }
    if let State::Stale(changes) = &row.state {
        for change in changes {
            lines.push(labelled(
                "⚠ stale",
                &format!("{change} since it was proposed"),
                theme.warning(),
                theme,
            ));
        }
        let key = crate::tui::keymap::label(Scope::Proposals, Action::Rebase);
        let hint =
            format!("{key} rebases it: re-planned against the current memories, shown again");
        lines.push(labelled("", &hint, theme.dim(), theme));
    }
    if p.status == ProposalStatus::Pending && !readable {
        lines.push(Line::styled(
            "⚠ the set is unreadable: approving is refused until its ✗ entries are repaired",
            theme.error(),
        ));
    }
    if let Some(evidence) = &p.evidence {
        lines.extend(labelled_lines("evidence", evidence, theme.dim(), theme));
    }
    if p.status == ProposalStatus::Pending {
        lines.extend(moved_on(&row.change, current, theme));
    }
    let invalid = row.state.why_plan_invalid().or_else(|| {
        row.change
            .touched
            .is_empty()
            .then_some("it holds nothing that reads")
    });
    if let Some(why) = invalid {
        lines.push(labelled("invalid plan", why, theme.error(), theme));
        return lines;
    }
    let around = change_view::Around {
        now: Some(current),
        pending: p.status == ProposalStatus::Pending,
        pointed: Some(pointed),
        whole: "proposed memory, whole",
    };
    lines.extend(change_view::lines(&row.change, &around, theme));
    if p.status == ProposalStatus::Pending {
        lines.push(Line::raw(""));
        lines.push(Line::styled(INDEX_FOLLOWS, theme.dim()));
    }
    lines
}

/// Why a proposal shows no index among its files: approving it writes the index anew.
const INDEX_FOLLOWS: &str =
    "the index's lines follow from the memories as they are when this is approved";
