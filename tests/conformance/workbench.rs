//! The workbench's daily flows through its screen text, on both formats: open a folder, edit
//! and save a memory, approve a proposal, undo from History.

use crossterm::event::KeyCode;

use super::{TOKEN, add, approve_in_workbench, filed, workbench};
use crate::common;
use crate::common::formats::{BOTH, Folder, Format};

#[test]
fn open_approve_edit_save_and_undo_read_alike_in_the_workbench_on_both_formats() {
    for format in BOTH {
        let (folder, id) = alpha_and_a_filed_token(format);

        let mut h = workbench(&folder);
        let screen = h.screen();
        for name in ["alpha", "beta"] {
            assert!(
                screen.contains(name),
                "{format:?}: {name} not listed: {screen}"
            );
        }
        assert!(!screen.contains(TOKEN), "{format:?}: {screen}");

        // Approve the redaction `check --fix` filed: asked first, written on yes.
        h.keys("p");
        let screen = h.screen();
        assert!(screen.contains(&id), "{format:?}: {screen}");
        approve_in_workbench(&mut h, &id, format);
        let shown = folder.ok(&["show", "beta"]);
        assert!(
            !shown.contains(TOKEN) && shown.contains("[REDACTED]"),
            "{format:?}: {shown}"
        );

        // Back to the list; edit alpha's description and save it.
        h.press(KeyCode::Esc);
        h.press(KeyCode::Home);
        let before = folder.state();
        h.keys("e");
        let screen = h.screen();
        h.app
            .editor
            .as_mut()
            .unwrap_or_else(|| panic!("{format:?}: no editor: {screen}"))
            .set_value(memwb::tui::editor::DESCRIPTION, "alpha, described anew");
        h.ctrl('s');
        assert!(h.app.editor.is_none(), "{format:?}: {}", h.screen());
        let status = h.app.status.clone().expect("status").text;
        assert!(status.contains(": written"), "{format:?}: {status}");
        let listed = folder.ok(&["ls"]);
        assert!(
            listed.contains("alpha, described anew"),
            "{format:?}: {listed}"
        );
        assert!(
            h.screen().contains("alpha, described anew"),
            "{format:?}: {}",
            h.screen()
        );

        // History says what the save did; undo from there puts it back.
        h.keys("H");
        let screen = h.screen();
        assert!(screen.contains("changed alpha"), "{format:?}: {screen}");
        h.keys("u");
        h.keys("y");
        assert_eq!(folder.state(), before, "{format:?}: undone");
        let screen = h.screen();
        assert!(screen.contains("undoes #"), "{format:?}: {screen}");
    }
}

/// Sets one field of the open editor.
fn field(h: &mut crate::tui_harness::Harness, field: usize, value: &str) {
    if h.app.editor.is_none() {
        panic!("no editor: {}", h.screen());
    }
    if let Some(editor) = h.app.editor.as_mut() {
        editor.set_value(field, value);
    }
}

