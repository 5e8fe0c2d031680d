//! Proposals view: every proposal with its state and origin (pending first), and the selected
//! one's detail (`proposal_detail`): a diff of what it writes, and for a stale
//! proposal what changed since it was made.

use std::collections::{BTreeSet, HashSet};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::list_filter::ListFilter;
use super::proposal_detail::{detail_lines, marker};
use super::{Component, Ctx, Detail, block, labelled, scroll};
use crate::change::Change;
use crate::formats::Shown;
use crate::review::{Kind, Proposal, ProposalStatus, State};
use crate::sanitize;
use crate::tui::keymap::{Action, Scope};
use crate::tui::review::Review;
use crate::tui::theme::Theme;

#[derive(Debug, Clone)]
pub struct Row {
    pub proposal: Proposal,
    pub state: State,
    /// What approving it does ([`Proposal::change`]), what its detail draws: made once per
    /// reload rather than on every frame.
    pub(crate) change: Change,
    /// "add a, b" or "replace a, b with c" ([`Proposal::summary`]).
    pub summary: String,
    /// What kind of change it is, the same on every format ([`Proposal::change_kind`]).
    pub(crate) kind: Kind,
    /// The places in `change`'s `touched` of the memories an edit can be saved into
    /// (`Proposal::change_and_edit_kept`): found once per reload, as asking parses the plan.
    edit_kept: Vec<usize>,
}

#[derive(Debug, Default)]
pub struct ProposalsPane {
    pub rows: Vec<Row>,
    /// Position in `rows`.
    pub selected: usize,
    /// The memory `e` edits, by its place among those the selected proposal writes.
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
    /// The selected proposal's detail, by its id and the memory `record` points at, made when
    /// it is first drawn and kept until the next refresh (what it is drawn from, the reading
    /// and the proposals, changes only then): it diffs every memory the proposal writes, too
    /// much to redo every frame.
    drawn_detail: Option<(String, usize, Vec<Line<'static>>)>,
}

/// The places in `change`'s `touched` of the memories it writes, in order: what the detail
/// numbers "memory i/n" (a side holds a memory, which `version_fields` reads, when the change
/// names one; asked on every key and frame, so nothing is parsed).
fn written_at(change: &Change) -> impl Iterator<Item = usize> + '_ {
    change
        .touched
        .iter()
        .enumerate()
        .filter(|(_, t)| t.after.as_ref().is_some_and(|v| v.memory.is_some()))
        .map(|(at, _)| at)
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

impl ProposalsPane {
    /// Lists `review`'s proposals with their states: as the folder `shown` tells them when its
    /// reading does (against the memories as they are now), else as they were loaded. Keeps
    /// the selection on the same proposal when it is still listed.
    pub fn refresh(&mut self, review: &Review, shown: &Shown) {
        let keep = self.selected_row().map(|r| r.proposal.id.clone());
        let mut checked = shown.proposal_states(&review.proposals);
        self.drawn_detail = None;
        let mut pending: Vec<Row> = Vec::new();
        let mut decided: Vec<Row> = Vec::new();
        for proposal in &review.proposals {
            let state = checked
                .remove(&proposal.id)
                .or_else(|| review.states.get(&proposal.id).cloned())
                .unwrap_or_else(|| unchecked(proposal));
            // One layout of its change for all four (each reads every file image's memory
            // name through its frontmatter).
            let (change, edit_kept) = proposal.change_and_edit_kept();
            let row = Row {
                proposal: proposal.clone(),
                state,
                summary: proposal.summary_of(&change),
                kind: proposal.kind_of(&change),
                change,
                edit_kept,
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
        self.record = self.record.min(self.written().saturating_sub(1));
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

    /// How many memories the selected proposal writes, among which `record` points at the
    /// one `e` edits (none when its state says its plan is invalid), on every format: read
    /// from its change, whatever its format kept.
    pub(crate) fn written(&self) -> usize {
        self.selected_row()
            .filter(|r| r.state.why_plan_invalid().is_none())
            .map_or(0, |r| written_at(&r.change).count())
    }

    /// Where in the selected proposal's change (its place in `touched`) the memory `record`
    /// points at is (the one marked ▶, which `e` edits); `None` when it writes none.
    pub(crate) fn pointed(&self) -> Option<usize> {
        let row = self
            .selected_row()
            .filter(|r| r.state.why_plan_invalid().is_none())?;
        written_at(&row.change).nth(self.record)
    }

    /// Whether an edit of the memory `record` points at (marked ▶) can be saved into the
    /// selected proposal: `e` is refused up front on one that cannot (an addition beside its
    /// plan), rather than after the reviewer typed.
    pub(crate) fn pointed_edit_kept(&self) -> bool {
        self.pointed().is_some_and(|at| {
            self.selected_row()
                .is_some_and(|row| row.edit_kept.contains(&at))
        })
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
                let count = self.written();
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
        self.draw(frame, list, detail, ctx.shown, ctx.review, ctx.theme);
    }
}

impl ProposalsPane {
    fn draw(
        &mut self,
        frame: &mut Frame,
        list: Rect,
        detail: Option<Rect>,
        shown: &Shown,
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
        let lines = match self.rows.get(self.selected) {
            Some(row) => {
                let mut lines = match &self.drawn_detail {
                    Some((id, record, lines))
                        if *id == row.proposal.id && *record == self.record =>
                    {
                        lines.clone()
                    }
                    _ => {
                        // What the folder holds now: made once per reading, whichever pane
                        // asks first.
                        let current = shown.memories();
                        let readable = shown.is_readable();
                        let lines = detail_lines(row, self.record, current, readable, theme);
                        let key = row.proposal.id.clone();
                        self.drawn_detail = Some((key, self.record, lines.clone()));
                        lines
                    }
                };
                if let Some(undone) = undone_by(&row.proposal, review) {
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

/// "undone by #7" when the journal entry that applied this proposal was undone.
fn undone_by(proposal: &Proposal, review: &Review) -> Option<String> {
    let applied = proposal.journal_entry?;
    let undos: Vec<String> = review
        .journal
        .iter()
        .filter(|e| e.undoes == Some(applied))
        .map(|e| format!("#{}", e.id))
        .collect();
    (!undos.is_empty()).then(|| format!("undone by {}", undos.join(", ")))
}

/// A proposal's state when neither the reading nor the loader told it (the proposals of
/// another folder than the one read): decided as filed; pending, not offered as ready.
fn unchecked(proposal: &Proposal) -> State {
    match proposal.status {
        ProposalStatus::Approved => State::Approved,
        ProposalStatus::Rejected => State::Rejected,
        ProposalStatus::Pending => State::Stale(vec!["not yet checked against the folder".into()]),
    }
}
