//! The workbench on a Claude Code folder without a terminal: its state driven by keys, its
//! screen drawn on ratatui's TestBackend, on a copy of tests/fixtures/claude.

mod common;

use std::path::Path;

use common::copy_dir;
use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use memwb::claude::{ClaudeFolder, LoadLimits, READ_ONLY};
use memwb::folder::{Format, IndexUse, Summary};
use memwb::tui::claude::{ClaudeApp, Effect, View, ui};
use memwb::tui::panes::Pane;
use memwb::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn app(limits: LoadLimits) -> (tempfile::TempDir, ClaudeApp) {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claude/config/projects/-home-dev-shop/memory"),
        &dir.path().join("memory"),
    );
    // A PID no process can have: no consolidation is running.
    std::fs::write(dir.path().join("memory/.consolidate-lock"), "4194305").expect("lock");
    let folder = ClaudeFolder::open(&dir.path().join("memory"), limits).expect("open");
    let snapshot = Arc::new(folder.read());
    (dir, ClaudeApp::new(folder, snapshot, Theme::plain()))
}

fn press(app: &mut ClaudeApp, code: KeyCode) -> Vec<Effect> {
    app.key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn draw(app: &mut ClaudeApp) -> String {
    let mut terminal = Terminal::new(TestBackend::new(150, 45)).expect("terminal");
    terminal.draw(|frame| ui::render(frame, app)).expect("draw");
    let buffer = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            out.push_str(buffer[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

#[test]
fn topic_files_come_in_index_order_with_their_health_and_every_field() {
    let (_dir, mut app) = app(LoadLimits::default());
    assert_eq!(app.order[0], "user_role.md");
    assert_eq!(app.order.last().map(String::as_str), Some("scratch.md"));
    let screen = draw(&mut app);
    assert!(screen.contains("Claude Code auto memory"), "{screen}");
    assert!(screen.contains("originSessionId"), "{screen}");
    assert!(
        screen.contains("7d0c2b9e-41a6-4f53-8e2d-6b1f0c9a3e57"),
        "{screen}"
    );
    assert!(screen.contains("node_type"), "{screen}");
    assert!(screen.contains("MEMORY.md: all 19 lines load"), "{screen}");
    assert!(!screen.contains("not loaded past here"), "{screen}");
    assert!(
        screen.contains("✗ feedback_commit_style"),
        "invalid YAML is an error: {screen}"
    );
    assert!(screen.contains("⚠ scratch"), "{screen}");

    // The Record pane follows the selection, and shows the finding about the file.
    for _ in 0..3 {
        press(&mut app, KeyCode::Down);
    }
    let screen = draw(&mut app);
    assert!(screen.contains("Record: feedback_commit_style"), "{screen}");
    assert!(screen.contains("frontmatter-invalid"), "{screen}");
}

#[test]
fn the_index_pane_draws_the_cut() {
    let (_dir, mut app) = app(LoadLimits {
        lines: 10,
        ..LoadLimits::default()
    });
    let screen = draw(&mut app);
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
fn write_keys_say_read_only_and_change_nothing() {
    let (dir, mut app) = app(LoadLimits::default());
    let before = std::fs::read(dir.path().join("memory/MEMORY.md")).expect("read");
    for key in ['e', 'E', 'n', 'd', 'R', 'p', 'H', 'u', 'a', 'x'] {
        app.status = None;
        assert!(press(&mut app, KeyCode::Char(key)).is_empty());
        assert_eq!(app.status, Some((true, READ_ONLY.to_owned())), "{key}");
    }
    assert_eq!(
        std::fs::read(dir.path().join("memory/MEMORY.md")).expect("read"),
        before
    );
}

#[test]
fn the_query_pane_selects_among_topic_files() {
    let (_dir, mut app) = app(LoadLimits::default());
    press(&mut app, KeyCode::Char('i'));
    assert_eq!(app.focus, Pane::Query);
    for c in "postgres tests".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    let (_, names, rendered) = app.query.result.clone().expect("a result");
    assert_eq!(names, ["feedback_integration_tests"]);
    assert!(rendered.contains("## feedback_integration_tests (feedback)"));
    assert!(draw(&mut app).contains("feedback_integration_tests"));
}

#[test]
fn the_sets_view_lists_and_opens() {
    let (dir, mut app) = app(LoadLimits::default());
    assert_eq!(press(&mut app, KeyCode::Char('S')), vec![Effect::LoadSets]);
    assert_eq!(app.view, View::Sets);
    assert!(draw(&mut app).contains("looking for memory folders"));
    let row = |format, path: &Path| Summary {
        format,
        path: path.display().to_string(),
        project: None,
        records: 1,
        errors: 0,
        warnings: 0,
        index: IndexUse {
            lines: 1,
            max_lines: 200,
            size: 10,
            max_size: 25000,
            unit: "utf16",
        },
        last_change: None,
    };
    let other = row(Format::Memory, &dir.path().join("ws/.memory"));
    let here = row(Format::Claude, app.folder.root());
    app.sets_loaded(vec![other.clone(), here]);
    assert_eq!(app.sets_selected, 1, "the open folder is selected");
    let screen = draw(&mut app);
    assert!(screen.contains("ws/.memory"), "{screen}");
    press(&mut app, KeyCode::Up);
    assert_eq!(press(&mut app, KeyCode::Enter), vec![Effect::Open(other)]);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.view, View::Panes);
}
