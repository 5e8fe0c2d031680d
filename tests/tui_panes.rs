//! Every pane on ratatui's TestBackend, for the demo states, at 100x30 and 80x24.

use crate::tui_harness;

use crossterm::event::KeyCode;
use tui_harness::Harness;

const SIZES: [(u16, u16); 2] = [(100, 30), (80, 24)];

fn select(h: &mut Harness, name: &str) {
    h.press(KeyCode::Char('g'));
    for _ in 0..h.app.manifest.visible.len() {
        if h.selected_key_and_file().map(|(key, _)| key).as_deref() == Some(name) {
            return;
        }
        h.press(KeyCode::Down);
    }
    panic!("{name} not in the manifest");
}

#[test]
fn whole_workbench_on_the_demo() {
    for (w, h) in SIZES {
        let harness = Harness::demo(w, h);
        let screen = harness.screen();
        // all four panes are on screen together
        for title in ["Manifest (8)", "Record: prefers-tabs", "MEMORY.md", "Query"] {
            assert!(
                screen.contains(title),
                "{title} missing at {w}x{h}:\n{screen}"
            );
        }
        insta::assert_snapshot!(format!("demo_{w}x{h}"), screen);
    }
}

#[test]
fn manifest_pane_shows_states_extras_lock_and_budget() {
    for (w, h) in SIZES {
        let mut harness = Harness::demo(w, h);
        harness.press(KeyCode::Char('z'));
        let screen = harness.screen();
        assert!(screen.contains("✗ deploy-notes-5eed"), "{screen}");
        assert!(screen.contains("invalid   record frontmatter"), "{screen}");
        assert!(
            screen.contains("unlisted old-draft-5eed00ffdeadbeef0badf00d1234ab00.md"),
            "{screen}"
        );
        assert!(
            screen.contains("temp     .3f2a9c0d4e5b6a7f8091a2b3c4d5e6f7.tmp"),
            "{screen}"
        );
        assert!(screen.contains("lock free"), "{screen}");
        assert!(screen.contains("index lines"), "{screen}");
        insta::assert_snapshot!(format!("manifest_{w}x{h}"), screen);
    }
}

#[test]
fn record_pane_valid_cjk_invalid_and_hostile() {
    for (w, h) in SIZES {
        for name in [
            "answer-in-chinese",
            "deploy-notes-5eed0008c4e6f4a1d2b3c4d5e6f70809.md",
            "hostile-note",
            "release-checklist",
        ] {
            let mut harness = Harness::demo(w, h);
            select(&mut harness, name);
            harness.press(KeyCode::Tab);
            harness.press(KeyCode::Char('z'));
            let screen = harness.screen();
            assert!(!screen.contains('\u{1b}'), "raw ESC on screen");
            let short = name.split('-').take(2).collect::<Vec<_>>().join("-");
            insta::assert_snapshot!(format!("record_{short}_{w}x{h}"), screen);
        }
    }
}

#[test]
fn invalid_record_shows_raw_text_error_and_line() {
    let mut h = Harness::demo(100, 30);
    select(&mut h, "deploy-notes-5eed0008c4e6f4a1d2b3c4d5e6f70809.md");
    h.press(KeyCode::Tab);
    h.press(KeyCode::Char('z'));
    let screen = h.screen();
    assert!(screen.contains("not valid YAML at line 3"), "{screen}");
    assert!(
        screen.contains("  3▶ description: How to deploy: run make deploy"),
        "{screen}"
    );
}

#[test]
fn hostile_record_is_shown_inert() {
    let mut h = Harness::demo(100, 30);
    select(&mut h, "hostile-note");
    h.press(KeyCode::Tab);
    h.press(KeyCode::Char('z'));
    let screen = h.screen();
    assert!(screen.contains("window title: ␛]0;pwned␇"), "{screen}");
    assert!(screen.contains("clear screen: ␛[2J␛[H"), "{screen}");
    assert!(screen.contains("tab:    after a tab"), "{screen}");
}

#[test]
fn index_pane_marks_drift() {
    for (w, h) in SIZES {
        let mut harness = Harness::demo(w, h);
        harness.press(KeyCode::Tab);
        harness.press(KeyCode::Tab);
        harness.press(KeyCode::Char('z'));
        let screen = harness.screen();
        assert!(screen.contains("DRIFTED"), "{screen}");
        assert!(screen.contains("- - [release-freeze]"), "{screen}");
        assert!(screen.contains("+ - [hostile-note]"), "{screen}");
        insta::assert_snapshot!(format!("index_{w}x{h}"), screen);
    }
}

#[test]
fn query_pane() {
    for (w, h) in SIZES {
        let mut harness = Harness::demo(w, h);
        harness.press(KeyCode::BackTab);
        harness.press(KeyCode::Char('i'));
        harness.keys("release freeze");
        harness.press(KeyCode::Enter);
        harness.press(KeyCode::Char('z'));
        let screen = harness.screen();
        assert!(screen.contains("query> release freeze"), "{screen}");
        insta::assert_snapshot!(format!("query_{w}x{h}"), screen);
    }
}

#[test]
fn help_overlay_and_editor() {
    for (w, h) in SIZES {
        let mut harness = Harness::demo(w, h);
        harness.press(KeyCode::Char('?'));
        insta::assert_snapshot!(format!("help_{w}x{h}"), harness.screen());
        harness.press(KeyCode::Esc);
        harness.press(KeyCode::Char('e'));
        insta::assert_snapshot!(format!("editor_{w}x{h}"), harness.screen());
    }
}

/// The demo with its invalid entry dropped from the manifest (by hand, as a person would fix
/// it), so the set is readable and the agent selects.
fn readable_demo(w: u16, h: u16) -> Harness {
    let mut harness = Harness::demo(w, h);
    let path = harness.root().join("manifest.json");
    let text = std::fs::read_to_string(&path).expect("manifest");
    let mut value: serde_json::Value = serde_json::from_str(&text).expect("json");
    let files = value["files"].as_array_mut().expect("files");
    files.retain(|f| !f.as_str().unwrap_or("").starts_with("deploy-notes-"));
    std::fs::write(&path, value.to_string()).expect("write");
    harness.watcher_tick();
    harness
}

#[test]
fn query_pane_on_a_readable_set() {
    for (w, h) in SIZES {
        let mut harness = readable_demo(w, h);
        harness.press(KeyCode::BackTab);
        harness.press(KeyCode::Char('i'));
        harness.keys("release freeze 中文回答");
        harness.press(KeyCode::Enter);
        harness.press(KeyCode::Char('z'));
        let screen = harness.screen();
        let result = harness.app.query.result.clone().expect("result");
        assert_eq!(
            result.names,
            ["answer-in-chinese", "release-freeze", "release-checklist"]
        );
        assert!(
            screen.contains("selected (keyword fallback): answer-in-chinese"),
            "{screen}"
        );
        assert!(screen.contains("<relevant_memories>"), "{screen}");
        insta::assert_snapshot!(format!("query_readable_{w}x{h}"), screen);
    }
}
