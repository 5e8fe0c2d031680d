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
        spare: false,
    }
}

/// A binding whose hint shows only where the bar has room after every other (see `spare`).
const fn spare(
    scope: Scope,
    keys: &'static [Key],
    action: Action,
    help: &'static str,
    hint: &'static str,
) -> Binding {
    let mut binding = b(scope, keys, action, help, Some(hint));
    binding.spare = true;
    binding
}

// One row per binding, so the table reads as a table: rustfmt would spread each over seven lines.
#[rustfmt::skip]
pub static BINDINGS: &[Binding] = &[
    // the help overlay swallows everything but its own keys
    b(S::Help, &[key('?'), code(KeyCode::Esc), key('q')], A::Cancel, "close the help", Some("close")),
    b(S::Help, &[key('j'), code(KeyCode::Down)], A::Down, "scroll down", Some("scroll")),
    b(S::Help, &[key('k'), code(KeyCode::Up)], A::Up, "scroll up", None),
    b(S::Help, &[ctrl('d'), code(KeyCode::PageDown), key(' ')], A::PageDown, "page down", Some("page")),
    b(S::Help, &[ctrl('u'), code(KeyCode::PageUp)], A::PageUp, "page up", None),
    b(S::Help, &[key('g'), code(KeyCode::Home)], A::Top, "to the top", None),
    b(S::Help, &[key('G'), code(KeyCode::End)], A::Bottom, "to the end", Some("end")),
    // confirmations
    b(S::Confirm, &[key('y')], A::Yes, "yes", Some("yes")),
    b(S::Confirm, &[key('n'), code(KeyCode::Esc)], A::No, "no", Some("no")),
    b(S::Confirm, &[key('j'), code(KeyCode::Down)], A::Down, "scroll the question down (a long diff)", Some("scroll")),
    b(S::Confirm, &[key('k'), code(KeyCode::Up)], A::Up, "scroll the question up", None),
    b(S::Confirm, &[ctrl('d'), code(KeyCode::PageDown), key(' ')], A::PageDown, "page down", Some("page")),
    b(S::Confirm, &[ctrl('u'), code(KeyCode::PageUp)], A::PageUp, "page up", None),
    b(S::Confirm, &[key('g'), code(KeyCode::Home)], A::Top, "to the top", None),
    b(S::Confirm, &[key('G'), code(KeyCode::End)], A::Bottom, "to the end", None),
    // conflict after a failed save
    b(S::Conflict, &[key('d')], A::ShowDiff, "show the difference between your edit and the memory on disk", Some("diff")),
    b(S::Conflict, &[key('r')], A::Reapply, "reload the memory and merge your changes in (a field both changed: you choose)", Some("reload+reapply")),
    b(S::Conflict, &[key('k'), code(KeyCode::Esc)], A::KeepEditing, "keep editing (nothing is saved)", Some("keep editing")),
    // a field both sides changed
    b(S::Merge, &[key('m')], A::TakeMine, "keep your value of the field both sides changed", Some("keep yours")),
    b(S::Merge, &[key('t')], A::TakeTheirs, "take the value on disk now for the field both sides changed", Some("take theirs")),
    // the editor
    b(S::Editor, &[ctrl('s')], A::Save, "save: write the edit (journaled: History undoes it)", Some("save")),
    b(S::Editor, &[code(KeyCode::Tab)], A::NextField, "next field", Some("field")),
    b(S::Editor, &[code(KeyCode::BackTab)], A::PrevField, "previous field", None),
    b(S::Editor, &[ctrl('t')], A::CycleType, "cycle the type (user, feedback, project, reference)", Some("type")),
    b(S::Editor, &[ctrl('q')], A::Quit, "quit the workbench (asks when there are unsaved changes)", None),
    b(S::Editor, &[code(KeyCode::Esc)], A::Cancel, "close the editor (asks when there are unsaved changes)", Some("close")),
    // The editing keys inside a field are the text area's (Emacs-like), except these two, which
    // match the one-line inputs: C-u deletes to the start of the line everywhere.
    b(S::Editor, &[ctrl('u')], A::KillToStart, "delete to the start of the line (as in every one-line input)", None),
    b(S::Editor, &[ctrl('z')], A::Undo, "undo the last change to the field's text (C-r redoes it)", None),
    // a one-line input (filter, query, reason), edited like a shell line
    b(S::Input, &[code(KeyCode::Enter)], A::Submit, "apply", Some("apply")),
    b(S::Input, &[code(KeyCode::Esc)], A::Cancel, "cancel (a filter is cleared)", Some("cancel")),
    b(S::Input, &[code(KeyCode::Left), ctrl('b')], A::CursorLeft, "cursor left", None),
    b(S::Input, &[code(KeyCode::Right), ctrl('f')], A::CursorRight, "cursor right", None),
    b(S::Input, &[code(KeyCode::Home), ctrl('a')], A::LineStart, "to the start of the line", None),
    b(S::Input, &[code(KeyCode::End), ctrl('e')], A::LineEnd, "to the end of the line", None),
    b(S::Input, &[ctrl('u')], A::KillToStart, "delete to the start of the line", None),
    b(S::Input, &[ctrl('w')], A::KillWord, "delete the word before the cursor", None),
    b(S::Input, &[ctrl('k')], A::KillToEnd, "delete to the end of the line", None),
    b(S::Input, &[code(KeyCode::Up), ctrl('p')], A::HistoryPrev, "the previous line typed here (history)", Some("history")),
    b(S::Input, &[code(KeyCode::Down), ctrl('n')], A::HistoryNext, "the next line typed here (history)", None),
    // everywhere else
    b(S::Global, &[key('q')], A::Quit, "quit (asks when there are unsaved changes)", Some("quit")),
    b(S::Global, &[key('?')], A::Help, "this help", Some("help")),
    spare(S::Global, &[key('M')], A::MessageLog, "the message log: the last 100 status messages", "messages"),
    b(S::Global, &[key('p')], A::ShowProposals, "the Proposals view (again: back to the four panes)", Some("proposals")),
    b(S::Global, &[key('H')], A::ShowHistory, "the History view: the journal, with undo (again: back)", Some("history")),
    b(S::Global, &[key('S')], A::ShowSets, "the Sets view: every memory folder found (again: back)", Some("sets")),
    spare(S::Global, &[ctrl('r')], A::Reload, "reload from disk", "reload"),
    b(S::Sets, &[code(KeyCode::Enter)], A::OpenSet, "open the selected folder here (either format)", Some("open")),
    b(S::Sets, &[code(KeyCode::Esc)], A::Back, "back to the four panes", Some("back")),
    // Also named in the title of the Manifest pane when there are findings.
    spare(S::Global, &[key('F')], A::ShowFindings, "the Findings view: what check finds (again: back)", "findings"),
    b(S::Workbench, &[code(KeyCode::Tab)], A::FocusNext, "next pane", Some("pane")),
    b(S::Workbench, &[code(KeyCode::BackTab)], A::FocusPrev, "previous pane", None),
    spare(S::Workbench, &[key('z')], A::Zoom, "zoom the focused pane", "zoom"),
    b(S::Workbench, &[key('e')], A::Edit, "edit the selected memory here (an entry that does not read: repair its text)", Some("edit")),
    spare(S::Workbench, &[key('E')], A::EditExternal, "edit the selected memory's file in $VISUAL / $EDITOR", "$EDITOR"),
    b(S::Workbench, &[key('n')], A::New, "new memory", Some("new")),
    b(S::Workbench, &[key('d')], A::Delete, "delete the selected memory (asks first); an entry that does not read: drop it from the set", Some("delete")),
    spare(S::Workbench, &[key('y')], A::Yank, "copy the selected memory's name to the clipboard (OSC 52)", "copy name"),
    spare(S::Workbench, &[key('Y')], A::YankPath, "copy the path of the selected memory's file to the clipboard (OSC 52)", "copy path"),
    b(S::Workbench, &[key('R')], A::RebuildIndex, "show the fix of MEMORY.md as a diff, written on yes (as index --fix)", Some("rebuild index")),
    b(S::Proposals, &[key('a')], A::Approve, "approve the selected (or the marked) proposals: asks, then applies each through the engine (journaled)", Some("approve")),
    b(S::Proposals, &[key('x')], A::Reject, "reject the selected (or the marked) proposals (asks for a reason)", Some("reject")),
    spare(S::Proposals, &[key('b')], A::Rebase, "rebase the selected stale proposal: re-plan it against the current memories (a dedupe draft is recomputed)", "rebase"),
    b(S::Proposals, &[key('e')], A::Edit, "edit the proposed memory marked ▶ before approving (validated like any edit)", Some("edit")),
    b(S::Proposals, &[key(' ')], A::Mark, "mark or unmark the selected pending proposal, then move down (approve and reject act on the marked ones)", Some("mark")),
    b(S::Proposals, &[key('/')], A::Filter, "filter the proposals (id, kind, state, memories, origin)", Some("filter")),
    spare(S::Proposals, &[key('D')], A::ToggleDecided, "hide or show the decided proposals", "decided"),
    spare(S::Proposals, &[key('h'), code(KeyCode::Left)], A::Left, "mark the previous proposed memory", "previous memory"),
    b(S::Proposals, &[key('l'), code(KeyCode::Right)], A::Right, "mark the next proposed memory", Some("memory")),
    b(S::Proposals, &[code(KeyCode::Esc)], A::Back, "back to the four panes", Some("back")),
    b(S::History, &[key('u')], A::Undo, "undo the selected entry (asks first; an undo can be undone too)", Some("undo")),
    b(S::History, &[key('/')], A::Filter, "filter the journal (entry number, op, who, memories, proposal, reason)", Some("filter")),
    b(S::History, &[code(KeyCode::Esc)], A::Back, "back to the four panes", Some("back")),
    b(S::Findings, &[code(KeyCode::Enter)], A::JumpTo, "jump to the finding's memory and line in the four panes", Some("jump")),
    b(S::Findings, &[key('f')], A::FileFix, "file the finding's fix as a proposal (redaction, absolute date, dedupe; applies nothing); a stale path: edit the memory", Some("fix")),
    b(S::Findings, &[key('/')], A::Filter, "filter the findings (severity, code, memory, file, message): error shows the errors", Some("filter")),
    b(S::Findings, &[code(KeyCode::Esc)], A::Back, "back to the four panes", Some("back")),
    b(S::Manifest, &[key('/')], A::Filter, "filter the memories (name, type, description, file and body)", Some("filter")),
    spare(S::Manifest, &[key('a')], A::Adopt, "adopt the selected unlisted file into the set as it is (asks first)", "adopt"),
    b(S::Record, &[key('n')], A::NextMatch, "scroll to the next line matching the filter", Some("next match")),
    b(S::Record, &[key('N')], A::PrevMatch, "scroll to the previous line matching the filter", None),
    b(S::Index, &[key(']')], A::NextMatch, "scroll to the next drifted line", Some("next drift")),
    b(S::Index, &[key('[')], A::PrevMatch, "scroll to the previous drifted line", None),
    b(S::Query, &[key('i'), key('/')], A::QueryInput, "type a query", Some("query")),
    b(S::Query, &[key('h'), code(KeyCode::Left)], A::Left, "choose the previous selected memory", None),
    b(S::Query, &[key('l'), code(KeyCode::Right)], A::Right, "choose the next selected memory", None),
    // Named in the pane beside the names instead: the hints bar is full at 80 columns.
    b(S::Query, &[code(KeyCode::Enter)], A::JumpTo, "jump to the chosen selected memory in the four panes", None),
    // Named in the pane under a result instead: the hints bar is full at 80 columns.
    b(S::Query, &[key('s')], A::SaveCase, "save the query as an eval case, expecting its selection (editable first)", None),
    b(S::Query, &[key('t')], A::QueryTab, "switch between the selection and the eval cases", None),
    b(S::List, &[key('j'), code(KeyCode::Down)], A::Down, "down", None),
    b(S::List, &[key('k'), code(KeyCode::Up)], A::Up, "up", None),
    b(S::Index, &[key('h'), code(KeyCode::Left)], A::Left, "scroll left", None),
    b(S::Index, &[key('l'), code(KeyCode::Right)], A::Right, "scroll right", None),
    b(S::List, &[ctrl('d'), code(KeyCode::PageDown)], A::PageDown, "page down", None),
    b(S::List, &[ctrl('u'), code(KeyCode::PageUp)], A::PageUp, "page up", None),
    b(S::List, &[key('g'), code(KeyCode::Home)], A::Top, "first", None),
    b(S::List, &[key('G'), code(KeyCode::End)], A::Bottom, "last", None),
];
