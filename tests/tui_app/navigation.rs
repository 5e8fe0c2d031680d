//! Moving around the workbench: keys, mouse, resize, the filter and its line editing, the help and
//! the keymap's docs.

use super::*;

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
