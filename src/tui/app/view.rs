//! Which view the body of the screen shows, and the keys that switch between them.

use crate::tui::keymap::{Action, Scope};

/// What the body of the screen shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The four panes.
    Panes,
    Proposals,
    History,
    /// Every memory folder found, to open one.
    Sets,
    /// What `check` finds in the set.
    Findings,
}

impl View {
    /// The keymap scope of the view's own bindings (`None`: the four panes, whose scope is the
    /// focused pane's).
    pub fn scope(self) -> Option<Scope> {
        match self {
            View::Panes => None,
            View::Proposals => Some(Scope::Proposals),
            View::History => Some(Scope::History),
            View::Sets => Some(Scope::Sets),
            View::Findings => Some(Scope::Findings),
        }
    }

    /// The view a global key switches to (pressed again, it switches back).
    pub fn shown_by(action: Action) -> Option<View> {
        match action {
            Action::ShowProposals => Some(View::Proposals),
            Action::ShowHistory => Some(View::History),
            Action::ShowFindings => Some(View::Findings),
            _ => None,
        }
    }
}
