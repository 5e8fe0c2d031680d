//! The keymap, held as data. Dispatch, the hints bar and the `?` help overlay all read this one
//! table, and whether each binding is available now (the `available` module), so they cannot drift apart.

mod available;
mod key;
mod table;

use crossterm::event::KeyEvent;

use crate::formats::Nouns;

pub(crate) use available::{
    FindingFacts, KeyState, MANIFEST_UNREADABLE, ProposalFacts, Selected, refusal,
};
pub use key::Key;
pub use table::BINDINGS;

/// Everything a key can ask the workbench to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    Help,
    MessageLog,
    FocusNext,
    FocusPrev,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Zoom,
    Filter,
    Edit,
    EditExternal,
    New,
    Delete,
    RebuildIndex,
    Reload,
    Yank,
    YankPath,
    NextMatch,
    PrevMatch,
    QueryInput,
    JumpTo,
    /// The Query pane: switch between the selection and the eval cases.
    QueryTab,
    /// The Query pane: save the query as an eval case.
    SaveCase,
    // the Proposals and History views
    ShowProposals,
    ShowHistory,
    /// The Sets view: every memory folder found, to open one.
    ShowSets,
    OpenSet,
    Back,
    Approve,
    Reject,
    Undo,
    Mark,
    ToggleDecided,
    /// Re-plan the selected stale proposal against the current memories.
    Rebase,
    /// The Manifest: list the selected unlisted record file in the set.
    Adopt,
    // the Findings view
    ShowFindings,
    FileFix,
    // text input lines (filter, query)
    Submit,
    Cancel,
    CursorLeft,
    CursorRight,
    LineStart,
    LineEnd,
    KillToStart,
    KillWord,
    KillToEnd,
    HistoryPrev,
    HistoryNext,
    // the in-pane editor
    Save,
    NextField,
    PrevField,
    CycleType,
    // a conflict after a failed save
    ShowDiff,
    Reapply,
    KeepEditing,
    // a field both sides changed, after a re-apply
    TakeMine,
    TakeTheirs,
    // confirmations
    Yes,
    No,
}

impl Action {
    /// A move within a pane, a list or a view.
    pub fn is_movement(self) -> bool {
        matches!(
            self,
            Action::Up
                | Action::Down
                | Action::Left
                | Action::Right
                | Action::PageUp
                | Action::PageDown
                | Action::Top
                | Action::Bottom
        )
    }
}

/// Where a binding applies. Several scopes are active at once; the first that binds a key wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Global,
    Workbench,
    List,
    Manifest,
    Record,
    Index,
    Query,
    Proposals,
    History,
    Sets,
    Findings,
    Input,
    Editor,
    Conflict,
    Merge,
    Confirm,
    Help,
}

impl Scope {
    /// The section's title in the help of a folder whose format names its panes `nouns`:
    /// the list and the memory pane go by the titles they have on screen there.
    pub(crate) fn title_in(self, nouns: Nouns) -> String {
        match self {
            Scope::Manifest => format!("{} pane", nouns.list),
            Scope::Record => format!("{} pane", nouns.item),
            _ => self.title().to_owned(),
        }
    }

    /// The section's title in docs/workbench.md (a `.memory` set's pane names).
    pub fn title(self) -> &'static str {
        match self {
            Scope::Global => "Everywhere",
            Scope::Workbench => "The four panes",
            Scope::List => "Moving in a pane or a list",
            Scope::Manifest => "Manifest pane",
            Scope::Record => "Record pane",
            Scope::Index => "MEMORY.md pane",
            Scope::Query => "Query pane",
            Scope::Proposals => "Proposals view",
            Scope::History => "History view",
            Scope::Sets => "Sets view",
            Scope::Findings => "Findings view",
            Scope::Input => "Typing a filter, a query or a reason",
            Scope::Editor => "Editor",
            Scope::Conflict => "Editor: after a conflicting change",
            Scope::Merge => "Editor: a field both sides changed (after a re-apply)",
            Scope::Confirm => "Confirmation",
            Scope::Help => "This help and the message log",
        }
    }
}

pub struct Binding {
    pub scope: Scope,
    pub keys: &'static [Key],
    pub action: Action,
    /// What the help overlay says.
    pub help: &'static str,
    /// The short word in the hints bar; `None` keeps the binding out of the bar.
    pub hint: Option<&'static str>,
    /// The hint comes after every other hint of the active scopes, so it shows only where the
    /// bar has room left (a wide terminal) and never pushes out `q`, `?` or a view's own keys.
    pub spare: bool,
}

/// The key that does `action` in `scope`, as the hints bar names it ("C-s", "Esc"). Every
/// sentence that names a key gets it from here, so rebinding cannot make a message lie.
pub fn label(scope: Scope, action: Action) -> String {
    BINDINGS
        .iter()
        .find(|b| b.scope == scope && b.action == action)
        .and_then(|b| b.keys.first())
        .map(Key::label)
        .unwrap_or_else(|| format!("{action:?}"))
}

/// The action bound to `event` in the first of `scopes` that binds it.
pub fn lookup(scopes: &[Scope], event: &KeyEvent) -> Option<Action> {
    binding_for(scopes, event).map(|b| b.action)
}

/// The binding of `event` in the first of `scopes` that binds it.
pub(crate) fn binding_for(scopes: &[Scope], event: &KeyEvent) -> Option<&'static Binding> {
    scopes.iter().find_map(|scope| {
        BINDINGS
            .iter()
            .filter(|b| b.scope == *scope)
            .find(|b| b.keys.iter().any(|k| k.matches(event)))
    })
}

