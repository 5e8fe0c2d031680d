//! What the workbench shows of a Claude Code folder: index order, fields, the cut, the query, the
//! filter, the Sets view.

use super::*;

#[test]
fn topic_files_come_in_index_order_with_their_health_and_every_field() {
    let (_dir, mut h) = open(LoadLimits::default());
    let order = order(&h);
    assert_eq!(order[0], "user_role.md");
    assert_eq!(order.last().map(String::as_str), Some("scratch.md"));
    h.draw();
    let screen = h.screen();
    assert!(screen.contains("Claude Code auto memory"), "{screen}");
    assert!(screen.contains("Topic files (9)"), "{screen}");
    assert!(screen.contains("originSessionId"), "{screen}");
    assert!(
        screen.contains("7d0c2b9e-41a6-4f53-8e2d-6b1f0c9a3e57"),
        "{screen}"
    );
    assert!(screen.contains("node_type"), "{screen}");
    assert!(screen.contains("MEMORY.md: all 19 lines load"), "{screen}");
    assert!(!screen.contains("not loaded past here"), "{screen}");
    assert!(
        screen.contains("⚠ feedback_commit_style"),
        "invalid YAML in a topic file is a warning (Claude Code never parses it): {screen}"
    );
    assert!(screen.contains("⚠ scratch"), "{screen}");

    // The Record pane follows the selection, and shows the finding about the file.
    for _ in 0..3 {
        h.press(KeyCode::Down);
    }
    let screen = h.screen();
    assert!(
        screen.contains("Topic file: feedback_commit_style"),
        "{screen}"
    );
    assert!(screen.contains("frontmatter-invalid"), "{screen}");
}

#[test]
fn a_topic_file_with_an_empty_name_shows_its_file_name_marked() {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/accuracy/fm-agent-yaml"),
        &dir.path().join("memory"),
    );
    let mut h = Harness::claude(
        &dir.path().join("memory"),
        &dir.path().join("state"),
        LoadLimits::default(),
        150,
        45,
    );
    let at = order(&h)
        .iter()
        .position(|f| f == "project_发布流程.md")
        .expect("listed");
    for _ in 0..at {
        h.press(KeyCode::Down);
    }
    h.draw();
    let screen = h.screen();
    assert!(screen.contains("(no name: file name shown)"), "{screen}");
    assert!(
        screen.contains("Topic file: project_发布流程 (no name: file name shown)"),
        "{screen}"
    );
}

#[test]
fn the_index_pane_draws_the_cut() {
    let (_dir, mut h) = open(LoadLimits {
        lines: 10,
        ..LoadLimits::default()
    });
    h.draw();
    let screen = h.screen();
    assert!(
        screen.contains("── not loaded past here: 4 entries ──"),
        "{screen}"
    );
    assert!(
        screen.contains("MEMORY.md: CUT, 10 lines loaded"),
        "{screen}"
    );
}

#[test]
fn the_query_pane_selects_among_topic_files_and_jumps_to_one() {
    let (_dir, mut h) = open(LoadLimits::default());
    for _ in 0..3 {
        h.press(KeyCode::Tab);
    }
    assert_eq!(h.app.focus, Pane::Query);
    h.keys("i");
    h.keys("postgres tests");
    h.press(KeyCode::Enter);
    let result = h.app.query.result.clone().expect("a result");
    assert_eq!(result.names, ["feedback_integration_tests"]);
    assert!(
        result
            .rendered
            .contains("## feedback_integration_tests (feedback)")
    );
    assert!(h.screen().contains("feedback_integration_tests"));
    h.press(KeyCode::Enter);
    assert_eq!(h.app.focus, Pane::Manifest);
    assert_eq!(
        h.app.selected_topic_file().as_deref(),
        Some("feedback_integration_tests.md")
    );
}

#[test]
fn the_filter_works_on_topic_files() {
    let (_dir, mut h) = open(LoadLimits::default());
    h.keys("/postgres");
    h.press(KeyCode::Enter);
    let screen = h.screen();
    assert!(screen.contains("Topic files (1/9)"), "{screen}");
    assert_eq!(
        h.app.selected_topic_file().as_deref(),
        Some("feedback_integration_tests.md")
    );
}

#[test]
fn the_sets_view_lists_and_opens_either_format() {
    let (dir, mut h) = open(LoadLimits::default());
    assert!(matches!(
        h.app
            .update(Event::Key(crossterm::event::KeyEvent::from(KeyCode::Char(
                'S'
            ))))
            .as_slice(),
        [Effect::LoadSets]
    ));
    assert_eq!(h.app.view, View::Sets);
    h.draw();
    assert!(h.screen().contains("looking for memory folders"));

    // a .memory workspace beside it, with one record
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).expect("mkdir");
    let store = memwb::store::Store::open(&ws, Default::default()).expect("store");
    store
        .extend(vec![
            memwb::store::Record::new(
                "tabs",
                memwb::store::MemoryType::User,
                "prefers tabs",
                "tabs",
            )
            .expect("record"),
        ])
        .expect("seed");
    let other = row(memwb::formats::memory::FORMAT, store.root());
    let here = row(memwb::formats::claude::FORMAT, h.app.backend.root());
    h.send(Event::Sets(vec![other.clone(), here]));
    assert_eq!(h.app.sets.selected, 1, "the open folder is selected");
    assert!(h.screen().contains("ws/.memory"), "{}", h.screen());
    h.press(KeyCode::Up);
    h.press(KeyCode::Enter);
    assert_eq!(h.app.backend.format(), memwb::formats::memory::FORMAT);
    assert!(memwb::formats::claude::shown_topics(&h.app.shown).is_none());
    assert_eq!(h.app.view, View::Panes);
    let screen = h.screen();
    assert!(screen.contains("Manifest (1)"), "{screen}");
    assert!(screen.contains("tabs"), "{screen}");

    // S works on the .memory set too, and brings the Claude Code folder back
    h.keys("S");
    assert_eq!(h.app.view, View::Sets);
    let claude = row(
        memwb::formats::claude::FORMAT,
        &dir.path().join("memory").canonicalize().expect("real"),
    );
    h.send(Event::Sets(vec![other, claude]));
    h.press(KeyCode::Down);
    h.press(KeyCode::Enter);
    assert_eq!(h.app.backend.format(), memwb::formats::claude::FORMAT);
    assert!(h.screen().contains("Topic files (9)"), "{}", h.screen());
    h.keys("S");
    h.press(KeyCode::Esc);
    assert_eq!(h.app.view, View::Panes);
}

#[test]
fn a_topic_file_written_by_another_process_appears() {
    let (dir, mut h) = open(LoadLimits::default());
    std::fs::write(
        dir.path().join("memory/project_new.md"),
        "---\nname: project_new\ndescription: written meanwhile\ntype: project\n---\nbody\n",
    )
    .expect("write");
    h.claude_tick();
    let screen = h.screen();
    assert!(screen.contains("Topic files (10)"), "{screen}");
    assert!(screen.contains("project_new"), "{screen}");
    assert!(
        screen.contains("changed on disk: added project_new"),
        "the status line says what changed: {screen}"
    );
}
