//! The facts of the app's state that decide which keys are available now
//! ([`crate::tui::keymap::KeyState`]): dispatch, the hints bar and the help all ask this one
//! reading, so a key the bar names is a key that runs.

use super::{App, StatusKind};
use crate::formats::{Capability, RowState};
use crate::review::{ProposalStatus, State};
use crate::tui::keymap::{self, Binding, FindingFacts, KeyState, ProposalFacts, Selected};
use crate::tui::panes::findings::twin_with_fix;

impl App {
    /// What the keys depend on, read from the state now.
    pub(crate) fn key_state(&self) -> KeyState {
        let proposal = self.proposals.selected_row().map(|row| ProposalFacts {
            pending: row.proposal.status == ProposalStatus::Pending,
            stale: matches!(row.state, State::Stale(_)),
            plan_invalid: row.state.why_plan_invalid().is_some(),
            writes: self.proposals.written() > 0,
            pointed_edit_kept: self.proposals.pointed_edit_kept(),
        });
        let finding = self.findings.selected_finding().map(|checked| {
            // The marks hold the files of the set's memories with findings, on every format.
            let about_memory = self.finding_target(checked).is_ok()
                || checked
                    .finding
                    .file
                    .as_deref()
                    .is_some_and(|f| self.manifest.marks.contains_key(f));
            let twin = self
                .findings
                .report
                .as_ref()
                .and_then(|report| twin_with_fix(report, checked));
            FindingFacts {
                about_memory,
                fix: checked.fix.is_some() || twin.is_some(),
            }
        });
        let query = self.query.result.as_ref();
        KeyState {
            lacks: {
                let backend = self.backend.backend();
                Capability::ALL
                    .into_iter()
                    .filter_map(|c| backend.lacks(c).map(|why| (c, why)))
                    .collect()
            },
            selected: self.key_selection(),
            set_unreadable: self.shown.index_underivable(),
            manifest_unreadable: self.manifest_unreadable(),
            query_chosen: query.is_some_and(|r| r.names.get(self.query.chosen).is_some()),
            query_ran: query.is_some_and(|r| !r.query.trim().is_empty()),
            proposal,
            proposals_chosen: !self.proposals.chosen().is_empty(),
            journal_entry: self.history.selected_entry().is_some(),
            finding,
            set_row: self.sets.selected_set().is_some(),
        }
    }

    fn key_selection(&self) -> Selected {
        if self.selected_topic_file().is_some() {
            return Selected::Memory;
        }
        if let Some(stray) = self.manifest.selected_stray() {
            return if stray.adoptable {
                Selected::Unlisted
            } else {
                Selected::Temp
            };
        }
        match self.selected_state() {
            None => Selected::Nothing,
            Some(state) if state.reads() => Selected::Memory,
            Some(RowState::UnsafeName) => Selected::UnsafeName,
            Some(_) => Selected::Broken,
        }
    }

    /// Refuses `binding` when the state makes it unavailable, in the one wording: true if it
    /// did (the key then does nothing else).
    pub(super) fn refused(&mut self, binding: &Binding) -> bool {
        let Some(why) = self.key_state().why_not(binding.scope, binding.action) else {
            return false;
        };
        self.set_status(StatusKind::Error, keymap::refusal(binding, &why));
        true
    }
}
