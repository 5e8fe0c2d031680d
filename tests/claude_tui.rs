//! The one workbench on a Claude Code folder without a terminal: its state driven by keys
//! through the shared harness, its screen drawn on ratatui's TestBackend, on a copy of
//! tests/fixtures/claude.

use crate::common;
use crate::tui_harness;

use std::path::Path;

use common::copy_dir;
use crossterm::event::KeyCode;
use memwb::claude::FileImage;
use memwb::claude::LoadLimits;
use memwb::formats::Format;
use memwb::formats::claude::journal::{self, NewFiles};
use memwb::review::Origin;
use memwb::review::proposal::images;
use memwb::tui::app::{Effect, Event, StatusKind, View};
use memwb::tui::panes::Pane;
use tui_harness::{Harness, set_row as row};

fn fixture(dir: &Path) -> std::path::PathBuf {
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claude/config/projects/-home-dev-shop/memory"),
        &dir.join("memory"),
    );
    // A PID no process can have: no consolidation is running.
    std::fs::write(dir.join("memory/.consolidate-lock"), "4194305").expect("lock");
    dir.join("memory")
}

fn open(limits: LoadLimits) -> (tempfile::TempDir, Harness) {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = fixture(dir.path());
    let h = Harness::claude(&folder, &dir.path().join("state"), limits, 150, 45);
    (dir, h)
}

fn order(h: &Harness) -> Vec<String> {
    h.app.shown.topics().expect("a reading").order.clone()
}

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

/// Files a proposal for the open folder as another process would (the hook, `memwb propose`),
/// and sends what the watcher reports for it.
fn file_from_outside(h: &mut Harness, files: Vec<FileImage>) -> String {
    let folder = h
        .app
        .backend
        .claude()
        .expect("a Claude Code folder")
        .clone();
    let new = NewFiles {
        kind: images::kind_of(&files),
        files,
        origin: Origin::new("dedupe"),
        evidence: Some("filed by the test".into()),
    };
    let id = journal::file_proposal(&folder, new).expect("filed").id;
    h.review_tick();
    id
}

/// Every file under the Claude Code folder (subfolders too), sorted, with its bytes.
fn every_file(dir: &Path) -> Vec<(String, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).expect("list") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let name = path
                    .strip_prefix(root)
                    .expect("inside")
                    .display()
                    .to_string();
                out.push((name, std::fs::read(&path).expect("read")));
            }
        }
    }
    let root = dir.join("memory");
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    files.sort();
    assert!(
        files.iter().any(|(name, _)| name == "MEMORY.md"),
        "{files:?}"
    );
    files
}

/// A credential, built here so that no scanner flags this file.
fn token() -> String {
    ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat()
}

fn new_topic() -> String {
    format!(
        "---\nname: release-train\ndescription: we ship every second Tuesday\ntype: project\n---\n\nReleases leave on the second Tuesday; token {} stays out.\n",
        token()
    )
}

#[test]
fn a_proposal_filed_from_outside_is_listed_shown_approved_and_undone() {
    let (dir, mut h) = open(LoadLimits::default());
    let index_before = read(dir.path(), "MEMORY.md").expect("index");
    h.keys("p");
    assert_eq!(h.app.view, View::Proposals);
    let id = file_from_outside(
        &mut h,
        vec![FileImage {
            file: "project_release_train.md".into(),
            before: None,
            after: Some(new_topic()),
        }],
    );
    let screen = h.screen();
    assert!(screen.contains(&format!("new proposal: {id}")), "{screen}");
    assert!(screen.contains(&id), "{screen}");
    assert!(screen.contains("add release-train"), "{screen}");
    // the diff of its file image, the credential redacted when it was filed
    assert!(
        screen.contains("project_release_train.md (new file)"),
        "{screen}"
    );
    assert!(
        screen.contains("+ Releases leave on the second Tuesday"),
        "{screen}"
    );
    assert!(!screen.contains(&token()), "{screen}");
    assert!(
        read(dir.path(), "project_release_train.md").is_none(),
        "nothing written before approval"
    );

    // a asks first; n leaves everything as it was
    h.keys("a");
    assert!(h.app.modal.is_some(), "{}", h.screen());
    h.keys("n");
    assert!(read(dir.path(), "project_release_train.md").is_none());
    h.keys("a");
    h.keys("y");
    let written = read(dir.path(), "project_release_train.md").expect("written");
    assert!(written.contains("second Tuesday"), "{written}");
    assert!(!written.contains(&token()), "{written}");
    let index = read(dir.path(), "MEMORY.md").expect("index");
    assert!(
        index
            .lines()
            .any(|l| l.contains("[release-train](project_release_train.md)")),
        "{index}"
    );
    assert!(
        h.screen().contains(&format!("approve {id}: written")),
        "{}",
        h.screen()
    );
    let row = h.app.proposals.rows.iter().find(|r| r.proposal.id == id);
    assert_eq!(
        row.map(|r| r.proposal.status),
        Some(memwb::review::ProposalStatus::Approved)
    );

    // History shows the approval; undoing it restores both files' exact bytes
    h.keys("H");
    assert_eq!(h.app.view, View::History);
    assert_eq!(h.app.review.journal.len(), 1);
    assert_eq!(h.app.review.journal[0].op, memwb::review::Op::Approve);
    h.keys("u");
    h.keys("y");
    assert!(read(dir.path(), "project_release_train.md").is_none());
    assert_eq!(read(dir.path(), "MEMORY.md"), Some(index_before));
    assert_eq!(h.app.review.journal.len(), 2);
}

