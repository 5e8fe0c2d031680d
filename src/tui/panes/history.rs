//! History view: the journal, newest first, with op, who, when, the proposal and the reason,
//! and what each entry did to its memories, drawn as the Proposals view draws what a proposal
//! would do (`change_view`); the selected entry in detail. `u` undoes it.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::list_filter::ListFilter;
use super::{Component, Ctx, Detail, block, change_view, labelled, labelled_lines, scroll};
use crate::review::Entry;
use crate::sanitize;
use crate::time::format_ms;
use crate::tui::keymap::{Action, Scope};
use crate::tui::review::Review;
use crate::tui::theme::Theme;

#[derive(Debug, Default)]
pub struct HistoryPane {
    /// The journal entries listed (those that pass the filter), newest first.
    pub entries: Vec<Arc<Entry>>,
    /// The whole journal, newest first (shared with the reading: an entry of a wide change
    /// is large, and the journal is read again after every job).
    all: Vec<Arc<Entry>>,
    /// `/`: only the entries whose number, op, who or summary match are listed.
    pub filter: ListFilter,
    pub selected: usize,
    offset: usize,
    height: usize,
    drawn: super::ListRows,
    pub detail: Detail,
    /// Each entry's summary by id, made the first time a row or the filter needs it and kept
    /// while the readings of the journal share the entry: a summary reads the memory name in
    /// every file image of its entry (400 for a 200-file change), too much to redo every frame
    /// or after every job.
    summaries: RefCell<HashMap<u64, String>>,
    /// The selected entry's detail by id, made when it is first drawn and kept until the list
    /// changes: it diffs every memory the entry wrote, too much to redo every frame.
    drawn_detail: Option<(u64, Vec<Line<'static>>)>,
}

/// One line: what the entry did to which memories, as `memwb log` says it.
pub fn summary(entry: &Entry) -> String {
    crate::review::summary::entry_summary(entry)
}

/// [`summary`] of `entry`, made once (see `HistoryPane::summaries`).
fn cached_summary(summaries: &RefCell<HashMap<u64, String>>, entry: &Entry) -> String {
    summaries
        .borrow_mut()
        .entry(entry.id)
        .or_insert_with(|| summary(entry))
        .clone()
}

impl HistoryPane {
    pub fn refresh(&mut self, review: &Review) {
        let all: Vec<Arc<Entry>> = review.journal.iter().rev().cloned().collect();
        // A summary is kept for an entry the new reading shares with the last (read once and
        // handed out again): after a job, only the entries it appended are summarized. Any
        // other (a repaired journal may hold another entry under the same number) is made
        // again.
        let last: HashMap<u64, &Arc<Entry>> = self.all.iter().map(|e| (e.id, e)).collect();
        let shared: HashSet<u64> = all
            .iter()
            .filter(|e| last.get(&e.id).is_some_and(|kept| Arc::ptr_eq(kept, e)))
            .map(|e| e.id)
            .collect();
        self.summaries.get_mut().retain(|id, _| shared.contains(id));
        self.all = all;
        self.relist();
    }

    /// What the `/` filter looks at in a journal entry.
    fn filter_text(&self, entry: &Entry) -> String {
        format!(
            "#{} {} {} {}",
            entry.id,
            entry.op.as_str(),
            entry.who,
            cached_summary(&self.summaries, entry)
        )
    }

    /// Lists the entries that pass the filter, keeping the selection on the same entry when it
    /// is still listed.
    fn relist(&mut self) {
        let keep = self.selected_entry().map(|e| e.id);
        // The text the filter looks at is made only while there is a filter: this runs after
        // every job and every change seen on disk, and a summary costs (see `summaries`).
        let filtering = !self.filter.input.is_empty();
        self.entries = self
            .all
            .iter()
            .filter(|e| !filtering || self.filter.matches(&self.filter_text(e)))
            .cloned()
            .collect();
        self.drawn_detail = None;
        match keep.and_then(|id| self.entries.iter().position(|e| e.id == id)) {
            Some(pos) => self.selected = pos,
            None => self.detail.scroll = 0,
        }
        self.selected = self.selected.min(self.entries.len().saturating_sub(1));
    }

