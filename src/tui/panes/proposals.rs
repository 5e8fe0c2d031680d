//! Proposals view: every proposal with its state and origin (pending first), and the selected
//! one as a diff: every source against every replacement, word by word, the records it keeps,
//! and for a stale proposal what changed since it was made.

use std::collections::{BTreeSet, HashSet};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::list_filter::ListFilter;
use super::proposal_files as files;
use super::{Component, Ctx, Detail, block, diff, labelled, labelled_lines, scroll};
use crate::redact::records::redact_input;
use crate::review::journal::JournalRecord;
use crate::review::{Kind, Proposal, ProposalStatus, State};
use crate::sanitize;
use crate::session::Plan;
use crate::store::{MemorySet, Record, RecordInput};
use crate::tui::keymap::{Action, Scope};
use crate::tui::review::Review;
use crate::tui::theme::Theme;

#[derive(Debug, Clone)]
pub struct Row {
    pub proposal: Proposal,
    pub state: State,
    /// The plan, parsed once per reload rather than on every frame.
    pub plan: Result<Plan, String>,
    /// "add a, b" or "replace a, b with c" ([`Proposal::summary`]).
    pub summary: String,
    /// What kind of change it is, the same on every format ([`Proposal::change_kind`]).
    pub(crate) kind: Kind,
}

#[derive(Debug, Default)]
pub struct ProposalsPane {
    pub rows: Vec<Row>,
    /// Position in `rows`.
    pub selected: usize,
    /// The proposed record `e` edits (an index into the plan's records).
    pub record: usize,
    offset: usize,
    height: usize,
    drawn: super::ListRows,
    /// First line of the diff shown.
    pub detail: Detail,
    /// Every proposal, pending first; `rows` is what the view lists of them.
    all: Vec<Row>,
    /// Pending proposals marked for one approval or rejection (by id).
    pub marked: BTreeSet<String>,
    /// Decided proposals are left out of the list.
    pub hide_decided: bool,
    /// Per proposal id, what approving it does to the eval cases (set by the app).
    pub effects: std::collections::HashMap<String, String>,
    /// `/`: only the proposals whose id, kind, state, summary or origin match are listed.
    pub filter: ListFilter,
}

/// What the `/` filter looks at in a proposal's row.
fn filter_text(row: &Row) -> String {
    let p = &row.proposal;
    format!(
        "{} {} {} {} {}",
        p.id,
        row.kind.as_str(),
        row.state.as_str(),
        row.summary,
        p.origin.describe()
    )
}

fn marker(state: &State) -> &'static str {
    match state {
        State::Ready => "●",
        State::Stale(_) => "⚠",
        State::Approved => "✓",
        State::Rejected => "✗",
    }
}

impl ProposalsPane {
    /// Recomputes every row's state against `current`, keeping the selection on the same
    /// proposal when it is still listed.
    pub fn refresh(&mut self, review: &Review, current: &MemorySet) {
        let keep = self.selected_row().map(|r| r.proposal.id.clone());
        let mut pending: Vec<Row> = Vec::new();
        let mut decided: Vec<Row> = Vec::new();
        for proposal in &review.proposals {
            let plan = proposal.plan();
            // A Claude Code folder's proposals were checked against its files by the loader.
            let state = review.states.get(&proposal.id).cloned();
            let row = Row {
                proposal: proposal.clone(),
                state: state.unwrap_or_else(|| proposal.state(current)),
                summary: proposal.summary(),
                kind: proposal.change_kind(),
                plan,
            };
            if row.proposal.status == ProposalStatus::Pending {
                pending.push(row);
            } else {
                decided.push(row);
            }
        }
        decided.sort_by_key(|r| std::cmp::Reverse(r.proposal.decided_at.unwrap_or(0)));
        pending.extend(decided);
        self.all = pending;
        self.relist(keep);
    }

    /// Lists `all` as the view shows it (without the decided ones when they are hidden),
    /// keeping the selection on `keep` when it is still listed.
    fn relist(&mut self, keep: Option<String>) {
        self.rows = self
            .all
            .iter()
            .filter(|r| !self.hide_decided || r.proposal.status == ProposalStatus::Pending)
            .filter(|r| self.filter.matches(&filter_text(r)))
            .cloned()
            .collect();
        let listed: HashSet<&str> = self.rows.iter().map(|r| r.proposal.id.as_str()).collect();
        self.marked.retain(|id| listed.contains(id.as_str()));
        if let Some(id) = keep
            && let Some(pos) = self.rows.iter().position(|r| r.proposal.id == id)
        {
            if pos != self.selected {
                self.detail.scroll = 0;
            }
            self.selected = pos;
        } else {
            self.detail.scroll = 0;
            self.record = 0;
        }
        self.selected = self.selected.min(self.rows.len().saturating_sub(1));
        let records = self.proposed_records().len();
        self.record = self.record.min(records.saturating_sub(1));
    }

