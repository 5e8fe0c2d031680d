//! The workbench's daily flows through its screen text, on both formats: open a folder, edit
//! and save a memory, approve a proposal, undo from History.

use crossterm::event::KeyCode;

use super::{TOKEN, add, filed, workbench};
use crate::common;
use crate::common::formats::{BOTH, Folder};

#[test]
fn open_approve_edit_save_and_undo_read_alike_in_the_workbench_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "Alpha's body."));
        let body = format!("The CI token is {TOKEN}.");
        folder.ok(&common::cli::add_args("beta", "the CI credentials", &body));
        let id = filed(&folder);

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
        h.keys("a");
        h.keys("y");
        assert!(
            h.screen().contains(&format!("approve {id}: written")),
            "{format:?}: {}",
            h.screen()
        );
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
