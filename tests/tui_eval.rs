//! Eval cases in the workbench: saving the Query pane's query as a case (its selection as the
//! expectation, edited first), the cases tab with its marks, the background re-run after a
//! commit that announces a regression, and a proposal's effect on the cases before approval.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::eval::{self, EvalState};
use memwb::formats::StatePlace;
use memwb::formats::memory::MemoryBackend;
use memwb::formats::memory::journal::{NewProposal, file as file_proposal};
use memwb::review::{Journal, Origin};
use memwb::session::Plan;
use memwb::store::{MemoryType, Record, Store, StoreOptions};
use memwb::tui::app::{Modal, View};
use memwb::tui::panes::Pane;
use tui_harness::Harness;

fn record(name: &str, description: &str) -> Record {
    Record::new(name, MemoryType::Project, description, "body").expect("valid")
}

fn other(h: &Harness) -> Store {
    Store::open(&h.workspace, StoreOptions::default()).expect("open")
}

/// Three records; "database tests" selects only no-mocked-database.
fn seeded() -> Harness {
    let mut h = Harness::empty(100, 30);
    h.store()
        .extend(vec![
            record(
                "no-mocked-database",
                "Integration tests hit a real database",
            ),
            record("prefers-tabs", "Indent with tabs"),
            record("release-freeze", "Merge freeze before a release"),
        ])
        .expect("seed");
    h.watcher_tick();
    h
}

/// Gives no-mocked-database another description, through the journal or not.
fn redescribe(store: &Store, description: &str, journaled: bool) {
    let base = store
        .records()
        .unwrap()
        .into_iter()
        .find(|r| r.name() == "no-mocked-database")
        .unwrap();
    let edited = record("no-mocked-database", description);
    if journaled {
        memwb::formats::memory::journal::journaled_op(store, memwb::review::Op::Set, |s| {
            s.replace(&base, edited)
        })
        .unwrap();
    } else {
        store.replace(&base, edited).unwrap();
    }
}

fn run_query(h: &mut Harness, query: &str) {
    while h.app.focus != Pane::Query {
        h.press(KeyCode::Tab);
    }
    h.press(KeyCode::Char('i'));
    h.keys(query);
    h.press(KeyCode::Enter);
}

fn saved_cases(h: &Harness) -> Vec<eval::Case> {
    eval::load_cases(&EvalState::in_place(StatePlace::in_set(other(h)))).expect("cases")
}

#[test]
fn s_saves_the_query_with_its_selection_as_the_expectation_edited_first() {
    let mut h = seeded();
    run_query(&mut h, "database tests");
    assert_eq!(
        h.app.query.result.as_ref().unwrap().names,
        ["no-mocked-database"]
    );
    h.press(KeyCode::Char('s'));
    let Some(Modal::SaveCase { query, text }) = &h.app.modal else {
        panic!("no save dialog: {}", h.screen())
    };
    assert_eq!(
        (query.as_str(), text.text()),
        ("database tests", "no-mocked-database")
    );
    assert!(
        h.screen().contains("expect> no-mocked-database▏"),
        "{}",
        h.screen()
    );
    h.keys(" !prefers-tabs");
    h.press(KeyCode::Enter);
    assert!(h.app.modal.is_none());
    let cases = saved_cases(&h);
    assert_eq!(cases.len(), 1);
    assert_eq!(cases[0].query, "database tests");
    assert_eq!(cases[0].expect, ["no-mocked-database"]);
    assert_eq!(cases[0].forbid, ["prefers-tabs"]);
    assert!(
        h.screen().contains("save eval case 'database tests': done"),
        "{}",
        h.screen()
    );

    h.press(KeyCode::Char('t'));
    h.press(KeyCode::Char('z'));
    let screen = h.screen();
    assert!(screen.contains("eval cases (1/1 pass)"), "{screen}");
    assert!(
        screen.contains("✓  1 database tests → no-mocked-database"),
        "{screen}"
    );
}

#[test]
fn a_save_that_breaks_a_rule_keeps_the_dialog_open_and_writes_nothing() {
    let mut h = seeded();
    run_query(&mut h, "the weather");
    h.press(KeyCode::Char('s'));
    assert!(matches!(&h.app.modal, Some(Modal::SaveCase { text, .. }) if text.is_empty()));
    h.press(KeyCode::Enter);
    assert!(h.app.modal.is_some(), "still open to be fixed");
    assert!(
        h.screen().contains("expects nothing and forbids nothing"),
        "{}",
        h.screen()
    );
    h.keys("no-such-memory");
    h.press(KeyCode::Enter);
    assert!(
        h.screen().contains("no memory named \"no-such-memory\""),
        "{}",
        h.screen()
    );
    assert!(saved_cases(&h).is_empty());
    h.press(KeyCode::Esc);
    assert!(h.app.modal.is_none());
}

