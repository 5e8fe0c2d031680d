//! Issue 26's workbench items, found in a day of daily use: each drives the real workbench
//! (harness, TestBackend) on both formats where the behaviour is shared, and asserts on what
//! the screen says.

use crate::common;
use crate::tui_harness;

use std::path::Path;

use crossterm::event::KeyCode;
use memwb::claude::LoadLimits;
use memwb::formats::Summary;
use memwb::store::{MemoryType, Record};
use memwb::tui::app::{Event, View};
use memwb::tui::panes::Pane;
use tui_harness::{Harness, claude_fixture as claude, set_row as row};

fn record(name: &str, description: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, description, body).expect("valid")
}

/// alpha, beta, gamma.
fn three() -> Harness {
    tui_harness::alpha_beta_gamma(120, 36)
}

/// An unlisted record file beside alpha, beta and gamma.
fn three_and_a_stray() -> Harness {
    let mut h = three();
    let draft = record("old-draft", "a draft from before", "Draft body.");
    let bytes = memwb::store::codec::serialize(&draft).into_bytes();
    std::fs::write(h.root().join("old-draft-0badf00d.md"), bytes).expect("unlisted");
    h.watcher_tick();
    h
}

/// `S`, then the set at `path` chosen among `sets` and opened with Enter.
fn switch_to(h: &mut Harness, sets: Vec<Summary>, path: &Path) {
    h.keys("S");
    let want = path.display().to_string();
    let at = sets.iter().position(|s| s.path == want).expect("listed");
    h.send(Event::Sets(sets));
    h.press(KeyCode::Char('g'));
    for _ in 0..at {
        h.press(KeyCode::Down);
    }
    h.press(KeyCode::Enter);
    assert_eq!(h.app.backend.root(), path, "{}", h.screen());
}

/// Item 1: after `S` switches sets, the Findings view, the marks and the counts are the new
/// set's, never the previous one's.
#[test]
fn findings_follow_a_switch_of_sets() {
    let (dir, mut h) = claude(120, 36);
    h.keys("F");
    assert!(
        h.screen().contains("feedback_commit_style"),
        "the fixture's invalid YAML is found: {}",
        h.screen()
    );
    let ws = dir.path().join("ws");
    std::fs::create_dir(&ws).expect("mkdir");
    let store = memwb::store::Store::open(&ws, Default::default()).expect("store");
    store
        .extend(vec![record("tabs", "prefers tabs", "Indent with tabs.")])
        .expect("seed");
    let memory = store.root().to_owned();
    let here = h.app.backend.root().to_owned();
    switch_to(
        &mut h,
        vec![
            row(memwb::formats::claude::FORMAT, &here),
            row(memwb::formats::memory::FORMAT, &memory),
        ],
        &memory,
    );
    h.keys("F");
    let screen = h.screen();
    assert!(
        !screen.contains("feedback_commit_style") && !screen.contains("frontmatter-invalid"),
        "the Claude Code folder's findings are gone: {screen}"
    );
    assert!(screen.contains("Findings: ✗ 0"), "{screen}");
    assert!(h.app.manifest.marks.is_empty());
    // and back: the Claude Code folder's findings again, its marks in the Manifest
    switch_to(
        &mut h,
        vec![
            row(memwb::formats::claude::FORMAT, &here),
            row(memwb::formats::memory::FORMAT, &memory),
        ],
        &here,
    );
    h.keys("F");
    assert!(
        h.screen().contains("feedback_commit_style"),
        "{}",
        h.screen()
    );
    h.press(KeyCode::Esc);
    assert!(
        h.app
            .manifest
            .marks
            .contains_key("feedback_commit_style.md"),
        "{:?}",
        h.app.manifest.marks
    );
}
/// Item 1: a check of the previous set that finishes after the switch is not shown.
#[test]
fn a_late_check_of_the_previous_set_is_dropped() {
    let (_dir, h) = claude(120, 36);
    let old = std::sync::Arc::new(memwb::tui::panes::findings::audit(&h.app.backend));
    let mut other = three();
    other.send(Event::Audited(old));
    other.keys("F");
    let screen = other.screen();
    assert!(!screen.contains("feedback_commit_style"), "{screen}");
    assert!(other.app.manifest.marks.is_empty());
}

