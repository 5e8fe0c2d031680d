//! The whole workbench driven by key and mouse events; the engine runs for real on a temporary
//! workspace, so every save is a committed transaction on disk.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::store::{MemoryType, Record, Store, StoreOptions};
use memwb::tui::app::{Event, Modal};
use memwb::tui::keymap::{self, Action, Scope};
use memwb::tui::panes::Pane;
use tui_harness::Harness;

fn record(name: &str, description: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, description, body).expect("valid")
}

/// A workspace holding alpha, beta, gamma (in that order).
fn three() -> Harness {
    let h = Harness::empty(100, 30);
    h.store()
        .extend(vec![
            record("alpha", "first record", "alpha body"),
            record("beta", "second record", "beta body"),
            record("gamma", "third record", "gamma body"),
        ])
        .expect("extend");
    let mut h = h;
    h.watcher_tick();
    h
}

/// Another handle on the same folder, as another process would have.
fn other(h: &Harness) -> Store {
    Store::open(&h.workspace, StoreOptions::default()).expect("open")
}

fn selected(h: &Harness) -> Option<String> {
    h.app.selected_record().map(|r| r.name().to_owned())
}

fn current(h: &Harness, name: &str) -> Option<Record> {
    other(h)
        .read()
        .expect("readable")
        .get(name)
        .map(|e| e.record.clone())
}

#[test]
fn navigate_with_vim_keys_arrows_tab_and_mouse() {
    let mut h = three();
    assert_eq!(selected(&h).as_deref(), Some("alpha"));
    h.press(KeyCode::Char('j'));
    assert_eq!(selected(&h).as_deref(), Some("beta"));
    h.press(KeyCode::Down);
    h.press(KeyCode::Down);
    assert_eq!(selected(&h).as_deref(), Some("gamma"), "stays on the last");
    h.press(KeyCode::Char('g'));
    assert_eq!(selected(&h).as_deref(), Some("alpha"));
    h.press(KeyCode::Char('G'));
    assert_eq!(selected(&h).as_deref(), Some("gamma"));
    h.press(KeyCode::Up);
    assert_eq!(selected(&h).as_deref(), Some("beta"));
    assert!(h.screen().contains("Record: beta"));

    h.press(KeyCode::Tab);
    assert_eq!(h.app.focus, Pane::Record);
    h.press(KeyCode::Tab);
    assert_eq!(h.app.focus, Pane::Index);
    h.press(KeyCode::BackTab);
    h.press(KeyCode::BackTab);
    assert_eq!(h.app.focus, Pane::Manifest);

    // mouse: click the third row of the list (the block border is row 0)
    let area = h.app.areas.manifest;
    h.press(KeyCode::Tab);
    h.click(area.x + 3, area.y + 3);
    assert_eq!(h.app.focus, Pane::Manifest);
    assert_eq!(selected(&h).as_deref(), Some("gamma"));
    let record = h.app.areas.record;
    h.click(record.x + 2, record.y + 2);
    assert_eq!(h.app.focus, Pane::Record);
}

#[test]
fn resize_keeps_working() {
    let mut h = three();
    h.resize(80, 24);
    assert!(h.screen().contains("Manifest (3)"));
    h.resize(60, 12);
    h.resize(100, 30);
    assert!(h.screen().contains("Record: alpha"));
}