    pub fn selected_entry(&self) -> Option<&Entry> {
        self.entries.get(self.selected).map(|entry| &**entry)
    }

    fn move_selection(&mut self, action: Action) {
        match action {
            Action::PageDown | Action::PageUp => {
                self.detail.page(action);
            }
            _ => {
                let before = self.selected;
                scroll(&mut self.selected, action, self.height, self.entries.len());
                if before != self.selected {
                    self.detail.scroll = 0;
                }
            }
        }
    }
}

impl Component for HistoryPane {
    fn scope(&self) -> Scope {
        Scope::History
    }

    fn handle_key(&mut self, action: Action) -> Option<Action> {
        if action == Action::Filter {
            self.filter.typing = true;
            return None;
        }
        if action.is_movement() {
            self.move_selection(action);
            return None;
        }
        Some(action)
    }

    fn scroll(&mut self, down: bool) {
        self.move_selection(if down {
            Action::PageDown
        } else {
            Action::PageUp
        });
    }

    fn click(&mut self, at: ratatui::layout::Position) -> bool {
        match self.drawn.hit(at, self.offset, self.entries.len()) {
            Some(i) => {
                if i != self.selected {
                    self.detail.scroll = 0;
                }
                self.selected = i;
                true
            }
            None => false,
        }
    }

    fn rows(&self) -> usize {
        self.entries.len()
    }

    fn typing(&self) -> bool {
        self.filter.typing
    }

    fn filter_key(&mut self, action: Option<Action>, key: crossterm::event::KeyEvent) {
        self.filter.key(action, key);
        self.relist();
    }

    fn filter_paste(&mut self, text: &str) {
        self.filter.input.insert(text);
        self.relist();
    }

    /// Opens on the newest entry, as it is now.
    fn shown(&mut self) {
        if self.selected != 0 {
            self.selected = 0;
            self.detail.scroll = 0;
        }
    }