/// Whether `binding` is the one its first key reaches in `scopes` (a scope before it may bind
/// the same key: `n` in the Record pane is its next match, not the four panes' new memory).
fn reachable(scopes: &[Scope], binding: &Binding) -> bool {
    binding.keys.iter().any(|key| {
        scopes
            .iter()
            .find(|scope| {
                BINDINGS
                    .iter()
                    .any(|b| b.scope == **scope && b.keys.contains(key))
            })
            .is_some_and(|scope| *scope == binding.scope)
    })
}

/// The bindings of the hints bar for the active scopes, in table order, each key once: the
/// essential hints of every scope first, then the spare ones. Only what `state` makes
/// available is named, so every key the bar shows runs.
pub(crate) fn hints(scopes: &[Scope], state: &KeyState) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    for spare in [false, true] {
        for scope in scopes {
            for binding in BINDINGS.iter().filter(|b| {
                b.scope == *scope
                    && b.spare == spare
                    && reachable(scopes, b)
                    && state.why_not(b.scope, b.action).is_none()
            }) {
                if let (Some(hint), Some(first)) = (binding.hint, binding.keys.first()) {
                    let label = first.label();
                    if !out.iter().any(|(l, _)| *l == label) {
                        out.push((label, hint));
                    }
                }
            }
        }
    }
    out
}

/// One command of the help: its keys, what it does, and (where you are) why it is not
/// available now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HelpRow {
    pub(crate) keys: String,
    pub(crate) help: &'static str,
    pub(crate) unavailable: Option<String>,
}

/// The help overlay's sections: those of the `active` scopes first, in their order (what works
/// here, most specific first), each command marked with why when `state` makes it unavailable;
/// then every other scope, unmarked (its commands do not apply here).
pub(crate) fn help_sections_for(active: &[Scope], state: &KeyState) -> Vec<(Scope, Vec<HelpRow>)> {
    let mut order: Vec<Scope> = active.to_vec();
    order.extend(HELP_ORDER.iter().filter(|s| !active.contains(s)));
    order
        .into_iter()
        .filter_map(|scope| {
            let here = active.contains(&scope);
            let rows: Vec<HelpRow> = BINDINGS
                .iter()
                .filter(|b| b.scope == scope)
                .map(|b| HelpRow {
                    keys: b.keys.iter().map(Key::label).collect::<Vec<_>>().join(" "),
                    help: b.help,
                    unavailable: here.then(|| state.why_not(b.scope, b.action)).flatten(),
                })
                .collect();
            (!rows.is_empty()).then_some((scope, rows))
        })
        .collect()
}

/// The order of the help's sections (and of docs/workbench.md's tables).
const HELP_ORDER: [Scope; 17] = [
    Scope::Global,
    Scope::Workbench,
    Scope::List,
    Scope::Manifest,
    Scope::Record,
    Scope::Index,
    Scope::Query,
    Scope::Proposals,
    Scope::History,
    Scope::Sets,
    Scope::Findings,
    Scope::Input,
    Scope::Editor,
    Scope::Conflict,
    Scope::Merge,
    Scope::Confirm,
    Scope::Help,
];

/// Every binding grouped by scope, for the help overlay: (scope title, [(keys, help)]).
pub fn help_sections() -> Vec<(&'static str, Vec<(String, &'static str)>)> {
    HELP_ORDER
        .iter()
        .filter_map(|scope| {
            let rows: Vec<_> = BINDINGS
                .iter()
                .filter(|b| b.scope == *scope)
                .map(|b| {
                    let keys: Vec<String> = b.keys.iter().map(Key::label).collect();
                    (keys.join(" "), b.help)
                })
                .collect();
            (!rows.is_empty()).then(|| (scope.title(), rows))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::{KeyCode, KeyModifiers};

    use Action as A;
    use Scope as S;

    fn press(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn first_scope_wins() {
        let esc = press(KeyCode::Esc, KeyModifiers::NONE);
        assert_eq!(lookup(&[S::Input, S::Global], &esc), Some(A::Cancel));
        let d = press(KeyCode::Char('d'), KeyModifiers::NONE);
        assert_eq!(lookup(&[S::Conflict, S::Global], &d), Some(A::ShowDiff));
        assert_eq!(lookup(&[S::Workbench], &d), Some(A::Delete));
    }

    #[test]
    fn shifted_letters_and_control_keys() {
        let big_e = press(KeyCode::Char('E'), KeyModifiers::SHIFT);
        assert_eq!(lookup(&[S::Workbench], &big_e), Some(A::EditExternal));
        let save = press(KeyCode::Char('s'), KeyModifiers::CONTROL);
        assert_eq!(lookup(&[S::Editor], &save), Some(A::Save));
        let plain_s = press(KeyCode::Char('s'), KeyModifiers::NONE);
        assert_eq!(lookup(&[S::Editor], &plain_s), None);
    }

    #[test]
    fn every_action_with_a_hint_is_in_the_help() {
        let help = help_sections();
        for binding in BINDINGS.iter().filter(|b| b.scope != S::Help) {
            assert!(
                help.iter()
                    .any(|(_, rows)| rows.iter().any(|(_, h)| *h == binding.help)),
                "{}",
                binding.help
            );
        }
    }

    #[test]
    fn labels_name_the_first_key_of_the_binding() {
        assert_eq!(label(S::Editor, A::Save), "C-s");
        assert_eq!(label(S::Workbench, A::Edit), "e");
        assert_eq!(label(S::Input, A::Cancel), "Esc");
    }

    #[test]
    fn no_key_is_bound_twice_in_one_scope() {
        for (i, a) in BINDINGS.iter().enumerate() {
            for b in &BINDINGS[i + 1..] {
                if a.scope == b.scope {
                    for k in a.keys {
                        assert!(
                            !b.keys.contains(k),
                            "{:?} bound twice in {:?}",
                            k.label(),
                            a.scope
                        );
                    }
                }
            }
        }
    }
}