#[test]
fn a_rejection_keeps_its_reason_and_the_folder_byte_identical() {
    let (dir, mut h) = open(LoadLimits::default());
    let role = read(dir.path(), "user_role.md").expect("file");
    let id = file_from_outside(
        &mut h,
        vec![FileImage {
            file: "user_role.md".into(),
            before: Some(role.clone()),
            after: Some(format!("{role}Now on the frontend team.\n")),
        }],
    );
    let before = every_file(dir.path());
    h.keys("p");
    assert!(
        h.screen().contains("user_role.md (edited)"),
        "{}",
        h.screen()
    );
    h.keys("x");
    h.keys("not what they do");
    h.press(KeyCode::Enter);
    assert_eq!(every_file(dir.path()), before);
    let proposal = h
        .app
        .review
        .proposals
        .iter()
        .find(|p| p.id == id)
        .expect("listed");
    assert_eq!(proposal.status, memwb::review::ProposalStatus::Rejected);
    assert_eq!(proposal.reason.as_deref(), Some("not what they do"));
    assert!(
        h.screen().contains(&format!("rejected {id}")),
        "{}",
        h.screen()
    );
    assert_eq!(h.app.review.journal.len(), 1);
    assert_eq!(h.app.review.journal[0].op, memwb::review::Op::Reject);
}

#[test]
fn a_proposal_whose_file_changed_is_stale_and_approving_it_writes_nothing() {
    let (dir, mut h) = open(LoadLimits::default());
    let role = read(dir.path(), "user_role.md").expect("file");
    let id = file_from_outside(
        &mut h,
        vec![FileImage {
            file: "user_role.md".into(),
            before: Some(role.clone()),
            after: Some(format!("{role}Now on the frontend team.\n")),
        }],
    );
    // Claude Code rewrites the file meanwhile
    let plain = format!("{role}\nAlso on call this week.\n");
    std::fs::write(dir.path().join("memory/user_role.md"), &plain).expect("write");
    h.claude_tick();
    h.review_tick();
    h.keys("p");
    let row = h.app.proposals.selected_row().expect("a row");
    assert_eq!(row.proposal.id, id);
    assert!(matches!(row.state, memwb::review::State::Stale(_)));
    assert!(h.screen().contains("⚠ stale"), "{}", h.screen());
    let before = every_file(dir.path());
    h.keys("a");
    h.keys("y");
    assert_eq!(every_file(dir.path()), before);
    let status = h.app.status.clone().expect("a status");
    assert_eq!(status.kind, StatusKind::Error, "{}", status.text);
    assert!(h.app.review.journal.is_empty());
}

fn read(dir: &Path, file: &str) -> Option<String> {
    std::fs::read_to_string(dir.join("memory").join(file)).ok()
}

fn select(h: &mut Harness, file: &str) {
    let at = order(h).iter().position(|f| f == file).expect("listed");
    h.press(KeyCode::Home);
    for _ in 0..at {
        h.press(KeyCode::Down);
    }
    assert_eq!(h.app.selected_topic_file().as_deref(), Some(file));
}

