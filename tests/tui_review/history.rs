//! The History view: repairing and dropping an entry that does not read, every change journaled,
//! the newest first.

use super::*;

fn select_entry(h: &mut Harness, prefix: &str) {
    h.press(KeyCode::Char('g'));
    for _ in 0..h.app.manifest.visible.len() {
        if h.selected_key_and_file()
            .is_some_and(|(_, file)| file.starts_with(prefix))
        {
            return;
        }
        h.press(KeyCode::Char('j'));
    }
    panic!("{prefix} not listed");
}

#[test]
fn repair_the_demo_invalid_entry_then_edit() {
    let mut h = Harness::demo(100, 30);
    assert!(!h.inspection().is_readable());
    select_entry(&mut h, "deploy-notes-");
    h.press(KeyCode::Char('e'));
    let screen = h.screen();
    assert!(screen.contains("Repair deploy-notes-"), "{screen}");
    assert!(
        screen.contains("description: How to deploy: run make deploy"),
        "{screen}"
    );
    assert!(
        screen.contains("line 3"),
        "the parse error and its line:\n{screen}"
    );
    // saving the unparsable text is refused and stays in the editor
    h.ctrl('s');
    assert!(h.app.editor.is_some());
    assert!(!h.inspection().is_readable());
    // quote the description (line 3), as the error asks
    let editor = h.app.editor.as_mut().expect("editor");
    let fixed = editor.value(3).replace(
        "description: How to deploy: run make deploy from a clean checkout",
        "description: \"How to deploy: run make deploy from a clean checkout\"",
    );
    editor.set_value(3, &fixed);
    h.draw();
    assert!(
        h.screen().contains("✓ parses as a valid record file"),
        "{}",
        h.screen()
    );
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    assert!(h.inspection().is_readable(), "the set reads again");
    let set = other(&h).read().expect("readable");
    assert_eq!(
        set.get("deploy-notes")
            .expect("deploy-notes")
            .record
            .description(),
        "How to deploy: run make deploy from a clean checkout"
    );
    let repair = journal(&h).pop().expect("entry");
    assert_eq!(repair.op, Op::Repair);
    assert!(
        h.screen().contains("repair deploy-notes-"),
        "{}",
        h.screen()
    );
    // now everything works: an edit, journaled like the CLI's
    select_entry(&mut h, "prefers-tabs-");
    h.press(KeyCode::Char('e'));
    h.keys("Confirmed. ");
    h.ctrl('s');
    let set = other(&h).read().expect("readable");
    assert!(
        set.get("prefers-tabs")
            .expect("r")
            .record
            .body()
            .starts_with("Confirmed. ")
    );
    assert_eq!(journal(&h).pop().expect("entry").op, Op::Set);
    // and the ready demo proposal can be approved
    h.press(KeyCode::Char('p'));
    select_proposal(&mut h, "7e1d2c3b4a59");
    h.press(KeyCode::Char('a'));
    h.press(KeyCode::Char('y')); // confirms the approval
    assert!(
        other(&h)
            .read()
            .expect("read")
            .get("ci-blocks-release")
            .is_some(),
        "{}",
        h.screen()
    );
}

#[test]
fn drop_an_entry_that_does_not_read() {
    let mut h = Harness::demo(100, 30);
    select_entry(&mut h, "deploy-notes-");
    h.press(KeyCode::Char('d'));
    assert!(h.screen().contains("Drop deploy-notes-"), "{}", h.screen());
    h.press(KeyCode::Char('y'));
    assert!(h.inspection().is_readable(), "{}", h.screen());
    let files = other(&h).read().expect("readable").files();
    assert!(files.iter().all(|f| !f.starts_with("deploy-notes-")));
    assert_eq!(journal(&h).pop().expect("entry").op, Op::Repair);
}

#[test]
fn an_entry_changed_after_it_was_shown_is_not_dropped() {
    let mut h = Harness::demo(100, 30);
    select_entry(&mut h, "deploy-notes-");
    let (_, file) = h.selected_key_and_file().expect("entry");
    h.press(KeyCode::Char('d'));
    let path = other(&h).root().join(&file);
    std::fs::write(&path, "---\nsomeone: else\n---\n\nchanged meanwhile\n").expect("write");
    h.press(KeyCode::Char('y'));
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.contains("from the manifest failed: memory collection ch"),
        "{status}"
    );
    let listed = other(&h).inspect().entries.iter().any(|e| e.file == file);
    assert!(listed, "still in the manifest");
    assert!(path.exists());
}

#[test]
fn every_workbench_change_is_journaled() {
    let mut h = three(100, 30);
    h.press(KeyCode::Char('n'));
    h.keys("zeta");
    h.press(KeyCode::Tab);
    h.press(KeyCode::Tab);
    h.keys("a new one");
    h.press(KeyCode::Tab);
    h.keys("z");
    h.ctrl('s');
    assert!(names(&h).contains(&"zeta".to_owned()), "{}", h.screen());
    h.press(KeyCode::Char('g'));
    h.press(KeyCode::Char('d'));
    h.press(KeyCode::Char('y'));
    // R shows the fix first and writes it on yes; an index in sync needs none.
    h.press(KeyCode::Char('R'));
    assert!(
        h.screen().contains("MEMORY.md needs no fix"),
        "{}",
        h.screen()
    );
    std::fs::write(h.root().join("MEMORY.md"), "hand-edited\n").expect("drift");
    h.ctrl('r');
    h.press(KeyCode::Char('R'));
    assert!(h.screen().contains("- hand-edited"), "{}", h.screen());
    h.press(KeyCode::Char('y'));
    let ops: Vec<Op> = journal(&h).iter().map(|e| e.op).collect();
    assert_eq!(ops, [Op::Add, Op::Rm, Op::RebuildIndex]);
}

#[test]
fn history_opens_on_the_newest_entry_as_it_is_now() {
    let mut h = three(100, 30);
    let save = |h: &mut Harness| {
        h.press(KeyCode::Char('e'));
        h.keys("more ");
        h.ctrl('s');
        assert!(h.app.editor.is_none(), "{}", h.screen());
    };
    save(&mut h);
    h.press(KeyCode::Char('H'));
    let first = journal(&h).last().map(|e| e.id);
    assert_eq!(h.app.history.selected_entry().map(|e| e.id), first);
    h.press(KeyCode::Esc);
    // two more changes, each a journal entry
    save(&mut h);
    save(&mut h);
    h.press(KeyCode::Char('H'));
    let newest = journal(&h).last().map(|e| e.id);
    assert_eq!(h.app.history.selected_entry().map(|e| e.id), newest);
    assert!(newest.is_some());
}