#[test]
fn a_commit_that_breaks_a_passing_case_is_announced_and_marked() {
    let mut h = seeded();
    run_query(&mut h, "integration tests");
    h.press(KeyCode::Char('s'));
    h.press(KeyCode::Enter);
    assert_eq!(saved_cases(&h).len(), 1);

    // Another process edits the record so that the query no longer finds it (not journaled).
    let store = other(&h);
    redescribe(&store, "Suites hit real services", false);
    h.watcher_tick();
    let screen = h.screen();
    assert!(
        screen.contains(
            "eval: 'integration tests' no longer selects no-mocked-database since the last change"
        ),
        "{screen}"
    );
    h.press(KeyCode::Char('t'));
    h.press(KeyCode::Char('z'));
    let screen = h.screen();
    assert!(
        screen.contains("✗  1 integration tests → no-mocked-database  fails since the last change"),
        "{screen}"
    );
    assert!(screen.contains("selected (none)"), "{screen}");

    // A journaled fix makes it pass again; a journaled break is blamed on its entry.
    redescribe(&store, "Integration tests hit a real database", true);
    h.watcher_tick();
    assert!(
        h.screen().contains("eval cases (1/1 pass)"),
        "{}",
        h.screen()
    );
    redescribe(&store, "Suites hit real services", true);
    let entry = Journal::of(&store).entries().unwrap().last().unwrap().id;
    h.watcher_tick();
    assert!(
        h.screen().contains(&format!(
            "eval: 'integration tests' no longer selects no-mocked-database since #{entry}"
        )),
        "{}",
        h.screen()
    );
}

#[test]
fn an_unrelated_commit_announces_nothing() {
    let mut h = seeded();
    run_query(&mut h, "database tests");
    h.press(KeyCode::Char('s'));
    h.press(KeyCode::Enter);
    other(&h)
        .extend(vec![record("weather", "It rains")])
        .unwrap();
    h.watcher_tick();
    assert!(!h.screen().contains("eval:"), "{}", h.screen());
    assert!(
        h.screen().contains("changed on disk: added weather"),
        "{}",
        h.screen()
    );
}

#[test]
fn a_proposal_shows_what_approving_it_does_to_the_cases() {
    let mut h = seeded();
    let state = EvalState::in_place(StatePlace::in_set(h.store()));
    let case = |q: &str, e: &str| eval::Case::new(q, vec![e.into()], vec![], None).unwrap();
    let store = other(&h);
    eval::add_case(
        &MemoryBackend::new(&store),
        &state,
        case("integration tests", "no-mocked-database"),
    )
    .unwrap();
    eval::add_case(
        &MemoryBackend::new(&store),
        &state,
        case("weather forecast", "prefers-tabs"),
    )
    .unwrap();
    // Replaces the database record with one the query misses, and makes the weather case pass.
    let filed = file_proposal(
        &store,
        NewProposal {
            plan: Plan::Consolidation {
                source_names: vec!["no-mocked-database".into(), "prefers-tabs".into()],
                records: vec![
                    record("no-mocked-database", "Suites hit real services"),
                    record("prefers-tabs", "Tabs, whatever the weather"),
                ],
            },
            origin: Origin::new("import"),
            seen: store.read().unwrap(),
            additions: Vec::new(),
            evidence: None,
        },
    )
    .unwrap();
    h.review_tick();
    h.press(KeyCode::Char('p'));
    assert_eq!(h.app.view, View::Proposals);
    let screen = h.screen();
    assert!(
        screen.contains(&format!("Proposal {}", filed.id)),
        "{screen}"
    );
    assert!(
        screen.contains("approving this changes 2 cases: +1 pass, -1 fail"),
        "{screen}"
    );
}

#[test]
fn a_regression_seen_before_its_journal_entry_is_blamed_on_it_when_the_entry_appears() {
    use memwb::eval::CaseResult;
    use memwb::store::StoredRecord;
    use memwb::tui::evals::{Announcement, Evals, Evaluated};
    let case = eval::Case::new("alpha", vec!["a".into()], vec![], None).unwrap();
    let run = |description: &str, selected: &[&str], blame: Option<u64>| Evaluated {
        memories: vec![
            StoredRecord {
                file: "a.md".into(),
                record: record("a", description),
            }
            .memory(0),
        ],
        cases: vec![case.clone()],
        results: vec![CaseResult::score(
            &case,
            &|_| true,
            selected.iter().map(|s| (*s).to_owned()).collect(),
            5,
            None,
        )],
        effects: Vec::new(),
        blame,
        error: None,
    };
    let mut evals = Evals::new();
    assert!(
        evals.apply(run("alpha", &["a"], Some(1))).is_empty(),
        "the baseline announces nothing"
    );
    let first = "eval: 'alpha' no longer selects a since the last change";
    assert_eq!(
        evals.apply(run("beta", &[], Some(1))),
        [Announcement {
            text: first.into(),
            restates: None
        }],
        "entry 1 is older than the change"
    );
    assert_eq!(
        evals.apply(run("beta", &[], Some(2))),
        [Announcement {
            text: "eval: 'alpha' no longer selects a since #2".into(),
            restates: Some(first.into())
        }],
        "the late blame restates the first announcement"
    );
    assert_eq!(evals.rows[0].regressed.as_deref(), Some("since #2"));
    assert!(
        evals.apply(run("beta", &[], Some(2))).is_empty(),
        "said once"
    );
    assert!(evals.apply(run("alpha", &["a"], Some(3))).is_empty());
    assert_eq!(
        evals.rows[0].regressed, None,
        "passing again clears the mark"
    );
}