fn editor_field(h: &mut Harness, field: usize, value: &str) {
    h.app
        .editor
        .as_mut()
        .expect("editor")
        .set_value(field, value);
}

#[test]
fn an_edit_keeps_every_other_byte_and_is_journaled_and_undone() {
    let (dir, mut h) = open(LoadLimits::default());
    let before = read(dir.path(), "user_role.md").expect("file");
    select(&mut h, "user_role.md");
    h.keys("e");
    assert!(h.app.editor.as_ref().is_some_and(|e| e.is_topic()));
    editor_field(
        &mut h,
        memwb::tui::editor::DESCRIPTION,
        "a backend engineer, now on payments",
    );
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let after = read(dir.path(), "user_role.md").expect("file");
    assert!(
        after.contains("a backend engineer, now on payments"),
        "{after}"
    );
    // every other line of the frontmatter and the body survive (modified is stamped)
    for line in before
        .lines()
        .filter(|l| !l.starts_with("description:") && !l.contains("modified"))
    {
        assert!(after.contains(line), "{line:?} lost:\n{after}");
    }
    assert!(
        h.screen().contains("save user_role: written"),
        "{}",
        h.screen()
    );

    // History shows it; undo restores the exact bytes
    h.keys("H");
    assert_eq!(h.app.view, View::History);
    assert_eq!(h.app.review.journal.len(), 1);
    h.keys("u");
    h.keys("y");
    assert_eq!(
        read(dir.path(), "user_role.md").as_deref(),
        Some(before.as_str())
    );
    assert_eq!(h.app.review.journal.len(), 2);
}

#[test]
fn a_new_topic_file_gets_a_name_and_an_index_line_and_delete_removes_both() {
    let (dir, mut h) = open(LoadLimits::default());
    h.keys("n");
    editor_field(&mut h, memwb::tui::editor::NAME, "deploy freeze");
    editor_field(&mut h, memwb::tui::editor::TYPE, "project");
    editor_field(
        &mut h,
        memwb::tui::editor::DESCRIPTION,
        "no deploys on Fridays",
    );
    editor_field(&mut h, memwb::tui::editor::BODY, "Fridays are frozen.");
    // A name Claude Code would rewrite is refused, naming the one it keeps; the editor stays.
    h.ctrl('s');
    assert!(h.app.editor.is_some(), "{}", h.screen());
    assert!(h.screen().contains("deploy-freeze"), "{}", h.screen());
    assert_eq!(read(dir.path(), "project_deploy_freeze.md"), None);
    editor_field(&mut h, memwb::tui::editor::NAME, "deploy-freeze");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let text = read(dir.path(), "project_deploy_freeze.md").expect("created");
    assert!(
        text.starts_with("---\nname: deploy-freeze\ndescription: no deploys on Fridays\nmetadata:\n  node_type: memory\n  type: project\n"),
        "{text}"
    );
    let index = read(dir.path(), "MEMORY.md").expect("index");
    assert!(index.contains("(project_deploy_freeze.md)"), "{index}");
    assert_eq!(
        h.app.selected_topic_file().as_deref(),
        Some("project_deploy_freeze.md")
    );

    h.keys("d");
    assert!(
        h.screen().contains("Delete project_deploy_freeze.md"),
        "{}",
        h.screen()
    );
    h.keys("y");
    assert_eq!(read(dir.path(), "project_deploy_freeze.md"), None);
    let index = read(dir.path(), "MEMORY.md").expect("index");
    assert!(!index.contains("project_deploy_freeze.md"), "{index}");
}

#[test]
fn a_rename_moves_the_file_and_rewrites_its_link() {
    let (dir, mut h) = open(LoadLimits::default());
    select(&mut h, "user_role.md");
    h.keys("e");
    editor_field(&mut h, memwb::tui::editor::NAME, "user-background");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    assert_eq!(read(dir.path(), "user_role.md"), None);
    let moved = h.app.selected_topic_file().expect("selected");
    assert_ne!(moved, "user_role.md");
    assert!(
        read(dir.path(), &moved)
            .expect("moved")
            .contains("name: user-background")
    );
    let index = read(dir.path(), "MEMORY.md").expect("index");
    assert!(index.contains(&format!("({moved})")), "{index}");
    assert!(!index.contains("(user_role.md)"), "{index}");
}

