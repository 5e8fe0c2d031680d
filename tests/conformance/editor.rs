//! The workbench's record editor through its screen text, on both formats: one editor that
//! opens a memory's file, saves its fields against that text and names the memory alike.

use crossterm::event::KeyCode;
use memwb::tui::editor::{DESCRIPTION, NAME};

use super::{add, workbench};
use crate::common::formats::{BOTH, Folder, Format};
use crate::tui_harness::Harness;

/// Selects the memory named `name` in the list.
fn select(h: &mut Harness, name: &str, format: Format) {
    h.press(KeyCode::Home);
    for _ in 0..h.app.manifest.visible.len() {
        if h.app.selected_name_and_file().map(|(n, _)| n).as_deref() == Some(name) {
            return;
        }
        h.press(KeyCode::Char('j'));
    }
    panic!("{format:?}: {name} not listed: {}", h.screen());
}

/// The folder read again, as its watcher would after another program's write.
fn watcher_sees(h: &mut Harness, format: Format) {
    match format {
        Format::Memory => h.watcher_tick(),
        Format::Claude => h.claude_tick(),
    }
}

fn set_field(h: &mut Harness, field: usize, value: &str) {
    match h.app.editor.as_mut() {
        Some(editor) => editor.set_value(field, value),
        None => panic!("no editor: {}", h.screen()),
    }
}

/// The editor's title, its banner when the memory changed on disk and the question before a
/// deletion name the memory by its name on both formats (a Claude Code folder named its topic
/// file in all three).
#[test]
fn the_editor_names_the_memory_it_opened_alike_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "First body."));
        folder.ok(&add("beta", "Second body."));
        let mut h = workbench(&folder);
        select(&mut h, "alpha", format);

        h.keys("e");
        let screen = h.screen();
        assert!(screen.contains(" Edit alpha "), "{format:?}: {screen}");

        folder.ok(&["set", "alpha", "--body", "Their body."]);
        watcher_sees(&mut h, format);
        h.draw();
        let screen = h.screen();
        assert!(
            screen.contains("alpha was changed on disk since you opened it"),
            "{format:?}: {screen}"
        );

        h.press(KeyCode::Esc);
        assert!(h.app.editor.is_none(), "{format:?}: {}", h.screen());
        h.keys("d");
        let screen = h.screen();
        assert!(
            screen.contains("Delete alpha? This is journaled"),
            "{format:?}: {screen}"
        );
        h.keys("n");
    }
}

/// A rename that the list's filter no longer matches keeps the memory selected by clearing the
/// filter, and says so, on both formats (a Claude Code folder cleared it without a word).
#[test]
fn a_rename_the_filter_hides_keeps_the_memory_selected_and_says_so_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "First body."));
        folder.ok(&add("beta", "Second body."));
        let mut h = workbench(&folder);
        h.keys("/alpha");
        h.press(KeyCode::Enter);
        h.keys("e");
        set_field(&mut h, NAME, "gamma");
        set_field(&mut h, DESCRIPTION, "renamed");
        h.ctrl('s');
        assert!(h.app.editor.is_none(), "{format:?}: {}", h.screen());
        let status = h.app.status.clone().map(|s| s.text).unwrap_or_default();
        assert!(
            status.starts_with("rename alpha to gamma: written")
                && status.ends_with("; filter cleared to keep it selected"),
            "{format:?}: {status}"
        );
        assert_eq!(
            h.app.selected_name_and_file().map(|(name, _)| name),
            Some("gamma".to_owned()),
            "{format:?}"
        );
    }
}

/// `E` hands the selected memory's file to `$VISUAL`/`$EDITOR` and saves the edit on both
/// formats (a Claude Code folder refused it).
#[test]
fn e_edits_the_memory_in_the_external_editor_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "First body."));
        let mut h = workbench(&folder);
        select(&mut h, "alpha", format);
        h.editor = "sed -i s/First/Edited/".into();
        h.keys("E");
        let status = h.app.status.clone().map(|s| s.text).unwrap_or_default();
        assert!(
            status.starts_with("save alpha: written"),
            "{format:?}: {status}"
        );
        let shown = folder.ok(&["show", "alpha"]);
        assert!(shown.contains("Edited body."), "{format:?}: {shown}");
    }
}

/// After a conflicting save is re-applied, the editor lists the fields both sides changed on
/// both formats (a Claude Code folder left the choice without the line that names them).
#[test]
fn a_reapplied_edit_names_the_fields_both_sides_changed_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "First body."));
        let mut h = workbench(&folder);
        select(&mut h, "alpha", format);
        h.keys("e");
        set_field(&mut h, DESCRIPTION, "mine");
        folder.ok(&["set", "alpha", "--description", "theirs"]);
        h.ctrl('s');
        let conflicted = h.app.editor.as_ref().is_some_and(|e| e.conflict.is_some());
        assert!(conflicted, "{format:?}: {}", h.screen());
        h.keys("r");
        let screen = h.screen();
        assert!(
            screen.contains("re-applied; changed on both sides: description"),
            "{format:?}: {screen}"
        );
        let shown = folder.ok(&["show", "alpha"]);
        assert!(shown.contains("theirs"), "{format:?}: nothing overwritten");
    }
}
