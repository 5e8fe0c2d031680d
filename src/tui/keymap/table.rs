//! The bindings: one row per action and scope, with the help text and the hints-bar word.

use crossterm::event::KeyCode;

use super::key::{code, ctrl, key};
use super::{Action, Binding, Key, Scope};

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