/// Issue 26 item 6: a case whose expected memory left the set is shown broken (`!` and the
/// name gone), as `memwb eval` says, though the rest of its expectation is selected.
#[test]
fn a_case_whose_expected_memory_left_the_set_is_shown_broken() {
    let mut h = seeded();
    run_query(&mut h, "database tests");
    h.press(KeyCode::Char('s'));
    h.keys(" release-freeze");
    h.press(KeyCode::Enter);
    assert_eq!(saved_cases(&h)[0].expect.len(), 2);
    let store = other(&h);
    let gone = store
        .records()
        .expect("reads")
        .into_iter()
        .find(|r| r.name() == "release-freeze")
        .expect("there");
    store.remove(std::slice::from_ref(&gone)).expect("remove");
    h.watcher_tick();
    h.press(KeyCode::Char('t'));
    h.press(KeyCode::Char('z'));
    let screen = h.screen();
    assert!(!screen.contains("✓  1 database tests"), "{screen}");
    assert!(screen.contains("!  1 database tests"), "{screen}");
    assert!(
        screen.contains("gone from the set: release-freeze"),
        "{screen}"
    );
}

/// Issue 26 item 5: a regression seen before its journal entry was written is said once in
/// the message log: the announcement blamed on the entry replaces the first one ("since the
/// last change"), on the status line and in `M`.
#[test]
fn a_late_blame_restates_the_regression_in_the_message_log() {
    let mut h = seeded();
    run_query(&mut h, "integration tests");
    h.press(KeyCode::Char('s'));
    h.press(KeyCode::Enter);
    let store = other(&h);
    redescribe(&store, "Suites hit real services", true);
    let journal = Journal::of(&store);
    let entry = journal.entries().unwrap().last().unwrap().id;
    // The workbench sees the commit before the journal entry that follows it.
    let aside = journal.path().with_extension("aside");
    std::fs::rename(journal.path(), &aside).expect("journal aside");
    h.watcher_tick();
    let early =
        "eval: 'integration tests' no longer selects no-mocked-database since the last change";
    assert!(h.screen().contains(early), "{}", h.screen());
    std::fs::rename(&aside, journal.path()).expect("journal back");
    h.review_tick();
    let blamed =
        format!("eval: 'integration tests' no longer selects no-mocked-database since #{entry}");
    assert!(h.screen().contains(&blamed), "{}", h.screen());
    let said: Vec<&str> = h
        .app
        .log
        .iter()
        .map(|s| s.text.as_str())
        .filter(|t| t.starts_with("eval:"))
        .collect();
    assert_eq!(said, [blamed.as_str()]);
}

/// The watcher's news of a journal entry can reach the workbench before its news of the set:
/// a run over the set as shown before the entry's change must not take the entry as its blame
/// (it would become the baseline, and the run that sees the change would then blame nothing).
#[test]
fn a_run_over_the_set_as_it_was_before_a_journaled_change_blames_nothing() {
    use memwb::eval::Corpus;
    use memwb::formats::Open;
    use memwb::tui::evals::{EvalRequest, evaluate};
    let h = seeded();
    let open = Open::from(other(&h));
    let corpus = |open: &Open| {
        let (memories, catalog) = open.backend().shown().corpus();
        Corpus {
            memories,
            catalog: catalog.unwrap_or_default(),
        }
    };
    let before = corpus(&open);
    redescribe(&other(&h), "Integration tests hit a live service", true);
    let request = |corpus: Corpus| EvalRequest {
        corpus,
        proposals: Vec::new(),
    };
    let stale = evaluate(&open, request(before));
    assert_eq!(
        stale.blame, None,
        "the run is over the set before the entry"
    );
    let now = evaluate(&open, request(corpus(&open)));
    assert!(
        now.blame.is_some(),
        "the run over the set as it is blames the entry"
    );
}
