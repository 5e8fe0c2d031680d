//! Rebasing a stale proposal from the Proposals view (`b`), on either format: the engine
//! re-plans it against the current records (`formats::memory::journal::rebase`) or files
//! (`formats::claude::journal::rebase`), and the status line says what changed, in the same words.

use super::{App, Effect, StatusKind};
use crate::review::{ProposalStatus, State};
use crate::tui::jobs::Job;
use crate::tui::keymap::{self, Action, Scope};

impl App {
    /// `b`: rebases the selected proposal if it is pending and stale.
    pub(super) fn rebase_selected(&mut self) -> Vec<Effect> {
        let Some(row) = self.proposals.selected_row() else {
            self.set_status(StatusKind::Error, "no proposal selected".into());
            return Vec::new();
        };
        let id = row.proposal.id.clone();
        let refusal = match (&row.proposal.status, &row.state) {
            (ProposalStatus::Pending, State::Stale(_)) => None,
            (ProposalStatus::Pending, _) => Some(format!(
                "proposal {id} is not stale: nothing to rebase ({} approves it as it is)",
                keymap::label(Scope::Proposals, Action::Approve)
            )),
            (_, state) => Some(format!(
                "proposal {id} was already {}; only a pending proposal can be rebased",
                state.as_str()
            )),
        };
        match refusal {
            Some(text) => {
                self.set_status(StatusKind::Error, text);
                Vec::new()
            }
            None => self.run(Job::Rebase { id }),
        }
    }

    /// A rebase went through: the proposal is shown again, as it now is, with what changed.
    pub(super) fn rebased(&mut self, id: &str, changes: Option<&str>) {
        let text = format!(
            "proposal {id} rebased onto the current memories: {} (nothing applied yet; {} approves)",
            changes.unwrap_or("nothing changed"),
            keymap::label(Scope::Proposals, Action::Approve)
        );
        self.set_status(StatusKind::Info, text);
    }
}

impl App {
    /// A reviewer's edit was saved into proposal `id` (either format): the editor closes.
    pub(super) fn proposal_edited(&mut self, id: &str) {
        self.editor = None;
        self.set_status(
            StatusKind::Info,
            format!(
                "proposal {id}: memory edited (nothing applied yet; {} approves)",
                keymap::label(Scope::Proposals, Action::Approve)
            ),
        );
    }
}
