//! The eval cases in the workbench: a background re-run whenever the set, the cases or the
//! proposals may have changed; its announcements; saving the Query pane's query as a case.

use crossterm::event::KeyEvent;

use super::{App, Effect, Modal, StatusKind};
use crate::eval::{Case, Corpus};
use crate::review::State as ProposalState;
use crate::tui::evals::{EvalRequest, Evaluated};
use crate::tui::jobs::Job;
use crate::tui::keymap::Action;
use crate::tui::line_input::LineInput;

impl App {
    /// The run to start now, if one is due and none is running. An unreadable set waits for
    /// its repair: an agent would select nothing from it. The cases run over the memories the
    /// Query pane selects among, and each ready proposal is judged on the set as it would be.
    pub(super) fn evaluation_due(&mut self) -> Option<Effect> {
        if !self.evals.due || self.evals.running || !self.shown.is_readable() {
            return None;
        }
        self.evals.due = false;
        self.evals.running = true;
        let (memories, catalog) = self.query_corpus();
        let proposals = self
            .proposals
            .rows
            .iter()
            .filter(|row| row.state == ProposalState::Ready)
            .map(|row| row.proposal.clone())
            .collect();
        Some(Effect::Evaluate(Box::new(EvalRequest {
            corpus: Corpus {
                memories,
                catalog: catalog.unwrap_or_default(),
            },
            proposals,
        })))
    }

    pub(super) fn evaluated(&mut self, done: Evaluated) {
        let (restated, announcements): (Vec<_>, Vec<_>) = self
            .evals
            .apply(done)
            .into_iter()
            .partition(|a| a.restates.is_some());
        self.query.cases = self.evals.rows.clone();
        self.query.cases_error = self.evals.error.clone();
        self.proposals.effects = self.evals.effects.clone();
        for late in restated {
            if let Some(said) = &late.restates {
                self.restate(StatusKind::Change, said, &late.text);
            }
        }
        if let Some(first) = announcements.first().map(|a| &a.text) {
            let more = match announcements.len() {
                1 => String::new(),
                n => format!(" (and {} more: t in the Query pane lists them)", n - 1),
            };
            self.set_status(StatusKind::Change, format!("{first}{more}"));
        }
    }

    /// `s` in the Query pane: the expected names start as the current selection.
    pub(super) fn open_save_case(&mut self) {
        match &self.query.result {
            Some(result) if !result.query.trim().is_empty() => {
                self.modal = Some(Modal::SaveCase {
                    query: result.query.clone(),
                    text: LineInput::with(result.names.join(" ")),
                });
            }
            _ => self.set_status(
                StatusKind::Error,
                "no query to save: type one and run it first".into(),
            ),
        }
    }

    /// Editing the expected names: Enter saves the case, Esc cancels.
    pub(super) fn save_case_key(&mut self, action: Option<Action>, key: KeyEvent) -> Vec<Effect> {
        let Some(Modal::SaveCase { query, text }) = &mut self.modal else {
            return Vec::new();
        };
        match action {
            Some(Action::Submit) => {
                let (mut expect, mut forbid) = (Vec::new(), Vec::new());
                for word in text.text().split_whitespace() {
                    match word.strip_prefix('!') {
                        Some(name) => forbid.push(name.to_owned()),
                        None => expect.push(word.to_owned()),
                    }
                }
                match Case::new(query.clone(), expect, forbid, None) {
                    Ok(case) => {
                        self.modal = None;
                        return self.run(Job::SaveCase(case));
                    }
                    // The modal stays open with the text, so that it can be fixed.
                    Err(error) => self.set_status(StatusKind::Error, error.to_string()),
                }
            }
            Some(Action::Cancel) => self.modal = None,
            Some(edit) if text.apply(edit) => {}
            _ => text.type_key(key),
        }
        Vec::new()
    }
}
