//! Eval cases on a Claude Code folder: saved from the Query pane, broken by a change, a proposal's
//! effect.

use super::*;

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
        .engine::<memwb::claude::ClaudeFolder>()
        .expect("a Claude Code folder")
        .clone();
    let evaluation =
        memwb::eval::FolderEval::open(&memwb::formats::Open::from(folder)).expect("state");
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
            "eval: 'postgres' no longer selects feedback_integration_tests since the last change"
        ),
        "{screen}"
    );
    assert!(screen.contains("eval cases (0/1 pass)"), "{screen}");
    assert!(screen.contains('✗'), "marked in the list: {screen}");
    let row = &h.app.query.cases[0];
    assert_eq!(row.regressed.as_deref(), Some("since the last change"));
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
        .engine::<memwb::claude::ClaudeFolder>()
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

/// As `tui_eval`'s test of the same name on a `.memory` set: a run over the topic files as
/// shown before a journaled change (its news of the journal came first) blames nothing; a run
/// over them as they are blames the entry.
#[test]
fn a_run_over_the_folder_as_it_was_before_a_journaled_change_blames_nothing() {
    use memwb::claude::FileWrite;
    use memwb::eval::Corpus;
    use memwb::formats::Open;
    use memwb::review::{EntryMeta, Op};
    use memwb::tui::evals::{EvalRequest, evaluate};
    let (dir, h) = open(LoadLimits::default());
    let folder = h
        .app
        .backend
        .engine::<memwb::claude::ClaudeFolder>()
        .expect("a Claude Code folder")
        .clone();
    let open = Open::from(folder.clone());
    let request = |open: &Open| {
        let (memories, catalog) = open.backend().shown().corpus();
        EvalRequest {
            corpus: Corpus {
                memories,
                catalog: catalog.unwrap_or_default(),
            },
            proposals: Vec::new(),
        }
    };
    let before = request(&open);
    let file = dir.path().join("memory/feedback_integration_tests.md");
    let base = std::fs::read_to_string(&file).expect("read");
    let edited = base.replace("real Postgres", "real database");
    assert_ne!(base, edited);
    memwb::formats::claude::journal::journaled(
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
    assert_eq!(
        evaluate(&open, before).blame,
        None,
        "the run is over the folder before the entry"
    );
    assert!(
        evaluate(&open, request(&open)).blame.is_some(),
        "the run over the folder as it is blames the entry"
    );
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
        .engine::<memwb::claude::ClaudeFolder>()
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