    /// The pending proposals an approval or a rejection is for: the marked ones, else the
    /// selected one if it is pending.
    pub fn chosen(&self) -> Vec<String> {
        if !self.marked.is_empty() {
            return self.marked.iter().cloned().collect();
        }
        self.selected_row()
            .filter(|r| r.proposal.status == ProposalStatus::Pending)
            .map(|r| vec![r.proposal.id.clone()])
            .unwrap_or_default()
    }

    /// Selects the proposal `id` when it is listed (a fix just filed, to open `p` on it).
    pub fn select(&mut self, id: &str) {
        self.relist(Some(id.to_owned()));
    }

    pub fn selected_row(&self) -> Option<&Row> {
        self.rows.get(self.selected)
    }

    /// The selected proposal's plan records (empty when its plan does not parse).
    pub fn proposed_records(&self) -> Vec<Record> {
        self.selected_row()
            .and_then(|r| r.plan.as_ref().ok())
            .map(|p| p.records().to_vec())
            .unwrap_or_default()
    }

    pub fn pending(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.proposal.status == ProposalStatus::Pending)
            .count()
    }

    fn move_selection(&mut self, action: Action) {
        match action {
            Action::PageDown | Action::PageUp => {
                self.detail.page(action);
            }
            Action::Left | Action::Right => {
                let count = self.proposed_records().len();
                if count > 0 {
                    self.record = if action == Action::Right {
                        (self.record + 1).min(count - 1)
                    } else {
                        self.record.saturating_sub(1)
                    };
                }
            }
            _ => {
                let before = self.selected;
                scroll(&mut self.selected, action, self.height, self.rows.len());
                if before != self.selected {
                    self.detail.scroll = 0;
                    self.record = 0;
                }
            }
        }
    }
}

impl Component for ProposalsPane {
    fn scope(&self) -> Scope {
        Scope::Proposals
    }

    fn handle_key(&mut self, action: Action) -> Option<Action> {
        match action {
            Action::Mark => {
                if let Some(row) = self.selected_row()
                    && row.proposal.status == ProposalStatus::Pending
                {
                    let id = row.proposal.id.clone();
                    if !self.marked.remove(&id) {
                        self.marked.insert(id);
                    }
                }
                self.move_selection(Action::Down);
            }
            Action::Filter => self.filter.typing = true,
            Action::ToggleDecided => {
                self.hide_decided = !self.hide_decided;
                let keep = self.selected_row().map(|r| r.proposal.id.clone());
                self.relist(keep);
            }
            movement if movement.is_movement() => self.move_selection(movement),
            other => return Some(other),
        }
        None
    }

    fn scroll(&mut self, down: bool) {
        self.move_selection(if down {
            Action::PageDown
        } else {
            Action::PageUp
        });
    }

    fn click(&mut self, at: ratatui::layout::Position) -> bool {
        match self.drawn.hit(at, self.offset, self.rows.len()) {
            Some(i) => {
                if i != self.selected {
                    self.detail.scroll = 0;
                    self.record = 0;
                }
                self.selected = i;
                true
            }
            None => false,
        }
    }

    fn rows(&self) -> usize {
        self.rows.len()
    }

    fn typing(&self) -> bool {
        self.filter.typing
    }

    fn filter_key(&mut self, action: Option<Action>, key: crossterm::event::KeyEvent) {
        self.filter.key(action, key);
        let keep = self.selected_row().map(|r| r.proposal.id.clone());
        self.relist(keep);
    }

    fn filter_paste(&mut self, text: &str) {
        self.filter.input.insert(text);
        let keep = self.selected_row().map(|r| r.proposal.id.clone());
        self.relist(keep);
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        let [list, detail] = crate::tui::layout::split_view(area, self.rows.len());
        let detail = (!ctx.editing).then_some(detail);
        let current = ctx.shown.valid_set();
        let readable = ctx.shown.is_readable();
        self.draw(
            frame, list, detail, &current, readable, ctx.review, ctx.theme,
        );
    }
}