/// Item 2: Enter in the Query pane jumps to the chosen record though the Manifest's selection
/// sat on an unlisted file.
#[test]
fn query_enter_jumps_from_an_unlisted_row() {
    let mut h = three_and_a_stray();
    h.select_stray("old-draft-0badf00d.md");
    h.press(KeyCode::BackTab);
    assert_eq!(h.app.focus, Pane::Query);
    h.press(KeyCode::Char('i'));
    h.keys("deploys");
    h.press(KeyCode::Enter);
    h.press(KeyCode::Enter);
    let screen = h.screen();
    assert!(screen.contains("jumped to gamma"), "{screen}");
    assert_eq!(selected_name(&h).as_deref(), Some("gamma"));
}

/// Item 2: a Query result does not outlive a change of the set: it says the set changed and
/// how to run the query again; on an unreadable set too.
#[test]
fn a_query_result_is_dropped_when_the_set_changes() {
    let mut h = three();
    h.press(KeyCode::BackTab);
    h.press(KeyCode::Char('i'));
    h.keys("deploys");
    h.press(KeyCode::Enter);
    assert!(
        h.screen().contains("selected (keyword fallback): gamma"),
        "{}",
        h.screen()
    );
    h.store()
        .extend(vec![record(
            "delta",
            "deploys on fridays",
            "Never on a Friday.",
        )])
        .expect("add");
    h.watcher_tick();
    let screen = h.screen();
    assert!(
        !screen.contains("selected (keyword fallback): gamma"),
        "{screen}"
    );
    assert!(screen.contains("the set changed"), "{screen}");
    h.press(KeyCode::Enter);
    assert!(h.screen().contains("no selected memory"), "{}", h.screen());

    h.press(KeyCode::Char('i'));
    h.press(KeyCode::Enter);
    assert!(h.screen().contains("delta"), "{}", h.screen());
    std::fs::write(h.root().join("manifest.json"), "{ not json").expect("break");
    h.watcher_tick();
    assert!(h.screen().contains("the set changed"), "{}", h.screen());
    assert!(h.app.query.result.is_none());
}

/// Item 2 on a Claude Code folder: a changed topic file drops the result the same way.
#[test]
fn a_claude_query_result_is_dropped_when_the_folder_changes() {
    let (dir, mut h) = claude(150, 45);
    for _ in 0..3 {
        h.press(KeyCode::Tab);
    }
    assert_eq!(h.app.focus, Pane::Query);
    h.press(KeyCode::Char('i'));
    h.keys("release");
    h.press(KeyCode::Enter);
    assert!(h.app.query.result.is_some());
    std::fs::write(
        dir.path().join("memory/project_new.md"),
        "---\nname: project_new\ndescription: a release note\ntype: project\n---\nbody\n",
    )
    .expect("write");
    h.claude_tick();
    assert!(h.app.query.result.is_none());
    assert!(h.screen().contains("the set changed"), "{}", h.screen());
    let _ = View::Panes;
}

/// Item 3: the index fix's diff is longer than the screen: j, G, g, Space, C-d, PgDn and the
/// wheel scroll it; y still answers.
#[test]
fn a_long_confirmation_scrolls() {
    let (_dir, mut h) = claude(100, 14);
    h.keys("R");
    let Some(memwb::tui::app::Modal::Confirm(memwb::tui::app::Confirm::IndexFix(fix))) =
        h.app.modal.clone()
    else {
        panic!("R asks first: {}", h.screen());
    };
    let lines = memwb::tui::app::fix_lines(&fix);
    assert!(lines.len() > 12, "a diff longer than the screen: {lines:?}");
    let last = format!(
        "{} {}",
        lines.last().expect("a line").0,
        lines.last().expect("a line").1
    );
    let last: String = last.chars().take(40).collect();
    let first_screen = h.screen();
    assert!(!first_screen.contains(&last), "{first_screen}");
    h.keys("G");
    assert!(
        h.screen().contains(&last),
        "G shows the end: {}",
        h.screen()
    );
    h.keys("g");
    assert_eq!(h.screen(), first_screen, "g is back at the top");
    h.keys("j");
    assert_ne!(h.screen(), first_screen, "j scrolls");
    for key in [KeyCode::Char(' '), KeyCode::PageDown] {
        h.keys("g");
        h.press(key);
        assert_ne!(h.screen(), first_screen, "{key:?} pages");
    }
    h.keys("g");
    h.ctrl('d');
    assert_ne!(h.screen(), first_screen, "C-d pages");
    h.keys("g");
    h.scroll(50, 7, true);
    assert_ne!(h.screen(), first_screen, "the wheel scrolls");
    h.keys("y");
    assert!(h.app.modal.is_none());
}