#[test]
fn a_plain_write_meanwhile_is_a_conflict_with_diff_reload_and_keep_editing() {
    let (dir, mut h) = open(LoadLimits::default());
    select(&mut h, "user_role.md");
    h.keys("e");
    editor_field(&mut h, memwb::tui::editor::DESCRIPTION, "mine");
    // Claude Code rewrites the file between the read and the save
    let theirs = read(dir.path(), "user_role.md")
        .expect("file")
        .replace("storefront team and", "checkout team and");
    std::fs::write(dir.path().join("memory/user_role.md"), &theirs).expect("write");
    h.ctrl('s');
    let editor = h.app.editor.as_ref().expect("the edit is kept");
    assert!(editor.conflict.is_some(), "{}", h.screen());
    assert_eq!(
        read(dir.path(), "user_role.md").as_deref(),
        Some(theirs.as_str()),
        "nothing clobbered"
    );
    h.keys("d");
    let diff = h
        .app
        .editor
        .as_ref()
        .and_then(|e| e.conflict.as_ref())
        .and_then(|c| c.diff.clone());
    assert!(diff.is_some_and(|d| d.iter().any(|(m, l)| *m == '+' && l.contains("mine"))));
    h.keys("r");
    let editor = h.app.editor.as_ref().expect("editor");
    assert!(editor.conflict.is_none());
    assert!(
        editor
            .value(memwb::tui::editor::BODY)
            .contains("checkout team"),
        "their body is merged in"
    );
    assert_eq!(editor.value(memwb::tui::editor::DESCRIPTION), "mine");
    // issue 26 item 11: the failed save's status gives way, as on a .memory set
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.starts_with("re-applied your edit on the version on disk"),
        "{status}"
    );
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let now = read(dir.path(), "user_role.md").expect("file");
    assert!(
        now.contains("mine") && now.contains("checkout team"),
        "{now}"
    );
}