/// The rest of a day's work in the workbench, on both formats, through screen text: a new
/// memory (`n`), a rename in the editor, a deletion (`d`, asked first), a proposal rejected
/// with a reason (`x`); History words each entry as `memwb log` does, and undoing the deletion
/// there brings the memory back as it was.
#[test]
fn new_rename_delete_reject_and_history_read_alike_in_the_workbench_on_both_formats() {
    use memwb::tui::editor::{BODY, DESCRIPTION, NAME, TYPE};
    for format in BOTH {
        let (folder, id) = alpha_and_a_filed_token(format);
        let mut h = workbench(&folder);

        h.keys("n");
        field(&mut h, NAME, "gamma");
        field(&mut h, TYPE, "project");
        field(&mut h, DESCRIPTION, "the third one");
        field(&mut h, BODY, "Gamma's body.");
        h.ctrl('s');
        assert!(h.app.editor.is_none(), "{format:?}: {}", h.screen());
        let shown = folder.ok(&["show", "gamma"]);
        assert!(shown.contains("Gamma's body."), "{format:?}: {shown}");
        assert!(
            h.screen().contains("the third one"),
            "{format:?}: {}",
            h.screen()
        );

        // gamma is selected after its save; rename it.
        h.keys("e");
        field(&mut h, NAME, "delta");
        h.ctrl('s');
        assert!(h.app.editor.is_none(), "{format:?}: {}", h.screen());
        let listed = folder.ok(&["ls"]);
        assert!(
            listed.contains("delta") && !listed.contains("gamma"),
            "{format:?}: {listed}"
        );
        let status = h.app.status.clone().expect("status").text;
        assert!(
            status.starts_with("rename gamma to delta: written"),
            "{format:?}: {status}"
        );
        // Only the status line, saying what the save did, still names gamma.
        let screen = h.screen();
        assert!(
            screen.contains("delta")
                && screen
                    .lines()
                    .all(|l| !l.contains("gamma") || l.contains(": written (")),
            "{format:?}: {screen}"
        );

        // Delete it: asked first, naming it; gone on yes.
        let before_delete = folder.state();
        h.keys("d");
        assert!(h.app.modal.is_some(), "{format:?}: {}", h.screen());
        assert!(h.screen().contains("delta"), "{format:?}: {}", h.screen());
        h.keys("y");
        let listed = folder.ok(&["ls"]);
        assert!(!listed.contains("delta"), "{format:?}: {listed}");

        // Reject the redaction with a reason: no memory changes.
        let memories = folder.state();
        h.keys("p");
        h.keys("x");
        h.keys("rotated already");
        h.press(KeyCode::Enter);
        assert!(
            h.screen().contains(&format!("rejected {id}")),
            "{format:?}: {}",
            h.screen()
        );
        assert_eq!(
            folder.state(),
            memories,
            "{format:?}: a rejection writes no memory"
        );
        h.press(KeyCode::Esc);

        // History says each entry as `memwb log` does; undo the deletion from there.
        h.keys("H");
        let screen = h.screen();
        // The rejection's line is cut at the screen's edge; its reason is in the entry's detail.
        let log = folder.ok(&["log"]);
        for (said, logged) in [
            ("added gamma", "added gamma"),
            ("renamed gamma to delta", "renamed gamma to delta"),
            ("removed delta", "removed delta"),
            ("rotated already", "reason: rotated already"),
        ] {
            assert!(
                screen.contains(said),
                "{format:?}: History lacks {said:?}: {screen}"
            );
            assert!(
                log.contains(logged),
                "{format:?}: log lacks {logged:?}: {log}"
            );
        }
        // Newest first: the rejection, then the removal.
        let removal = folder.entry_ids()[4];
        h.press(KeyCode::Home);
        h.keys("j");
        h.keys("u");
        h.keys("y");
        assert_eq!(folder.state(), before_delete, "{format:?}: delta is back");
        let screen = h.screen();
        assert!(
            screen.contains(&format!("undoes #{removal}")),
            "{format:?}: {screen}"
        );
    }
}

/// A folder of `format` holding alpha and beta, beta with a credential, and the redaction
/// `check --fix` filed for it (its id).
fn alpha_and_a_filed_token(format: Format) -> (Folder, String) {
    let folder = Folder::new(format);
    folder.ok(&add("alpha", "Alpha's body."));
    let body = format!("The CI token is {TOKEN}.");
    folder.ok(&common::cli::add_args("beta", "the CI credentials", &body));
    let id = filed(&folder);
    (folder, id)
}

/// A list row draws a memory's description with its credentials redacted, on both formats, as
/// the memory pane and the audit do (the Topic files list drew a Claude Code description whole).
#[test]
fn a_list_row_draws_its_description_redacted_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        let description = format!("{TOKEN} for CI");
        folder.ok(&common::cli::add_args("beta", &description, "Beta's body."));
        let mut h = workbench(&folder);
        // alpha selected: beta's description is only on its row
        h.press(KeyCode::Home);
        let screen = h.screen();
        let row = screen
            .lines()
            .find(|l| l.contains("beta"))
            .unwrap_or_else(|| panic!("{format:?}: beta not listed: {screen}"));
        assert!(
            row.contains("[REDACTED] for CI"),
            "{format:?}: {row}\n{screen}"
        );
        assert!(!screen.contains(&TOKEN[..8]), "{format:?}: {screen}");
    }
}

/// With no memory to select, the memory pane says so in the same words on both formats (a
/// Claude Code folder said "no topic file selected").
#[test]
fn an_empty_folder_says_no_memory_selected_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        let h = workbench(&folder);
        let screen = h.screen();
        assert!(
            screen.contains("(no memory selected)"),
            "{format:?}: {screen}"
        );
    }
}