impl ProposalsPane {
    #[allow(clippy::too_many_arguments)]
    fn draw(
        &mut self,
        frame: &mut Frame,
        list: Rect,
        detail: Option<Rect>,
        current: &MemorySet,
        readable: bool,
        review: &Review,
        theme: &Theme,
    ) {
        let mut title = if self.hide_decided {
            format!(" Proposals ({} pending; decided hidden) ", self.pending())
        } else {
            format!(
                " Proposals ({} pending, {} decided) ",
                self.pending(),
                self.rows.len() - self.pending()
            )
        };
        if !self.marked.is_empty() {
            title = format!("{}· {} marked ", title, self.marked.len());
        }
        if !self.filter.input.is_empty() {
            title = format!("{}· {}/{} shown ", title, self.rows.len(), self.all.len());
        }
        let outer = block(self.filter.title(title, theme), true, theme);
        let rows = &self.rows;
        let marked = &self.marked;
        self.height = super::render_list(
            frame,
            list,
            outer,
            review.error.as_deref(),
            if self.all.is_empty() {
                "no proposals yet: memwb propose … files them, and they appear here"
            } else if !self.filter.input.is_empty() {
                "(no proposal matches the filter)"
            } else {
                "(no pending proposal; the decided ones are hidden)"
            },
            (rows.len(), self.selected, &mut self.offset),
            &mut self.drawn,
            theme,
            |i| {
                let row = &rows[i];
                let p = &row.proposal;
                let state_style = match row.state {
                    State::Ready => theme.ok(),
                    State::Stale(_) => theme.warning(),
                    _ => theme.dim(),
                };
                // one column either way, so that marking moves nothing on the row
                let mark = if marked.contains(&p.id) { "*" } else { " " };
                Line::from(vec![
                    Span::styled(
                        format!("{mark}{} {:<8} ", marker(&row.state), row.state.as_str()),
                        state_style,
                    ),
                    Span::raw(format!("{}  {:<13} ", p.id, row.kind.as_str())),
                    Span::raw(sanitize::line(&row.summary).into_owned()),
                    Span::styled(
                        format!("  ({})", sanitize::line(&p.origin.describe())),
                        theme.dim(),
                    ),
                ])
            },
        );

        let Some(area) = detail else {
            return;
        };
        let title = match self.selected_row() {
            Some(row) => format!(" Proposal {} ", row.proposal.id),
            None => " Proposal ".into(),
        };
        let outer = block(title, false, theme);
        let lines = match self.selected_row() {
            Some(row) => {
                let mut lines = detail_lines(row, self.record, current, readable, theme);
                if let Some(undone) = files::undone_by(&row.proposal, review) {
                    lines.insert(1, labelled("undone", &undone, theme.warning(), theme));
                }
                if let Some(effect) = self.effects.get(&row.proposal.id) {
                    lines.insert(1, labelled("eval", effect, theme.warning(), theme));
                }
                lines
            }
            None => vec![Line::styled("(no proposal selected)", theme.dim())],
        };
        self.detail.render(frame, area, outer, lines);
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

/// The diff of one proposal.
pub fn detail_lines(
    row: &Row,
    selected_record: usize,
    current: &MemorySet,
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
            let Some(now) = current.get(&base.record.name).map(|e| e.record.to_input()) else {
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
    let plan = match &row.plan {
        Ok(plan) => plan,
        Err(e) => {
            lines.push(labelled("invalid plan", e, theme.error(), theme));
            return lines;
        }
    };
    let sources: Vec<&str> = plan.source_names().iter().map(String::as_str).collect();
    let source_set: HashSet<&str> = sources.iter().copied().collect();
    let kept: Vec<&str> = current
        .records()
        .map(Record::name)
        .filter(|n| !source_set.contains(n))
        .collect();
    match p.kind {
        Kind::Extraction => {
            let names: Vec<&str> = plan.records().iter().map(Record::name).collect();
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
    let count = plan.records().len();
    for (i, record) in plan.records().iter().enumerate() {
        let new = record.to_input();
        let taken = p.status == ProposalStatus::Pending
            && current.get(&new.name).is_some()
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
        lines.extend(diff::record(None, &new, theme));
        for name in &sources {
            lines.push(heading(
                format!("{} → {}", sanitize::line(name), sanitize::line(&new.name)),
                theme,
            ));
            match source(p, name) {
                Some(old) => lines.extend(diff::record(Some(old), &new, theme)),
                None => lines.push(Line::styled(
                    "(the source is not in the proposal)",
                    theme.error(),
                )),
            }
        }
    }
    lines
}
