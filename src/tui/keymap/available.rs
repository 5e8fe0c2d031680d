//! Which commands can run now (gitui's `CommandInfo`): each binding's availability is computed
//! from the workbench's state, seen through [`KeyState`], and that one answer feeds dispatch
//! (an unavailable key is refused, in one wording: [`refusal`]), the hints bar (it names only
//! what is available) and the help (it lists every command of where you are, the unavailable
//! ones marked with why). The words are the same on every format: where a format lacks a
//! capability, its backend says why ([`crate::formats::Backend::lacks`]).

use super::{Action, Binding, Scope, label};
use crate::formats::Capability;

/// What the Manifest (or Topic files) pane has selected, as far as the keys care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Selected {
    #[default]
    Nothing,
    /// A memory that reads.
    Memory,
    /// An entry of the set that does not read (invalid, missing, not a file…): it can be
    /// repaired or dropped.
    Broken,
    /// An entry whose name is not safe to use: left alone.
    UnsafeName,
    /// A file of the folder outside the set that may be a memory.
    Unlisted,
    /// A writer's leftover temp file.
    Temp,
}

/// The selected proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ProposalFacts {
    pub(crate) pending: bool,
    pub(crate) stale: bool,
    /// Its plan does not validate: nothing of it can be edited or approved.
    pub(crate) plan_invalid: bool,
    /// It writes a memory a reviewer can edit (whatever its format keeps of it).
    pub(crate) writes: bool,
    /// An edit of the memory it writes that ▶ marks can be saved into it.
    pub(crate) pointed_edit_kept: bool,
}

/// The selected finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct FindingFacts {
    /// It is about a memory of the set (Enter can jump to it).
    pub(crate) about_memory: bool,
    /// It, or the finding of its group that carries the fix, has a fix to file.
    pub(crate) fix: bool,
}