#[test]
fn r_shows_the_index_fix_as_a_diff_before_writing_it() {
    let (dir, mut h) = open(LoadLimits::default());
    let before = read(dir.path(), "MEMORY.md").expect("index");
    h.keys("R");
    let screen = h.screen();
    assert!(screen.contains("Fix MEMORY.md"), "{screen}");
    assert!(
        screen.contains("- - [project_payments]"),
        "the dangling entry goes: {screen}"
    );
    assert!(
        screen.contains("scratch.md"),
        "the unlisted file comes in: {screen}"
    );
    assert_eq!(
        read(dir.path(), "MEMORY.md").as_deref(),
        Some(before.as_str()),
        "nothing written yet"
    );
    h.keys("y");
    let after = read(dir.path(), "MEMORY.md").expect("index");
    assert!(!after.contains("project_payments"), "{after}");
    assert!(after.contains("(scratch.md)"), "{after}");
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
    let other = row(Format::Memory, store.root());
    let here = row(Format::Claude, h.app.backend.root());
    h.send(Event::Sets(vec![other.clone(), here]));
    assert_eq!(h.app.sets.selected, 1, "the open folder is selected");
    assert!(h.screen().contains("ws/.memory"), "{}", h.screen());
    h.press(KeyCode::Up);
    h.press(KeyCode::Enter);
    assert_eq!(h.app.backend.format(), Format::Memory);
    assert!(h.app.shown.topics().is_none());
    assert_eq!(h.app.view, View::Panes);
    let screen = h.screen();
    assert!(screen.contains("Manifest (1)"), "{screen}");
    assert!(screen.contains("tabs"), "{screen}");

    // S works on the .memory set too, and brings the Claude Code folder back
    h.keys("S");
    assert_eq!(h.app.view, View::Sets);
    let claude = row(
        Format::Claude,
        &dir.path().join("memory").canonicalize().expect("real"),
    );
    h.send(Event::Sets(vec![other, claude]));
    h.press(KeyCode::Down);
    h.press(KeyCode::Enter);
    assert_eq!(h.app.backend.format(), Format::Claude);
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

/// Saves "postgres" as a case from the Query pane (expecting its selection, plus a forbidden
/// name typed before saving); returns the topic file the case expects and its edited text,
/// which no longer mentions Postgres.
fn save_postgres_case(dir: &Path, h: &mut Harness) -> (std::path::PathBuf, String) {
    for _ in 0..3 {
        h.press(KeyCode::Tab);
    }
    assert_eq!(h.app.focus, Pane::Query);
    h.keys("i");
    h.keys("postgres");
    h.press(KeyCode::Enter);
    h.keys("s");
    assert!(
        h.screen().contains("expect> feedback_integration_tests"),
        "the expectation starts as the selection: {}",
        h.screen()
    );
    h.keys(" !user_role");
    h.press(KeyCode::Enter);
    let status = h.app.status.clone().expect("a status");
    assert_eq!(status.text, "save eval case 'postgres': done");

    let folder = h
        .app
        .backend
        .claude()
        .expect("a Claude Code folder")
        .clone();
    let evaluation =
        memwb::eval::FolderEval::open(&memwb::formats::Open::Claude(folder)).expect("state");
    assert!(
        evaluation.state().dir().starts_with(dir.join("state")),
        "the cases live in the state directory, outside the folder"
    );
    let cases = memwb::eval::load_cases(evaluation.state()).expect("cases");
    assert_eq!(cases.len(), 1);
    assert_eq!(cases[0].query, "postgres");
    assert_eq!(cases[0].expect, ["feedback_integration_tests"]);
    assert_eq!(cases[0].forbid, ["user_role"]);
    assert!(!dir.join("memory/evals.json").exists());

    h.keys("t");
    let listed = h.screen();
    assert!(listed.contains("eval cases (1/1 pass)"), "{listed}");
    assert!(listed.contains('✓'), "{listed}");

    let file = dir.join("memory/feedback_integration_tests.md");
    let text = std::fs::read_to_string(&file).expect("read");
    let edited = text.replace(
        "description: integration tests must hit a real Postgres, never mocks",
        "description: integration suites hit a real database, never mocks",
    );
    assert_ne!(text, edited);
    (file, edited)
}

#[test]
fn a_case_saved_from_the_query_pane_is_announced_when_another_process_breaks_it() {
    let (dir, mut h) = open(LoadLimits::default());
    let (file, edited) = save_postgres_case(dir.path(), &mut h);
    std::fs::write(&file, edited).expect("a plain write by another process");
    h.claude_tick();
    let screen = h.screen();
    assert!(
        screen.contains(
            "eval: 'postgres' no longer selects feedback_integration_tests since the last commit"
        ),
        "{screen}"
    );
    assert!(screen.contains("eval cases (0/1 pass)"), "{screen}");
    assert!(screen.contains('✗'), "marked in the list: {screen}");
    let row = &h.app.query.cases[0];
    assert_eq!(row.regressed.as_deref(), Some("since the last commit"));
}

#[test]
fn a_journaled_change_that_breaks_a_case_is_named_by_its_entry() {
    use memwb::claude::FileWrite;
    use memwb::review::{EntryMeta, Op};
    let (dir, mut h) = open(LoadLimits::default());
    let (file, edited) = save_postgres_case(dir.path(), &mut h);
    let folder = h
        .app
        .backend
        .claude()
        .expect("a Claude Code folder")
        .clone();
    let base = std::fs::read_to_string(&file).expect("read");
    let (_, entry) = memwb::formats::claude::journal::journaled(
        &folder,
        vec![FileWrite {
            file: "feedback_integration_tests.md".into(),
            base: Some(base),
            after: Some(edited),
        }],
        EntryMeta {
            op: Some(Op::Set),
            ..EntryMeta::default()
        },
    )
    .expect("a journaled change by another memwb process");
    let id = entry.expect("an entry").id;
    h.claude_tick();
    let screen = h.screen();
    assert!(
        screen.contains(&format!(
            "eval: 'postgres' no longer selects feedback_integration_tests since #{id}"
        )),
        "{screen}"
    );
    assert_eq!(h.app.query.cases[0].regressed, Some(format!("since #{id}")));
}

#[test]
fn a_proposal_on_a_claude_code_folder_has_its_effect_on_the_cases_computed_before_approval() {
    use memwb::claude::FileImage;
    use memwb::formats::claude::journal::{NewFiles, file_proposal};
    use memwb::review::{Kind, Origin};
    let (dir, mut h) = open(LoadLimits::default());
    let (file, edited) = save_postgres_case(dir.path(), &mut h);
    let folder = h
        .app
        .backend
        .claude()
        .expect("a Claude Code folder")
        .clone();
    let before = std::fs::read_to_string(&file).expect("read");
    let proposal = file_proposal(
        &folder,
        NewFiles {
            kind: Kind::Edit,
            files: vec![FileImage {
                file: "feedback_integration_tests.md".into(),
                before: Some(before.clone()),
                after: Some(edited),
            }],
            origin: Origin::new("test"),
            evidence: None,
        },
    )
    .expect("filed");
    // What the watcher sends when a proposal is filed: the Proposals view reloads and the
    // cases run on the folder as each ready proposal would leave it.
    h.review_tick();
    assert_eq!(
        h.app
            .proposals
            .effects
            .get(&proposal.id)
            .map(String::as_str),
        Some("approving this changes 1 case: -1 fail"),
        "run on the folder as the after-images leave it"
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        before,
        "nothing written"
    );
    assert!(h.screen().contains("eval cases (1/1 pass)"));
    h.keys("p");
    let screen = h.screen();
    assert!(screen.contains(&proposal.id), "{screen}");
    assert!(
        screen.contains("approving this changes 1 case: -1 fail"),
        "{screen}"
    );
}

/// Issue 26 item 11: the editor on a topic file says when the file changed or went on disk
/// while it is open, with the words it uses on a `.memory` record.
#[test]
fn the_topic_editor_says_when_its_file_changed_or_went_on_disk() {
    let (dir, mut h) = open(LoadLimits::default());
    select(&mut h, "user_role.md");
    h.keys("e");
    editor_field(&mut h, memwb::tui::editor::DESCRIPTION, "mine");
    h.draw();
    assert!(
        !h.screen().contains("since you opened it"),
        "{}",
        h.screen()
    );
    let theirs = read(dir.path(), "user_role.md")
        .expect("file")
        .replace("storefront team and", "checkout team and");
    std::fs::write(dir.path().join("memory/user_role.md"), &theirs).expect("write");
    h.claude_tick();
    h.draw();
    assert!(
        h.screen()
            .contains("user_role.md was changed on disk since you opened it"),
        "{}",
        h.screen()
    );
    // the conflict is handled by re-applying: the edit is based on the file now, the banner goes
    h.ctrl('s');
    h.keys("r");
    h.draw();
    assert!(
        !h.screen().contains("since you opened it"),
        "{}",
        h.screen()
    );
    std::fs::remove_file(dir.path().join("memory/user_role.md")).expect("rm");
    h.claude_tick();
    h.draw();
    assert!(
        h.screen()
            .contains("user_role.md was removed since you opened it"),
        "{}",
        h.screen()
    );
}

/// Issue 26 item 8: a topic file whose frontmatter does not parse opens as its raw text, with
/// the parse error at its line; fixed, it saves through the same compare-and-swap write.
#[test]
fn a_topic_file_with_broken_yaml_opens_raw_with_the_error_line_and_saves_fixed() {
    let (dir, mut h) = open(LoadLimits::default());
    let before = read(dir.path(), "feedback_commit_style.md").expect("file");
    select(&mut h, "feedback_commit_style.md");
    h.keys("e");
    let editor = h.app.editor.as_ref().expect("editor");
    assert!(editor.is_raw(), "broken YAML opens as raw text");
    assert_eq!(editor.value(memwb::tui::editor::BODY), before);
    h.draw();
    let screen = h.screen();
    assert!(
        screen.contains("Repair feedback_commit_style.md"),
        "{screen}"
    );
    assert!(screen.contains("✗ line 3:"), "{screen}");
    assert!(!screen.contains("a memory needs a name"), "{screen}");
    // saving while it is still broken stays in the editor and writes nothing
    h.ctrl('s');
    assert!(h.app.editor.is_some());
    assert_eq!(
        read(dir.path(), "feedback_commit_style.md").as_deref(),
        Some(before.as_str())
    );
    let fixed = before.replace(
        "description: \"Conventional commits\" one logical change each",
        "description: '\"Conventional commits\" one logical change each'",
    );
    editor_field(&mut h, memwb::tui::editor::BODY, &fixed);
    h.draw();
    assert!(
        h.screen().contains("✓ the frontmatter parses"),
        "{}",
        h.screen()
    );
    // another process writes the file meanwhile: the save is refused, nothing is clobbered
    let theirs = format!("{before}Also squash fixups.\n");
    std::fs::write(dir.path().join("memory/feedback_commit_style.md"), &theirs).expect("write");
    h.ctrl('s');
    assert!(h.app.editor.is_some(), "{}", h.screen());
    assert_eq!(
        read(dir.path(), "feedback_commit_style.md").as_deref(),
        Some(theirs.as_str())
    );
    assert!(
        h.screen().contains("feedback_commit_style.md changed"),
        "{}",
        h.screen()
    );
    // back as it was read: the fix saves, journaled, and the file now reads
    std::fs::write(dir.path().join("memory/feedback_commit_style.md"), &before).expect("write");
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    assert_eq!(
        read(dir.path(), "feedback_commit_style.md").as_deref(),
        Some(fixed.as_str())
    );
    assert!(
        h.screen().contains("save feedback_commit_style: written"),
        "{}",
        h.screen()
    );
    assert_eq!(h.app.review.journal.len(), 1);
    // opened again, it has four fields
    h.keys("e");
    assert!(!h.app.editor.as_ref().expect("editor").is_raw());
}

/// Issue 26 item 7: `b` rebases a stale proposal on a Claude Code folder as on a `.memory` set
/// (it was a dead end saying "not … yet"), in the same words; it then approves.
#[test]
fn b_rebases_a_stale_proposal_and_it_approves() {
    let (dir, mut h) = open(LoadLimits::default());
    let role = read(dir.path(), "user_role.md").expect("file");
    let proposed = format!("{role}Now on the frontend team.\n");
    let id = file_from_outside(
        &mut h,
        vec![FileImage {
            file: "user_role.md".into(),
            before: Some(role.clone()),
            after: Some(proposed.clone()),
        }],
    );
    h.keys("p");
    h.keys("b");
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.contains(
            "b is not available now: the selected proposal is not stale: nothing to rebase"
        ),
        "{id}: {status}"
    );
    std::fs::write(
        dir.path().join("memory/user_role.md"),
        format!("{role}\nAlso on call this week.\n"),
    )
    .expect("write");
    h.claude_tick();
    h.review_tick();
    assert!(h.screen().contains("⚠ stale"), "{}", h.screen());
    h.keys("b");
    let status = h.app.status.clone().expect("status");
    assert_eq!(status.kind, StatusKind::Info, "{}", status.text);
    assert!(
        status.text.starts_with(&format!(
            "proposal {id} rebased onto the current memories: user_role.md was changed"
        )),
        "{}",
        status.text
    );
    let row = h.app.proposals.selected_row().expect("a row");
    assert_eq!(row.proposal.id, id);
    assert_eq!(row.state, memwb::review::State::Ready);
    h.keys("a");
    h.keys("y");
    assert_eq!(
        read(dir.path(), "user_role.md").as_deref(),
        Some(proposed.as_str())
    );
}

