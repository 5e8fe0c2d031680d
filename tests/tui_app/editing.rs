//! Editing in the workbench: save, rename, invalid edits, the live budget, conflicts, new, delete,
//! index, quitting, an external editor.

use super::*;

#[test]
fn edit_and_save_commits_a_transaction() {
    let mut h = three();
    h.press(KeyCode::Char('j'));
    let before_file = other(&h)
        .read()
        .expect("read")
        .get("beta")
        .expect("beta")
        .file
        .clone();
    h.press(KeyCode::Char('e'));
    assert!(h.screen().contains("Edit beta"));
    h.keys("new line ");
    assert!(h.screen().contains("✓ valid"));
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "closed after the commit");
    let after = other(&h).read().expect("read");
    let entry = after.get("beta").expect("beta");
    assert_eq!(entry.record.body(), "new line beta body");
    assert_ne!(entry.file, before_file, "a new file version was committed");
    assert!(
        !h.root().join(&before_file).exists(),
        "the replaced file is gone"
    );
    assert!(
        h.screen().contains("save beta: written (changed beta)"),
        "{}",
        h.screen()
    );
    assert_eq!(selected(&h).as_deref(), Some("beta"));
}

#[test]
fn rename_by_editing_the_name() {
    let mut h = three();
    h.press(KeyCode::Char('e'));
    h.press(KeyCode::Tab); // body -> name
    h.ctrl('k'); // clear the line
    h.keys("omega");
    h.ctrl('s');
    let names: Vec<String> = other(&h)
        .records()
        .expect("read")
        .iter()
        .map(|r| r.name().to_owned())
        .collect();
    // The renamed record keeps its place.
    assert_eq!(names, ["omega", "beta", "gamma"]);
    assert_eq!(selected(&h).as_deref(), Some("omega"));
}

#[test]
fn invalid_edit_is_not_saved_and_stays_in_the_editor() {
    let mut h = three();
    let files = h.file_names();
    h.press(KeyCode::Char('e'));
    h.press(KeyCode::Tab);
    h.keys("Bad ");
    assert!(
        h.screen()
            .contains("✗ name: memory name must be a safe lowercase slug"),
        "{}",
        h.screen()
    );
    h.ctrl('s');
    assert!(h.app.editor.is_some());
    assert_eq!(h.file_names(), files, "nothing written");
    assert!(h.screen().contains("not saved"), "{}", h.screen());
}

#[test]
fn budget_is_counted_live() {
    let mut h = three();
    h.press(KeyCode::Char('e'));
    let big = "x".repeat(4100);
    h.app.editor.as_mut().expect("editor").set_value(3, &big);
    h.draw();
    let screen = h.screen();
    assert!(
        screen.contains("✗ file: memory file must not exceed 4096 UTF-8 bytes"),
        "{screen}"
    );
}

#[test]
fn conflicting_external_change_offers_diff_reload_and_keep() {
    let mut h = three();
    h.press(KeyCode::Char('e'));
    h.press(KeyCode::BackTab); // body -> description
    h.ctrl('k');
    h.keys("my description");
    // meanwhile another process edits the body
    let theirs = other(&h)
        .read()
        .expect("read")
        .get("alpha")
        .expect("alpha")
        .record
        .clone();
    other(&h)
        .replace(&theirs, record("alpha", "first record", "their body"))
        .expect("external replace");
    h.watcher_tick();
    assert!(
        h.screen()
            .contains("alpha was changed on disk since you opened it"),
        "{}",
        h.screen()
    );

    h.ctrl('s');
    let editor = h.app.editor.as_ref().expect("still editing");
    assert!(editor.conflict.is_some());
    assert!(
        h.screen().contains("memory collection changed"),
        "{}",
        h.screen()
    );
    assert_eq!(
        current(&h, "alpha").expect("alpha").body(),
        "their body",
        "nothing overwritten"
    );

    h.press(KeyCode::Char('d'));
    let screen = h.screen();
    assert!(screen.contains("on disk (-) vs your edit (+)"), "{screen}");
    assert!(
        screen.contains("-   their body") || screen.contains("- their body"),
        "{screen}"
    );

    h.press(KeyCode::Char('k'));
    assert!(h.app.editor.as_ref().expect("editor").conflict.is_none());
    h.ctrl('s');
    assert!(
        h.app.editor.as_ref().expect("editor").conflict.is_some(),
        "still based on the old version"
    );

    h.press(KeyCode::Char('r'));
    // issue 26 item 11: the failed save's status gives way
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.starts_with("re-applied your edit on the version on disk"),
        "{status}"
    );
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let merged = current(&h, "alpha").expect("alpha");
    assert_eq!(merged.description(), "my description");
    assert_eq!(merged.body(), "their body");
}

