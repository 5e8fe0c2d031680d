//! The keymap, held as data. Dispatch, the hints bar and the `?` help overlay all read this one
//! table, so they cannot drift apart.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Everything a key can ask the workbench to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    Help,
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
    QueryInput,
    // the Proposals and History views
    ShowProposals,
    ShowHistory,
    Back,
    Approve,
    Reject,
    Undo,
    // text input lines (filter, query)
    Submit,
    Cancel,
    // the in-pane editor
    Save,
    NextField,
    PrevField,
    CycleType,
    // a conflict after a failed save
    ShowDiff,
    Reapply,
    KeepEditing,
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
    Index,
    Query,
    Proposals,
    History,
    Input,
    Editor,
    Conflict,
    Confirm,
    Help,
}

impl Scope {
    pub fn title(self) -> &'static str {
        match self {
            Scope::Global => "Everywhere",
            Scope::Workbench => "The four panes",
            Scope::List => "Moving in a pane or a list",
            Scope::Manifest => "Manifest pane",
            Scope::Index => "MEMORY.md pane",
            Scope::Query => "Query pane",
            Scope::Proposals => "Proposals view",
            Scope::History => "History view",
            Scope::Input => "Typing a filter or a query",
            Scope::Editor => "Editor",
            Scope::Conflict => "Editor: after a conflicting change",
            Scope::Confirm => "Confirmation",
            Scope::Help => "Help",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const fn key(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::NONE,
    }
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        mods: KeyModifiers::CONTROL,
    }
}

const fn code(code: KeyCode) -> Key {
    Key {
        code,
        mods: KeyModifiers::NONE,
    }
}