/// Issue 26 item 7: `e` edits a pending proposal's file on a Claude Code folder as on a
/// `.memory` set: the four fields of what it writes, saved into the proposal (nothing applied
/// until `a`), in the same words.
#[test]
fn e_edits_a_proposed_topic_file_into_the_proposal() {
    let (dir, mut h) = open(LoadLimits::default());
    let id = file_from_outside(
        &mut h,
        vec![FileImage {
            file: "project_release_train.md".into(),
            before: None,
            after: Some(new_topic()),
        }],
    );
    h.keys("p");
    h.keys("e");
    let editor = h.app.editor.as_ref().expect("the editor opens");
    assert_eq!(
        editor.value(memwb::tui::editor::DESCRIPTION),
        "we ship every second Tuesday"
    );
    h.draw();
    assert!(
        h.screen().contains(&format!(
            "Edit proposed project_release_train.md (proposal {id})"
        )),
        "{}",
        h.screen()
    );
    editor_field(
        &mut h,
        memwb::tui::editor::DESCRIPTION,
        "we ship every other Tuesday",
    );
    h.ctrl('s');
    assert!(h.app.editor.is_none(), "{}", h.screen());
    let status = h.app.status.clone().expect("status").text;
    assert!(
        status.starts_with(&format!(
            "proposal {id}: memory edited (nothing applied yet; a approves)"
        )),
        "{status}"
    );
    assert!(read(dir.path(), "project_release_train.md").is_none());
    h.keys("a");
    h.keys("y");
    let written = read(dir.path(), "project_release_train.md").expect("approved");
    assert!(
        written.contains("description: we ship every other Tuesday"),
        "{written}"
    );
}