#[test]
fn filter_narrows_the_list_and_esc_clears_it() {
    let mut h = three();
    h.press(KeyCode::Char('/'));
    h.keys("gam");
    assert_eq!(h.app.manifest.visible.len(), 1);
    assert_eq!(selected(&h).as_deref(), Some("gamma"));
    assert!(h.screen().contains("Manifest (1/3)"));
    h.press(KeyCode::Enter);
    // the filter stays after Enter, keys act on the list again
    h.press(KeyCode::Char('j'));
    assert_eq!(h.app.manifest.visible.len(), 1);
    h.press(KeyCode::Char('/'));
    h.press(KeyCode::Esc);
    assert_eq!(h.app.manifest.visible.len(), 3);
    assert_eq!(selected(&h).as_deref(), Some("gamma"), "selection kept");
}

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
fn help_overlay_lists_the_keymap_and_hints_come_from_it() {
    let mut h = three();
    h.press(KeyCode::Char('?'));
    let screen = h.screen();
    assert!(screen.contains("Keys (? or Esc closes)"));
    // the help starts with the keys of where you are: the Manifest pane's
    for (_, rows) in keymap::help_sections()
        .iter()
        .filter(|(title, _)| *title == Scope::Manifest.title())
    {
        for (keys, help) in rows {
            // a long help wraps: its start is on a row of its own
            let start: String = help.chars().take(30).collect();
            assert!(
                screen.contains(&start),
                "{help} ({keys}) missing from the help:\n{screen}"
            );
        }
    }
    // keys other than the help's own do nothing while it is open
    h.press(KeyCode::Char('q'));
    assert!(!h.app.quit);
    assert!(h.app.modal.is_none());
    // the hints bar names the keymap's hints (tests/tui_keys.rs checks each against dispatch)
    let bar = h.screen().lines().last().unwrap_or_default().to_owned();
    for action in [Action::Filter, Action::Quit, Action::Help] {
        let binding = keymap::BINDINGS
            .iter()
            .find(|b| b.action == action && h.app.scopes().contains(&b.scope))
            .expect("bound here");
        let hint = format!(
            "{} {}",
            binding.keys[0].label(),
            binding.hint.unwrap_or_default()
        );
        assert!(bar.contains(&hint), "{hint}: {bar}");
    }
    h.press(KeyCode::Char('q'));
    assert!(h.app.quit);
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
fn external_commit_reloads_keeping_the_selection_and_says_what_changed() {
    let mut h = three();
    h.press(KeyCode::Char('j'));
    h.press(KeyCode::Char('j'));
    assert_eq!(selected(&h).as_deref(), Some("gamma"));
    let s = other(&h);
    let alpha = current(&h, "alpha").expect("alpha");
    s.remove(&[alpha]).expect("remove");
    s.extend(vec![record("zeta", "new", "z")]).expect("add");
    h.watcher_tick();
    assert_eq!(
        selected(&h).as_deref(),
        Some("gamma"),
        "selection follows the record"
    );
    let screen = h.screen();
    assert!(
        screen.contains("changed on disk: added zeta; removed alpha"),
        "{screen}"
    );
    // the selected record vanishes: the selection stays at its position
    let gamma = current(&h, "gamma").expect("gamma");
    s.remove(&[gamma]).expect("remove");
    h.watcher_tick();
    assert_eq!(selected(&h).as_deref(), Some("zeta"));
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

#[test]
fn hostile_text_in_names_of_files_and_errors_is_inert() {
    let mut h = three();
    // an unlisted file whose name holds an escape sequence, and a hostile body
    std::fs::write(h.root().join("evil-\u{1b}[2J.md"), "x").expect("file");
    let s = other(&h);
    s.extend(vec![record(
        "evil",
        "desc \u{1b}]0;title\u{7}",
        "body \u{1b}[31m \u{9b}2J",
    )])
    .expect("add");
    h.watcher_tick();
    // the last row is the unlisted file (shown in the Record pane, inert), the one above it evil
    h.press(KeyCode::Char('G'));
    let screen = h.screen();
    assert!(
        !screen.contains('\u{1b}') && !screen.contains('\u{7}'),
        "{screen}"
    );
    assert!(screen.contains("unlisted: evil-␛[2J.md"), "{screen}");
    h.press(KeyCode::Char('k'));
    let screen = h.screen();
    assert!(!screen.contains('\u{1b}') && !screen.contains('\u{7}') && !screen.contains('\u{9b}'));
    assert!(screen.contains("evil-␛[2J.md"), "{screen}");
    assert!(screen.contains("desc ␛]0;title␇"), "{screen}");
    assert!(screen.contains("body ␛[31m ⍰9B2J"), "{screen}");
}

#[test]
fn query_shows_the_selection_and_the_injected_text() {
    let mut h = three();
    h.press(KeyCode::BackTab);
    assert_eq!(h.app.focus, Pane::Query);
    h.press(KeyCode::Char('i'));
    h.keys("second record");
    h.press(KeyCode::Enter);
    let result = h.app.query.result.clone().expect("a result");
    assert_eq!(result.names, ["beta", "alpha", "gamma"]);
    assert_eq!(result.how, "keyword fallback");
    let expected = memwb::session::selection::render_selected(
        &["beta", "alpha", "gamma"].map(|n| current(&h, n).expect("record")),
    );
    assert_eq!(result.rendered, expected);
    h.press(KeyCode::Char('z'));
    let screen = h.screen();
    assert!(
        screen.contains("selected (keyword fallback): beta, alpha, gamma"),
        "{screen}"
    );
    assert!(screen.contains("<relevant_memories>"), "{screen}");
    assert!(screen.contains("## beta (project)"), "{screen}");
}

#[test]
fn a_late_answer_to_an_earlier_query_is_ignored() {
    let mut h = three();
    h.press(KeyCode::BackTab);
    h.press(KeyCode::Char('i'));
    h.keys("second record");
    h.press(KeyCode::Enter);
    let latest = h.app.query.result.clone().expect("a result");
    // a selection for an older query finishing last (a slow model) must not replace it
    let mut stale = latest.clone();
    stale.query = "an older query".into();
    stale.names = vec!["gamma".into()];
    h.send(Event::Query(stale));
    assert_eq!(h.app.query.result.as_ref(), Some(&latest));
}

#[test]
fn query_on_an_unreadable_set_selects_nothing() {
    let mut h = Harness::demo(100, 30);
    h.press(KeyCode::BackTab);
    h.press(KeyCode::Char('i'));
    h.keys("release");
    h.press(KeyCode::Enter);
    let result = h.app.query.result.clone().expect("a result");
    assert!(result.names.is_empty() && result.rendered.is_empty());
    assert!(
        result
            .error
            .expect("error")
            .contains("Memory selection failed")
    );
}

#[test]
fn the_docs_list_every_binding() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/workbench.md"))
        .expect("docs");
    for (_, rows) in keymap::help_sections() {
        for (keys, help) in rows {
            let keys: Vec<String> = keys.split(' ').map(|k| format!("`{k}`")).collect();
            let row = format!("| {} | {help} |", keys.join(" "));
            assert!(doc.contains(&row), "docs/workbench.md lacks {row}");
        }
    }
}

#[test]
fn another_record_starts_at_the_top_even_when_a_filter_selected_it() {
    let mut h = Harness::empty(100, 30);
    let long: String = (1..=80).map(|i| format!("line {i}\n")).collect();
    h.store()
        .extend(vec![
            record("alpha", "first record", &long),
            record("beta", "second record", &long),
        ])
        .expect("extend");
    h.watcher_tick();
    h.press(KeyCode::Tab); // the Record pane
    h.press(KeyCode::PageDown);
    h.press(KeyCode::PageDown);
    assert!(h.app.record.view.scroll > 0);
    h.press(KeyCode::BackTab); // back to the Manifest
    h.press(KeyCode::Char('/'));
    h.keys("beta"); // the selection moves to beta without a move key
    h.press(KeyCode::Enter);
    assert!(h.screen().contains("Record: beta"), "{}", h.screen());
    assert_eq!(h.app.record.view.scroll, 0);
}

#[test]
fn the_filter_line_edits_like_a_shell_line() {
    let mut h = three();
    h.keys("/betx");
    h.press(KeyCode::Left);
    h.press(KeyCode::Backspace);
    assert_eq!(h.app.manifest.filter.text(), "bex");
    h.press(KeyCode::Right);
    h.press(KeyCode::Backspace);
    h.keys("ta");
    h.ctrl('a');
    h.keys("-");
    h.ctrl('e');
    assert_eq!(h.app.manifest.filter.text(), "-beta");
    h.ctrl('a');
    h.ctrl('k');
    h.keys("gamma one two");
    h.ctrl('w');
    h.ctrl('w');
    assert_eq!(h.app.manifest.filter.text(), "gamma ");
    h.press(KeyCode::Home);
    h.press(KeyCode::Right);
    h.ctrl('u');
    assert_eq!(h.app.manifest.filter.text(), "amma ");
    h.press(KeyCode::End);
    h.press(KeyCode::Backspace);
    h.press(KeyCode::Enter);
    assert_eq!(selected(&h).as_deref(), Some("gamma"));
    assert_eq!(h.app.manifest.visible.len(), 1);
    // Up recalls the filter applied before
    h.keys("/");
    h.press(KeyCode::Esc);
    h.keys("/");
    h.press(KeyCode::Up);
    assert_eq!(h.app.manifest.filter.text(), "amma");
    h.press(KeyCode::Down);
    assert_eq!(h.app.manifest.filter.text(), "");
}

#[test]
fn reopening_the_query_selects_it_so_typing_replaces_it() {
    let mut h = three();
    h.press(KeyCode::BackTab);
    h.keys("i");
    h.keys("second record");
    h.press(KeyCode::Enter);
    h.keys("i");
    assert!(h.app.query.input.is_selected());
    h.keys("third");
    assert_eq!(h.app.query.input.text(), "third");
    h.press(KeyCode::Enter);
    assert_eq!(h.app.query.result.clone().expect("result").query, "third");
    // a move keeps the old text and edits it in place
    h.keys("i");
    h.press(KeyCode::Home);
    h.keys("the ");
    assert_eq!(h.app.query.input.text(), "the third");
    // the history holds both earlier queries
    h.press(KeyCode::Up);
    assert_eq!(h.app.query.input.text(), "third");
    h.press(KeyCode::Up);
    assert_eq!(h.app.query.input.text(), "second record");
    h.press(KeyCode::Down);
    h.press(KeyCode::Down);
    assert_eq!(h.app.query.input.text(), "the third");
}

#[test]
fn enter_in_the_query_pane_jumps_to_the_chosen_memory() {
    let mut h = three();
    h.keys("/gamma");
    h.press(KeyCode::Enter);
    assert_eq!(selected(&h).as_deref(), Some("gamma"));
    h.press(KeyCode::BackTab);
    h.press(KeyCode::Enter);
    assert!(
        h.app
            .status
            .clone()
            .expect("status")
            .text
            .contains("no selected memory"),
        "Enter before a query says what to do"
    );
    h.keys("i");
    h.keys("second record");
    h.press(KeyCode::Enter);
    assert_eq!(
        h.app.query.result.clone().expect("result").names,
        ["beta", "alpha", "gamma"]
    );
    h.keys("ll");
    h.press(KeyCode::Char('h'));
    h.press(KeyCode::Enter);
    assert_eq!(h.app.focus, Pane::Manifest);
    assert_eq!(selected(&h).as_deref(), Some("alpha"));
    assert!(h.app.manifest.filter.is_empty(), "the filter hid alpha");
    let status = h.app.status.clone().expect("status").text;
    assert_eq!(status, "jumped to alpha; filter cleared to show it");
    assert!(h.screen().contains("Record: alpha"), "{}", h.screen());
}

/// An outside commit reaches the screen through the real watcher, which reads only what the
/// commit changed (issue 27): what the workbench shows is exactly what a fresh load shows.
#[test]
fn an_outside_commit_shows_exactly_the_new_state() {
    let mut h = three();
    h.start_watch();
    let theirs = other(&h);
    let fresh = |h: &Harness| h.store().inspect().entries;

    theirs
        .extend(vec![record("delta", "fourth record", "delta body")])
        .expect("add");
    h.watch_until(|change| change.added == ["delta"]);
    assert_eq!(h.inspection().entries, fresh(&h));
    assert!(h.screen().contains("delta"), "{}", h.screen());
    assert!(
        h.screen().contains("changed on disk: added delta"),
        "{}",
        h.screen()
    );

    let beta = current(&h, "beta").expect("beta");
    theirs
        .replace(
            &beta,
            record("beta", "rewritten elsewhere", "new beta body"),
        )
        .expect("replace");
    h.watch_until(|change| change.changed == ["beta"]);
    assert_eq!(h.inspection().entries, fresh(&h));
    h.press(KeyCode::Char('j')); // alpha -> beta
    assert_eq!(selected(&h).as_deref(), Some("beta"));
    assert!(h.screen().contains("new beta body"), "{}", h.screen());

    let gamma = current(&h, "gamma").expect("gamma");
    theirs.remove(&[gamma]).expect("remove");
    h.watch_until(|change| change.removed == ["gamma"]);
    assert_eq!(h.inspection().entries, fresh(&h));
    let shown = h.inspection();
    let names: Vec<&str> = shown.valid_records().map(Record::name).collect();
    assert_eq!(names, ["alpha", "beta", "delta"]);
    assert!(!h.screen().contains("gamma body"), "{}", h.screen());
}

/// News from the watcher of a folder that is no longer open (another was opened since) is
/// ignored, whatever it says; the same news about the folder open is shown.
#[test]
fn a_watchers_news_about_another_folder_is_ignored() {
    use memwb::formats::{Change, Seen, WatchEvent, Watched};
    let mut h = three();
    other(&h)
        .extend(vec![record("delta", "fourth record", "delta body")])
        .expect("add");
    let inspection = std::sync::Arc::new(h.store().inspect());
    let news = |root: std::path::PathBuf| {
        Event::Watch(Watched {
            root,
            event: WatchEvent::Changed(Change {
                at_ms: 0,
                added: vec!["delta".into()],
                removed: Vec::new(),
                changed: Vec::new(),
                unreadable: None,
                seen: Seen::Memory(inspection.clone()),
            }),
        })
    };
    let elsewhere = tempfile::tempdir().expect("dir");
    h.send(news(elsewhere.path().join(".memory")));
    assert!(!h.screen().contains("delta"), "{}", h.screen());
    h.send(news(h.app.backend.root().to_owned()));
    assert!(
        h.screen().contains("changed on disk: added delta"),
        "{}",
        h.screen()
    );
}