impl Key {
    pub fn matches(&self, event: &KeyEvent) -> bool {
        if event.kind == KeyEventKind::Release {
            return false;
        }
        let mut mods = event.modifiers;
        // Shift is already in the character ('E'), and in BackTab.
        if matches!(event.code, KeyCode::Char(_) | KeyCode::BackTab) {
            mods.remove(KeyModifiers::SHIFT);
        }
        let code = match event.code {
            KeyCode::Char(c) if mods.contains(KeyModifiers::CONTROL) => {
                KeyCode::Char(c.to_ascii_lowercase())
            }
            other => other,
        };
        code == self.code && mods == self.mods
    }

    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_owned(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            other => format!("{other:?}"),
        };
        if self.mods.contains(KeyModifiers::CONTROL) {
            format!("C-{base}")
        } else {
            base
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
}

use Action as A;
use Scope as S;

const fn b(
    scope: Scope,
    keys: &'static [Key],
    action: Action,
    help: &'static str,
    hint: Option<&'static str>,
) -> Binding {
    Binding {
        scope,
        keys,
        action,
        help,
        hint,
    }
}

pub static BINDINGS: &[Binding] = &[
    // the help overlay swallows everything but its own keys
    b(
        S::Help,
        &[key('?'), code(KeyCode::Esc), key('q')],
        A::Cancel,
        "close the help",
        Some("close"),
    ),
    b(
        S::Help,
        &[key('j'), code(KeyCode::Down)],
        A::Down,
        "scroll down",
        None,
    ),
    b(
        S::Help,
        &[key('k'), code(KeyCode::Up)],
        A::Up,
        "scroll up",
        None,
    ),
    // confirmations
    b(S::Confirm, &[key('y')], A::Yes, "yes", Some("yes")),
    b(
        S::Confirm,
        &[key('n'), code(KeyCode::Esc)],
        A::No,
        "no",
        Some("no"),
    ),
    // conflict after a failed save
    b(
        S::Conflict,
        &[key('d')],
        A::ShowDiff,
        "show the difference between your edit and the record on disk",
        Some("diff"),
    ),
    b(
        S::Conflict,
        &[key('r')],
        A::Reapply,
        "reload the record and re-apply your changes on top",
        Some("reload+reapply"),
    ),
    b(
        S::Conflict,
        &[key('k'), code(KeyCode::Esc)],
        A::KeepEditing,
        "keep editing (nothing is saved)",
        Some("keep editing"),
    ),
    // the editor
    b(
        S::Editor,
        &[ctrl('s')],
        A::Save,
        "save: commit the edit through a transaction",
        Some("save"),
    ),
    b(
        S::Editor,
        &[code(KeyCode::Tab)],
        A::NextField,
        "next field",
        Some("field"),
    ),
    b(
        S::Editor,
        &[code(KeyCode::BackTab)],
        A::PrevField,
        "previous field",
        None,
    ),
    b(
        S::Editor,
        &[ctrl('t')],
        A::CycleType,
        "cycle the type (user, feedback, project, reference)",
        Some("type"),
    ),
    b(
        S::Editor,
        &[ctrl('q')],
        A::Quit,
        "quit the workbench (asks when there are unsaved changes)",
        None,
    ),
    b(
        S::Editor,
        &[code(KeyCode::Esc)],
        A::Cancel,
        "close the editor (asks when there are unsaved changes)",
        Some("close"),
    ),
    // a one-line input (filter, query)
    b(
        S::Input,
        &[code(KeyCode::Enter)],
        A::Submit,
        "apply",
        Some("apply"),
    ),
    b(
        S::Input,
        &[code(KeyCode::Esc)],
        A::Cancel,
        "cancel (a filter is cleared)",
        Some("cancel"),
    ),
    // everywhere else
    b(
        S::Global,
        &[key('q')],
        A::Quit,
        "quit (asks when there are unsaved changes)",
        Some("quit"),
    ),
    b(S::Global, &[key('?')], A::Help, "this help", Some("help")),
    b(
        S::Global,
        &[key('p')],
        A::ShowProposals,
        "the Proposals view (again: back to the four panes)",
        Some("proposals"),
    ),
    b(
        S::Global,
        &[key('H')],
        A::ShowHistory,
        "the History view: the journal, with undo (again: back)",
        Some("history"),
    ),
    b(S::Global, &[ctrl('r')], A::Reload, "reload from disk", None),
    b(
        S::Workbench,
        &[code(KeyCode::Tab)],
        A::FocusNext,
        "next pane",
        Some("pane"),
    ),
    b(
        S::Workbench,
        &[code(KeyCode::BackTab)],
        A::FocusPrev,
        "previous pane",
        None,
    ),
    b(
        S::Workbench,
        &[key('z')],
        A::Zoom,
        "zoom the focused pane",
        None,
    ),
    b(
        S::Workbench,
        &[key('e')],
        A::Edit,
        "edit the selected record here (an entry that does not read: repair its text)",
        Some("edit"),
    ),
    b(
        S::Workbench,
        &[key('E')],
        A::EditExternal,
        "edit the selected record in $VISUAL / $EDITOR",
        None,
    ),
    b(S::Workbench, &[key('n')], A::New, "new record", Some("new")),
    b(
        S::Workbench,
        &[key('d')],
        A::Delete,
        "delete the selected record (asks first); an entry that does not read: drop it from the manifest",
        Some("delete"),
    ),
    b(
        S::Workbench,
        &[key('R')],
        A::RebuildIndex,
        "rebuild MEMORY.md from the manifest (a transaction)",
        Some("rebuild index"),
    ),
    b(
        S::Proposals,
        &[key('a')],
        A::Approve,
        "approve the selected proposal: apply it through the engine (journaled)",
        Some("approve"),
    ),
    b(
        S::Proposals,
        &[key('x')],
        A::Reject,
        "reject the selected proposal (asks for a reason)",
        Some("reject"),
    ),
    b(
        S::Proposals,
        &[key('e')],
        A::Edit,
        "edit the proposed record marked ▶ before approving (validated like any edit)",
        Some("edit"),
    ),
    b(
        S::Proposals,
        &[key('h'), code(KeyCode::Left)],
        A::Left,
        "mark the previous proposed record",
        None,
    ),
    b(
        S::Proposals,
        &[key('l'), code(KeyCode::Right)],
        A::Right,
        "mark the next proposed record",
        Some("record"),
    ),
    b(
        S::Proposals,
        &[code(KeyCode::Esc)],
        A::Back,
        "back to the four panes",
        Some("back"),
    ),
    b(
        S::History,
        &[key('u')],
        A::Undo,
        "undo the selected entry (asks first; an undo can be undone too)",
        Some("undo"),
    ),
    b(
        S::History,
        &[code(KeyCode::Esc)],
        A::Back,
        "back to the four panes",
        Some("back"),
    ),
    b(
        S::Manifest,
        &[key('/')],
        A::Filter,
        "filter the records",
        Some("filter"),
    ),
    b(
        S::Query,
        &[key('i'), code(KeyCode::Enter), key('/')],
        A::QueryInput,
        "type a query",
        Some("query"),
    ),
    b(
        S::List,
        &[key('j'), code(KeyCode::Down)],
        A::Down,
        "down",
        None,
    ),
    b(S::List, &[key('k'), code(KeyCode::Up)], A::Up, "up", None),
    b(
        S::Index,
        &[key('h'), code(KeyCode::Left)],
        A::Left,
        "scroll left",
        None,
    ),
    b(
        S::Index,
        &[key('l'), code(KeyCode::Right)],
        A::Right,
        "scroll right",
        None,
    ),
    b(
        S::List,
        &[ctrl('d'), code(KeyCode::PageDown)],
        A::PageDown,
        "page down",
        None,
    ),
    b(
        S::List,
        &[ctrl('u'), code(KeyCode::PageUp)],
        A::PageUp,
        "page up",
        None,
    ),
    b(
        S::List,
        &[key('g'), code(KeyCode::Home)],
        A::Top,
        "first",
        None,
    ),
    b(
        S::List,
        &[key('G'), code(KeyCode::End)],
        A::Bottom,
        "last",
        None,
    ),
];

/// The action bound to `event` in the first of `scopes` that binds it.
pub fn lookup(scopes: &[Scope], event: &KeyEvent) -> Option<Action> {
    scopes.iter().find_map(|scope| {
        BINDINGS
            .iter()
            .filter(|b| b.scope == *scope)
            .find(|b| b.keys.iter().any(|k| k.matches(event)))
            .map(|b| b.action)
    })
}

/// The bindings of the hints bar for the active scopes, in table order, each key once.
pub fn hints(scopes: &[Scope]) -> Vec<(String, &'static str)> {
    let mut out: Vec<(String, &'static str)> = Vec::new();
    for scope in scopes {
        for binding in BINDINGS.iter().filter(|b| b.scope == *scope) {
            if let (Some(hint), Some(first)) = (binding.hint, binding.keys.first()) {
                let label = first.label();
                if !out.iter().any(|(l, _)| *l == label) {
                    out.push((label, hint));
                }
            }
        }
    }
    out
}

/// Every binding grouped by scope, for the help overlay: (scope title, [(keys, help)]).
pub fn help_sections() -> Vec<(&'static str, Vec<(String, &'static str)>)> {
    let order = [
        S::Global,
        S::Workbench,
        S::List,
        S::Manifest,
        S::Index,
        S::Query,
        S::Proposals,
        S::History,
        S::Input,
        S::Editor,
        S::Conflict,
        S::Confirm,
    ];
    order
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