    fn render(&mut self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>) {
        let [list, detail] = crate::tui::layout::split_view(area, self.entries.len());
        let detail = (!ctx.editing).then_some(detail);
        self.draw(frame, list, detail, ctx.review, ctx.theme);
    }
}

impl HistoryPane {
    fn draw(
        &mut self,
        frame: &mut Frame,
        list: Rect,
        detail: Option<Rect>,
        review: &Review,
        theme: &Theme,
    ) {
        let title = if self.filter.input.is_empty() {
            format!(" History ({} entries) ", self.entries.len())
        } else {
            format!(
                " History ({}/{} entries) ",
                self.entries.len(),
                self.all.len()
            )
        };
        let outer = block(self.filter.title(title, theme), true, theme);
        let entries = &self.entries;
        let summaries = &self.summaries;
        self.height = super::render_list(
            frame,
            list,
            outer,
            review.error.as_deref(),
            if self.all.is_empty() {
                "the journal is empty: every change memwb makes is recorded here"
            } else {
                "(no entry matches the filter)"
            },
            (entries.len(), self.selected, &mut self.offset),
            &mut self.drawn,
            theme,
            |i| {
                let entry = &entries[i];
                Line::from(vec![
                    Span::styled(format!("#{:<4}", entry.id), theme.key()),
                    Span::raw(format!(
                        "{}  {:<13} {}  ",
                        super::short_time(entry.at),
                        entry.op.as_str(),
                        sanitize::line(&entry.who.to_string())
                    )),
                    Span::raw(sanitize::line(&cached_summary(summaries, entry)).into_owned()),
                ])
            },
        );

        let Some(area) = detail else {
            return;
        };
        let title = match self.selected_entry() {
            Some(e) => format!(" Entry #{} ", e.id),
            None => " Entry ".into(),
        };
        let outer = block(title, false, theme);
        let lines = match self.selected_entry() {
            Some(entry) => match &self.drawn_detail {
                Some((id, lines)) if *id == entry.id => lines.clone(),
                _ => {
                    let lines = detail_lines(entry, &self.entries, theme);
                    self.drawn_detail = Some((entry.id, lines.clone()));
                    lines
                }
            },
            None => vec![Line::styled("(no entry selected)", theme.dim())],
        };
        self.detail.render(frame, area, outer, lines);
    }
}

fn detail_lines(entry: &Entry, all: &[Arc<Entry>], theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![
        labelled("op", entry.op.as_str(), theme.key(), theme),
        labelled("who", &entry.who.to_string(), Style::default(), theme),
        labelled("when", &format_ms(entry.at), Style::default(), theme),
    ];
    if let Some(p) = &entry.proposal {
        lines.push(labelled(
            "proposal",
            &format!("{} ({}, {})", p.id, p.kind, p.origin),
            Style::default(),
            theme,
        ));
        if let Some(evidence) = &p.evidence {
            lines.extend(labelled_lines("evidence", evidence, theme.dim(), theme));
        }
    }
    if let Some(reason) = &entry.reason {
        lines.push(labelled("reason", reason, Style::default(), theme));
    }
    if let Some(undone) = entry.undoes {
        lines.push(labelled(
            "undoes",
            &format!("#{undone}"),
            Style::default(),
            theme,
        ));
    }
    let undone_by: Vec<String> = all
        .iter()
        .filter(|e| e.undoes == Some(entry.id))
        .map(|e| format!("#{}", e.id))
        .collect();
    if !undone_by.is_empty() {
        lines.push(labelled(
            "undone by",
            &undone_by.join(", "),
            theme.warning(),
            theme,
        ));
    }
    let around = change_view::Around {
        now: None,
        pending: false,
        pointed: None,
        whole: "memory as written, whole",
    };
    lines.extend(change_view::lines(&entry.change(), &around, theme));
    if !entry.changed_files() {
        lines.push(Line::styled(
            "changed no memory (nothing to undo)",
            theme.dim(),
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::change::Op;
    use crate::memory::RecordInput;
    use crate::review::EntryMeta;
    use crate::review::journal::JournalRecord;

    /// Entry 1 adding a memory named `name`.
    fn added(name: &str) -> Entry {
        let mut entry = Entry::new(1, 0, Op::Add, &EntryMeta::default());
        entry.after.push(JournalRecord {
            file: format!("{name}.md"),
            record: RecordInput {
                name: name.into(),
                kind: "user".into(),
                description: "d".into(),
                body: "b".into(),
            },
        });
        entry
    }

    fn reading(entry: Entry) -> Review {
        Review {
            journal: vec![Arc::new(entry)],
            ..Review::default()
        }
    }

    #[test]
    fn a_summary_is_made_again_when_the_journal_is_read_again() {
        let mut pane = HistoryPane::default();
        pane.refresh(&reading(added("alpha")));
        pane.filter.input.set("alpha".into());
        pane.relist();
        assert_eq!(pane.entries.len(), 1, "the filter finds alpha");
        // A repaired journal may hold another entry under the same number.
        pane.refresh(&reading(added("beta")));
        assert!(pane.entries.is_empty(), "alpha's summary was kept");
        pane.filter.input.set("beta".into());
        pane.relist();
        assert_eq!(pane.entries.len(), 1, "the filter finds beta");
    }

    /// A reading that shares an entry with the last keeps its summary; one that holds a copy
    /// of it (read anew) makes it again.
    #[test]
    fn a_summary_is_kept_while_the_readings_share_the_entry() {
        let mut pane = HistoryPane::default();
        let first = reading(added("alpha"));
        pane.refresh(&first);
        pane.filter.input.set("alpha".into());
        pane.relist();
        let kept = |pane: &HistoryPane| pane.summaries.borrow().contains_key(&1);
        assert!(kept(&pane), "listing made it");
        // Unfiltered, a reading makes no summary of its own.
        pane.filter.input.set(String::new());
        pane.refresh(&Review {
            journal: first.journal.clone(),
            ..Review::default()
        });
        assert!(kept(&pane), "the same entry, shared");
        pane.refresh(&reading(added("alpha")));
        assert!(!kept(&pane), "a copy read anew");
    }
}