/// The facts of the workbench's state that decide which commands are available
/// (`App::key_state` reads them).
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyState {
    /// The capabilities the open folder's format lacks, with its backend's reason.
    pub(crate) lacks: Vec<(Capability, &'static str)>,
    pub(crate) selected: Selected,
    /// The set does not read, so no index derives from it.
    pub(crate) set_unreadable: bool,
    /// The `.memory` manifest does not parse: the files below the set may be its records.
    pub(crate) manifest_unreadable: bool,
    /// The Query pane has a selected memory chosen (Enter jumps to it).
    pub(crate) query_chosen: bool,
    /// The Query pane holds a query that ran (`s` saves it as a case).
    pub(crate) query_ran: bool,
    pub(crate) proposal: Option<ProposalFacts>,
    /// Approve and reject have something to act on: marked proposals, or a pending one selected.
    pub(crate) proposals_chosen: bool,
    pub(crate) journal_entry: bool,
    pub(crate) finding: Option<FindingFacts>,
    /// The Sets view has a folder selected.
    pub(crate) set_row: bool,
}

impl KeyState {
    fn lacks(&self, capability: Capability) -> Option<String> {
        self.lacks
            .iter()
            .find(|(c, _)| *c == capability)
            .map(|(_, why)| (*why).to_owned())
    }

    /// Why `action`, bound in `scope`, cannot run now (`None`: it can).
    pub(crate) fn why_not(&self, scope: Scope, action: Action) -> Option<String> {
        match scope {
            Scope::Workbench => self.workbench(action),
            Scope::Manifest if action == Action::Adopt => self.adopt(),
            Scope::Query => self.query(action),
            Scope::Proposals => self.proposals(action),
            Scope::History if action == Action::Undo => {
                (!self.journal_entry).then(|| "no journal entry selected".to_owned())
            }
            Scope::Findings => self.findings(action),
            Scope::Sets if action == Action::OpenSet => {
                (!self.set_row).then(|| "no folder selected".to_owned())
            }
            _ => None,
        }
    }

    /// What the selection is not, when a command needs a memory there.
    fn not_a_memory(&self) -> Option<String> {
        let delete = label(Scope::Workbench, Action::Delete);
        match self.selected {
            Selected::Memory => None,
            Selected::Nothing => Some("no memory selected".to_owned()),
            Selected::Broken => Some(format!(
                "the selected entry does not read ({} repairs its text, {delete} drops it)",
                label(Scope::Workbench, Action::Edit)
            )),
            Selected::UnsafeName => Some(
                "the selected entry's name is not safe to use as a file name: it is left alone"
                    .to_owned(),
            ),
            Selected::Unlisted => Some(format!(
                "the selected file is not in the set ({} adopts it, {delete} deletes it)",
                label(Scope::Manifest, Action::Adopt)
            )),
            Selected::Temp => Some(format!(
                "the selected file is a leftover temp file ({delete} deletes it)"
            )),
        }
    }

    fn workbench(&self, action: Action) -> Option<String> {
        match action {
            Action::Edit => match self.selected {
                Selected::Broken => None,
                _ => self.not_a_memory(),
            },
            Action::EditExternal => self.not_a_memory(),
            Action::Delete => match self.selected {
                Selected::Broken => None,
                Selected::Unlisted | Selected::Temp if self.manifest_unreadable => {
                    Some(MANIFEST_UNREADABLE.to_owned())
                }
                Selected::Unlisted | Selected::Temp => None,
                _ => self.not_a_memory(),
            },
            Action::Yank | Action::YankPath => match self.selected {
                Selected::Memory | Selected::Broken | Selected::UnsafeName => None,
                Selected::Nothing => Some("nothing selected to copy".to_owned()),
                Selected::Unlisted | Selected::Temp => {
                    Some("the selected file is not in the set: nothing to copy".to_owned())
                }
            },
            Action::RebuildIndex if self.set_unreadable => Some(
                "the set does not read, so no MEMORY.md derives from it (the Manifest shows why)"
                    .to_owned(),
            ),
            _ => None,
        }
    }

    fn adopt(&self) -> Option<String> {
        if let Some(why) = self.lacks(Capability::Adopt) {
            return Some(why);
        }
        match self.selected {
            Selected::Unlisted | Selected::Temp if self.manifest_unreadable => {
                Some(MANIFEST_UNREADABLE.to_owned())
            }
            Selected::Unlisted => None,
            Selected::Temp => Some(format!(
                "a temp file is not a memory to adopt ({} deletes it)",
                label(Scope::Workbench, Action::Delete)
            )),
            _ => Some("select a file under \"not in the set\" to adopt it".to_owned()),
        }
    }

    fn query(&self, action: Action) -> Option<String> {
        let type_one = label(Scope::Query, Action::QueryInput);
        match action {
            Action::JumpTo if !self.query_chosen => Some(format!(
                "no selected memory to jump to ({type_one} types a query)"
            )),
            Action::SaveCase if !self.query_ran => Some(format!(
                "no query to save ({type_one} types one, Enter runs it)"
            )),
            _ => None,
        }
    }

    fn proposals(&self, action: Action) -> Option<String> {
        let proposal = self.proposal;
        let pending = proposal.is_some_and(|p| p.pending);
        match action {
            Action::Approve | Action::Reject if !self.proposals_chosen => {
                Some("no pending proposal selected".to_owned())
            }
            Action::Mark | Action::Edit | Action::Rebase if proposal.is_none() => {
                Some("no proposal selected".to_owned())
            }
            Action::Mark | Action::Edit | Action::Rebase if !pending => {
                Some("the selected proposal was already decided".to_owned())
            }
            Action::Edit if proposal.is_some_and(|p| p.plan_invalid) => {
                Some("the selected proposal's plan is invalid: nothing to edit".to_owned())
            }
            Action::Edit if !proposal.is_some_and(|p| p.writes) => {
                Some("the selected proposal writes nothing to edit".to_owned())
            }
            Action::Edit if !proposal.is_some_and(|p| p.pointed_edit_kept) => Some(
                "the memory marked ▶ is not one the proposal's plan writes: nothing to edit"
                    .to_owned(),
            ),
            Action::Rebase if !proposal.is_some_and(|p| p.stale) => Some(format!(
                "the selected proposal is not stale: nothing to rebase ({} approves it as it is)",
                label(Scope::Proposals, Action::Approve)
            )),
            _ => None,
        }
    }

    fn findings(&self, action: Action) -> Option<String> {
        let finding = self.finding;
        match action {
            Action::JumpTo | Action::FileFix if finding.is_none() => {
                Some("no finding selected".to_owned())
            }
            Action::JumpTo if !finding.is_some_and(|f| f.about_memory) => {
                Some("the finding is about the folder, not a memory: nothing to jump to".to_owned())
            }
            Action::FileFix if !finding.is_some_and(|f| f.fix) => Some(format!(
                "the finding has no fix to file: a person decides ({} shows the memory)",
                label(Scope::Findings, Action::JumpTo)
            )),
            _ => None,
        }
    }
}

/// Why the files below the set are left alone while the manifest does not parse: every record
/// file then looks unlisted, so none is offered for deletion or adoption until it reads again.
pub(crate) const MANIFEST_UNREADABLE: &str = "manifest.json does not parse, so the set's own files look unlisted: none is offered for deletion until it reads; repair manifest.json (memwb check says where it breaks; if another writer is mid-way, wait for it)";

/// The one wording of a refused key.
pub(crate) fn refusal(binding: &Binding, why: &str) -> String {
    let key = binding.keys.first().map(|k| k.label()).unwrap_or_default();
    format!("{key} is not available now: {why}")
}
