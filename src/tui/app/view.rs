//! Which view the body of the screen shows, and the keys that switch between them.

use super::{App, Modal};
use crate::tui::keymap::{Action, Scope};
use crate::tui::panes::{Component, Pane};

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

impl App {
    /// The scopes whose bindings are live now, most specific first.
    pub fn scopes(&self) -> Vec<Scope> {
        match &self.modal {
            Some(Modal::Help(_) | Modal::Log(_)) => return vec![Scope::Help],
            Some(Modal::Confirm(_)) => return vec![Scope::Confirm],
            Some(Modal::Reason { .. } | Modal::SaveCase { .. }) => return vec![Scope::Input],
            None => {}
        }
        self.scopes_below_modals()
    }

    /// The scopes live when no modal is open: the help lists their keys first.
    pub fn scopes_below_modals(&self) -> Vec<Scope> {
        if let Some(editor) = &self.editor {
            return if !editor.merge.is_empty() {
                vec![Scope::Merge, Scope::Editor]
            } else if editor.conflict.is_some() {
                vec![Scope::Conflict, Scope::Editor]
            } else {
                vec![Scope::Editor]
            };
        }
        if self.typing() {
            return vec![Scope::Input];
        }
        if let Some(scope) = self.view.scope() {
            return vec![scope, Scope::List, Scope::Global];
        }
        let focused = self.pane(self.focus);
        let mut scopes = vec![focused.scope()];
        scopes.retain(|s| *s != Scope::List);
        // the hints bar lists these in order: what the pane does before what works everywhere
        scopes.extend([Scope::List, Scope::Workbench, Scope::Global]);
        scopes
    }

    /// The component of `pane`.
    pub fn pane(&self, pane: Pane) -> &dyn Component {
        match pane {
            Pane::Manifest => &self.manifest,
            Pane::Record => &self.record,
            Pane::Index => &self.index,
            Pane::Query => &self.query,
        }
    }

    pub fn pane_mut(&mut self, pane: Pane) -> &mut dyn Component {
        match pane {
            Pane::Manifest => &mut self.manifest,
            Pane::Record => &mut self.record,
            Pane::Index => &mut self.index,
            Pane::Query => &mut self.query,
        }
    }

    /// The component of the current view (`None`: the four panes).
    pub fn view_mut(&mut self) -> Option<&mut dyn Component> {
        match self.view {
            View::Panes => None,
            View::Proposals => Some(&mut self.proposals),
            View::History => Some(&mut self.history),
            View::Sets => Some(&mut self.sets),
            View::Findings => Some(&mut self.findings),
        }
    }

    /// What has the keyboard: the view, or the focused pane.
    pub(super) fn active_mut(&mut self) -> &mut dyn Component {
        let focus = self.focus;
        if self.view == View::Panes {
            return self.pane_mut(focus);
        }
        match self.view_mut() {
            Some(view) => view,
            None => unreachable!("a view other than the panes has a component"),
        }
    }
}