/// Item 3: a wide character under a modal's left border does not eat the border. (At these
/// two widths the modal's border falls on either half of the descriptions' wide characters.)
#[test]
fn a_wide_character_below_a_modal_keeps_its_border() {
    for width in [100, 102] {
        let mut h = Harness::empty(width, 50);
        let records: Vec<Record> = (0..36)
            .map(|i| record(&format!("r{i:02}"), "回答时使用中文代码注释也用", "正文"))
            .collect();
        h.store().extend(records).expect("seed");
        h.watcher_tick();
        h.keys("d");
        let screen = h.screen();
        let question = "Delete r00?";
        let line = screen
            .lines()
            .find(|l| l.contains(question))
            .unwrap_or_else(|| panic!("{screen}"));
        assert!(line.contains(&format!("│{question}")), "{line}\n{screen}");
    }
}

/// Item 9: `?` lists the keys of where you are first, marked "(here)".
#[test]
fn the_help_lists_the_current_views_keys_first() {
    let mut h = three();
    h.keys("?");
    let screen = h.screen();
    let first = screen
        .lines()
        .find(|l| l.contains("(here)"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(first.contains("Manifest pane (here)"), "{screen}");
    h.press(KeyCode::Esc);
    h.keys("p?");
    let screen = h.screen();
    let first = screen.lines().find(|l| l.contains("(here)")).unwrap_or("");
    assert!(first.contains("Proposals view (here)"), "{screen}");
    let proposals = screen.find("Proposals view (here)").expect("listed");
    let manifest = screen.find("Manifest pane");
    assert!(manifest.is_none_or(|m| m > proposals), "{screen}");
}

/// The hints bar's last line.
fn hints(h: &Harness) -> String {
    h.screen().lines().last().unwrap_or("").to_owned()
}

/// Item 9: a wide bar names the keys that were never hinted; a narrow one still names quit
/// and help first.
#[test]
fn a_wide_hints_bar_names_every_command() {
    let mut h = three();
    h.resize(250, 36);
    let bar = hints(&h);
    for hint in [
        "F findings",
        "M messages",
        "z zoom",
        "E $EDITOR",
        "y copy name",
        "Y copy path",
        "C-r reload",
    ] {
        assert!(bar.contains(hint), "{hint} missing: {bar}");
    }
    h.keys("p");
    let bar = hints(&h);
    for hint in ["D decided", "h previous memory"] {
        assert!(bar.contains(hint), "{hint} missing: {bar}");
    }
    // no proposal is selected, so none can be rebased: the bar does not offer it
    assert!(!bar.contains("b rebase"), "{bar}");
    h.keys("p");
    h.resize(100, 30);
    let bar = hints(&h);
    assert!(bar.contains("q quit") && bar.contains("? help"), "{bar}");
}

/// Item 9: a printable character that is no key of the focused list starts its filter (or
/// the query) instead of being dropped; the rest of the word goes there too, letters that are
/// keys included.
#[test]
fn typing_into_a_list_starts_its_filter() {
    let mut h = three();
    h.keys("tabs");
    assert!(h.app.editor.is_none(), "no command ran");
    assert!(h.app.modal.is_none(), "no command ran");
    assert_eq!(h.app.manifest.filter.text(), "tabs");
    assert!(h.screen().contains("Manifest (2/3)"), "{}", h.screen());
    h.press(KeyCode::Esc);
    assert!(h.app.manifest.filter.text().is_empty());

    h.press(KeyCode::BackTab);
    assert_eq!(h.app.focus, Pane::Query);
    h.keys("fast deploys");
    assert_eq!(h.app.query.input.text(), "fast deploys");
    h.press(KeyCode::Enter);
    assert!(
        h.screen().contains("selected (keyword fallback): gamma"),
        "{}",
        h.screen()
    );

    // a letter that is a key keeps its command
    h.press(KeyCode::Tab);
    assert_eq!(h.app.focus, Pane::Manifest);
    h.keys("d");
    assert!(h.app.modal.is_some(), "d asks to delete: {}", h.screen());
    h.press(KeyCode::Esc);

    // the Sets view has no filter: the status says where typing goes
    h.keys("S");
    h.send(Event::Sets(Vec::new()));
    h.keys("x");
    assert!(
        h.screen().contains("the Sets view has no filter"),
        "{}",
        h.screen()
    );
}

/// Item 9: C-u deletes to the start of the line in the editor too (as in the inputs); C-z
/// undoes.
#[test]
fn ctrl_u_kills_to_the_start_of_the_line_in_the_editor() {
    let mut h = three();
    h.keys("e");
    // the body has the cursor: "Indent with tabs."
    assert_eq!(h.app.editor.as_ref().map(|e| e.focus), Some(3));
    h.press(KeyCode::End);
    h.ctrl('u');
    let editor = h.app.editor.as_ref().expect("open");
    assert_eq!(editor.value(3), "", "{}", h.screen());
    h.ctrl('z');
    let editor = h.app.editor.as_ref().expect("open");
    assert_eq!(editor.value(3), "Indent with tabs.", "{}", h.screen());
}

/// Item 14: deleting the last record leaves the selection on the record before it, not on
/// the unlisted file below.
#[test]
fn deleting_the_last_record_selects_the_one_before() {
    let mut h = three_and_a_stray();
    h.keys("G");
    h.press(KeyCode::Up);
    assert_eq!(selected_name(&h).as_deref(), Some("gamma"));
    h.keys("d");
    h.keys("y");
    assert!(h.inspection().valid_records().all(|r| r.name() != "gamma"));
    assert_eq!(selected_name(&h).as_deref(), Some("beta"), "{}", h.screen());
    assert!(h.screen().contains("Record: beta"), "{}", h.screen());
}

/// Item 5: the Sets view's "looking for memory folders…" gives way to what was found.
#[test]
fn the_sets_scan_message_ends_with_the_scan() {
    let mut h = three();
    h.keys("S");
    assert!(h.screen().contains("looking for memory folders"));
    let memory = h.root();
    h.send(Event::Sets(vec![row(
        memwb::formats::memory::FORMAT,
        &memory,
    )]));
    let screen = h.screen();
    assert!(!screen.contains("looking for memory folders"), "{screen}");
    assert!(screen.contains("1 memory folders found"), "{screen}");
}

/// Item 4: a finding in the Record pane is apart from its code.
#[test]
fn a_finding_in_the_record_pane_is_apart_from_its_code() {
    let (_dir, mut h) = claude(150, 45);
    h.keys("G");
    let screen = h.screen();
    assert!(screen.contains("Topic file: scratch"), "{screen}");
    assert!(screen.contains("index-unlisted "), "{screen}");
}

/// Item 4: a topic file whose index entry is past the cut is marked not loaded, not `✓`.
#[test]
fn a_topic_file_past_the_cut_is_marked_not_loaded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = common::claude_memory_copy(dir.path());
    let limits = LoadLimits {
        lines: 10,
        ..LoadLimits::default()
    };
    let mut h = Harness::claude(&folder, &dir.path().join("state"), limits, 150, 45);
    h.draw();
    let view = memwb::formats::claude::shown_topics(&h.app.shown).expect("a reading");
    let cut: Vec<&String> = view.order.iter().filter(|f| view.past_cut(f)).collect();
    assert!(!cut.is_empty(), "the fixture has files past a 10-line cut");
    let screen = h.screen();
    for file in cut {
        let name = view.topic(file).expect("a topic").name().to_owned();
        let short: String = name.chars().take(12).collect();
        let row = screen
            .lines()
            .find(|l| l.contains(&short))
            .unwrap_or_else(|| panic!("{screen}"));
        assert!(row.contains(&format!("✂ {short}")), "{row}\n{screen}");
    }
}

/// Item 13: the History pane names the tool that made each change, the same on both formats:
/// a change made in the workbench says "workbench".
#[test]
fn history_names_the_workbench_as_the_tool() {
    let (_dir, claude) = claude(150, 45);
    for mut h in [three(), claude] {
        h.press(KeyCode::Char('e'));
        h.keys("x");
        h.ctrl('s');
        assert!(h.app.editor.is_none(), "saved: {}", h.screen());
        h.keys("H");
        let screen = h.screen();
        assert!(screen.contains(" (workbench)"), "{screen}");
    }
}

/// The selected memory's name.
fn selected_name(h: &Harness) -> Option<String> {
    h.app.selected_name_and_file().map(|(name, _)| name)
}
