//! The Proposals view's detail of one proposal, the same code for every format: its state,
//! decision and evidence, how each source it read differs from the memory as it is now, and
//! what it writes: a plan of records as adds, replaces and keeps with each record whole and
//! against each source, word by word; file images line by line ([`super::proposal_files`]).

use std::collections::HashSet;

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::proposal_files as files;
use super::proposals::Row;
use super::{diff, labelled, labelled_lines};
use crate::memory::{Memory, RecordInput};
use crate::redact::records::redact_input;
use crate::review::journal::JournalRecord;
use crate::review::{Kind, Proposal, ProposalStatus, State};
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

/// Whether a proposal's detail compares it with the memories as they are now: its sources'
/// versions, and what a plan of records keeps and finds taken (file images say it all).
pub(super) fn compares_with_memories(proposal: &Proposal) -> bool {
    proposal.files.is_empty() || !proposal.base.is_empty()
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

/// The source named `name` as the proposal read it: from its base, or among its additions.
fn source<'a>(proposal: &'a Proposal, name: &str) -> Option<&'a RecordInput> {
    proposal
        .base
        .iter()
        .map(|b: &JournalRecord| &b.record)
        .chain(&proposal.additions)
        .find(|r| r.name == name)
}

/// The first memory named `name` as the folder holds it now.
fn named<'a>(current: &'a [Memory], name: &str) -> Option<&'a Memory> {
    current.iter().find(|memory| memory.name == name)
}

/// The diff of one proposal.
pub(super) fn detail_lines(
    row: &Row,
    selected_record: usize,
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
        if p.files.is_empty() {
            let key = crate::tui::keymap::label(Scope::Proposals, Action::Rebase);
            let hint =
                format!("{key} rebases it: re-planned against the current memories, shown again");
            lines.push(labelled("", &hint, theme.dim(), theme));
        }
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
    // How the changed sources differ: the version the proposal read against the current one
    // (the stale lines above already say which changed or vanished).
    if p.status == ProposalStatus::Pending {
        for base in &p.base {
            let Some(now) = named(current, &base.record.name).map(as_input) else {
                continue;
            };
            // The stored copy is redacted: the same record with its credentials is no change.
            if redact_input(&now) != redact_input(&base.record) {
                lines.push(heading(
                    format!(
                        "source {}: as proposed → now",
                        sanitize::line(&base.record.name)
                    ),
                    theme,
                ));
                lines.extend(diff::record(Some(&base.record), &now, theme));
            }
        }
    }
    if !p.files.is_empty() {
        lines.extend(files::lines(&p.files, theme));
        return lines;
    }
    let invalid = row.state.why_plan_invalid().or_else(|| {
        row.records
            .is_empty()
            .then_some("it holds no record that reads")
    });
    if let Some(why) = invalid {
        lines.push(labelled("invalid plan", why, theme.error(), theme));
        return lines;
    }
    let sources: Vec<&str> = row.sources.iter().map(String::as_str).collect();
    let source_set: HashSet<&str> = sources.iter().copied().collect();
    let kept: Vec<&str> = current
        .iter()
        .map(|memory| memory.name.as_str())
        .filter(|n| !source_set.contains(n))
        .collect();
    match p.kind {
        Kind::Extraction => {
            let names: Vec<&str> = row.records.iter().map(|r| r.name.as_str()).collect();
            lines.push(labelled("adds", &names.join(", "), theme.added(), theme));
            lines.push(labelled(
                "keeps",
                &format!("all {} memories", kept.len()),
                theme.dim(),
                theme,
            ));
        }
        Kind::Consolidation | Kind::Edit => {
            lines.push(labelled(
                "replaces",
                &sources.join(", "),
                theme.removed(),
                theme,
            ));
            lines.push(labelled(
                "keeps",
                &if kept.is_empty() {
                    "nothing else: every memory is a source".to_owned()
                } else {
                    kept.join(", ")
                },
                Style::default(),
                theme,
            ));
        }
    }
    let count = row.records.len();
    for (i, new) in row.records.iter().enumerate() {
        let taken = p.status == ProposalStatus::Pending
            && named(current, &new.name).is_some()
            && !source_set.contains(new.name.as_str());
        let pointer = if i == selected_record { "▶ " } else { "" };
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
        // the record whole first, as it would be written; then how it differs from each source
        let whole = if sources.is_empty() {
            "new memory"
        } else {
            "proposed memory, whole"
        };
        lines.push(heading(whole.into(), theme));
        lines.extend(diff::record(None, new, theme));
        for name in &sources {
            lines.push(heading(
                format!("{} → {}", sanitize::line(name), sanitize::line(&new.name)),
                theme,
            ));
            match source(p, name) {
                Some(old) => lines.extend(diff::record(Some(old), new, theme)),
                None => lines.push(Line::styled(
                    "(the source is not in the proposal)",
                    theme.error(),
                )),
            }
        }
    }
    lines
}