#[test]
fn record_removed_meanwhile_can_be_saved_again_as_new() {
    let mut h = three();
    h.press(KeyCode::Char('e'));
    h.keys("kept ");
    let theirs = current(&h, "alpha").expect("alpha");
    other(&h).remove(&[theirs]).expect("external remove");
    h.ctrl('s');
    assert!(
        h.screen().contains("memory collection changed"),
        "{}",
        h.screen()
    );
    let conflict = h
        .app
        .editor
        .as_ref()
        .and_then(|e| e.conflict.as_ref())
        .expect("conflict");
    assert!(
        conflict.current.is_none() && conflict.message.contains("was removed since it was read")
    );
    assert!(current(&h, "alpha").is_none());
    h.press(KeyCode::Char('r'));
    h.ctrl('s');
    assert_eq!(
        current(&h, "alpha").expect("re-added").body(),
        "kept alpha body"
    );
}

#[test]
fn new_record() {
    let mut h = three();
    h.press(KeyCode::Char('n'));
    assert!(h.screen().contains("New memory"));
    h.keys("delta");
    h.press(KeyCode::Tab);
    h.ctrl('k');
    h.keys("user");
    h.press(KeyCode::Tab);
    h.keys("fourth record");
    h.press(KeyCode::Tab);
    h.keys("delta body");
    h.press(KeyCode::Enter);
    h.keys("second line");
    h.ctrl('s');
    let delta = current(&h, "delta").expect("added");
    assert_eq!(delta.kind(), MemoryType::User);
    assert_eq!(delta.body(), "delta body\nsecond line");
    assert_eq!(selected(&h).as_deref(), Some("delta"));
}

#[test]
fn delete_asks_first() {
    let mut h = three();
    h.press(KeyCode::Char('j'));
    h.press(KeyCode::Char('d'));
    assert!(matches!(h.app.modal, Some(Modal::Confirm(_))));
    assert!(h.screen().contains("Delete beta?"));
    h.press(KeyCode::Char('n'));
    assert!(current(&h, "beta").is_some());
    h.press(KeyCode::Char('d'));
    h.press(KeyCode::Char('y'));
    assert!(current(&h, "beta").is_none());
    assert_eq!(h.app.manifest.visible.len(), 2);
    assert!(
        h.screen().contains("delete beta: written (removed beta)"),
        "{}",
        h.screen()
    );
}

#[test]
fn rebuild_index_through_the_engine() {
    let mut h = three();
    std::fs::write(h.root().join("MEMORY.md"), "- hand edited\n").expect("drift");
    h.watcher_tick();
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab);
    assert!(h.screen().contains("MEMORY.md: DRIFTED"), "{}", h.screen());
    assert!(h.screen().contains("- - hand edited"), "{}", h.screen());
    // R shows the fix first (the drifted line goes, the derived ones come) and writes on yes.
    h.press(KeyCode::Char('R'));
    assert!(h.screen().contains("Fix MEMORY.md"), "{}", h.screen());
    let text = std::fs::read_to_string(h.root().join("MEMORY.md")).expect("index");
    assert_eq!(text, "- hand edited\n", "shown, not written yet");
    h.press(KeyCode::Char('y'));
    let text = std::fs::read_to_string(h.root().join("MEMORY.md")).expect("index");
    assert_eq!(text, other(&h).read().expect("read").index_text());
    assert!(h.screen().contains("MEMORY.md: in sync"), "{}", h.screen());
}

#[test]
fn quitting_with_unsaved_changes_asks_first() {
    let mut h = three();
    h.press(KeyCode::Char('e'));
    h.keys("x");
    h.ctrl('q');
    assert!(!h.app.quit);
    assert!(h.screen().contains("Quit and lose the unsaved changes"));
    h.press(KeyCode::Char('n'));
    assert!(h.app.editor.is_some());
    h.press(KeyCode::Esc);
    assert!(
        h.screen()
            .contains("Close the editor and lose its unsaved changes?")
    );
    h.press(KeyCode::Char('y'));
    assert!(h.app.editor.is_none());
    h.press(KeyCode::Char('q'));
    assert!(h.app.quit);
}

#[test]
fn external_editor_edit_is_committed() {
    let mut h = three();
    let script = h.workspace.join("fake-editor.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nsed -i 's/^alpha body$/edited elsewhere/' \"$1\"\n",
    )
    .expect("script");
    h.editor = format!("sh {}", script.display());
    h.press(KeyCode::Char('E'));
    assert_eq!(
        current(&h, "alpha").expect("alpha").body(),
        "edited elsewhere"
    );
    assert!(
        h.screen().contains("save alpha: written (changed alpha)"),
        "{}",
        h.screen()
    );
}
