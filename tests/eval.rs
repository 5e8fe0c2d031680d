//! Selection evaluation as a library: the case file (validation, non-regular files, atomic
//! writes), broken names, every metric on hand-computed examples, self-retrieval, the model
//! selector through the command client (an invalid reply fails that case only), the cache.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{open, record, workspace};
use memwb::eval::{
    self, Case, CaseResult, Corpus, EvalError, EvalState, ReplyCache, Scores, Verdict,
};
use memwb::formats::StatePlace;
use memwb::formats::memory::MemoryBackend;
use memwb::session::CommandClient;
use memwb::store::Store;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn case(query: &str, expect: &[&str], forbid: &[&str]) -> Case {
    Case::new(query, names(expect), names(forbid), None).expect("valid case")
}

/// A store holding the given (name, description) records.
fn seeded(dir: &Path, records: &[(&str, &str)]) -> Store {
    let store = open(dir);
    store
        .extend(records.iter().map(|(n, d)| record(n, d, "body")).collect())
        .expect("seed");
    store
}

fn write_cases(state: &EvalState, text: &str) {
    std::fs::create_dir_all(state.dir()).unwrap();
    std::fs::write(state.cases_path(), text).unwrap();
}

fn cases_error(state: &EvalState) -> String {
    match eval::load_cases(state) {
        Err(error) => error.to_string(),
        Ok(cases) => panic!("expected an error, read {cases:?}"),
    }
}

#[test]
fn the_case_file_round_trips_and_no_file_means_no_cases() {
    let ws = workspace();
    let store = seeded(ws.path(), &[("a", "alpha"), ("b", "beta")]);
    let state = EvalState::in_place(StatePlace::InSet(store.clone()));
    assert_eq!(
        state.cases_path(),
        ws.path().join(".memory/.memwb/evals.json")
    );
    assert!(eval::load_cases(&state).unwrap().is_empty());
    let with_note = Case::new("alpha?", names(&["a"]), names(&["b"]), Some("why".into())).unwrap();
    assert_eq!(
        eval::add_case(&MemoryBackend::new(&store), &state, with_note.clone()).unwrap(),
        1
    );
    assert_eq!(
        eval::add_case(
            &MemoryBackend::new(&store),
            &state,
            case("beta", &["b"], &[])
        )
        .unwrap(),
        2
    );
    let cases = eval::load_cases(&state).unwrap();
    assert_eq!(cases, [with_note, case("beta", &["b"], &[])]);
    let removed = eval::remove_case(&MemoryBackend::new(&store), &state, 1).unwrap();
    assert_eq!(removed.query, "alpha?");
    assert_eq!(
        eval::load_cases(&state).unwrap(),
        [case("beta", &["b"], &[])]
    );
    let leftovers: Vec<_> = std::fs::read_dir(state.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn invalid_case_files_are_refused_naming_the_file_and_the_rule() {
    let ws = workspace();
    let store = seeded(ws.path(), &[("a", "alpha")]);
    let state = EvalState::in_place(StatePlace::InSet(store.clone()));
    let bad = [
        ("not json", "expected"),
        (r#"[{"query": "q", "expect": ["a"]}]"#, "must be an object"),
        (
            r#"{"version": 2, "cases": []}"#,
            "version 2 is not supported",
        ),
        (
            r#"{"version": 1, "cases": [{"query": "q", "expect": ["a"], "extra": 1}]}"#,
            "unknown field `extra`",
        ),
        (
            r#"{"version": 1, "cases": [{"query": "ok", "expect": ["a"]}, {"query": " ", "expect": ["a"]}]}"#,
            "case 2",
        ),
        (
            r#"{"version": 1, "cases": [{"query": "q", "expect": ["a", "a"]}]}"#,
            "expect lists \"a\" twice",
        ),
        (
            r#"{"version": 1, "cases": [{"query": "q", "expect": ["no such thing"]}]}"#,
            "one word",
        ),
        (
            r#"{"version": 1, "cases": [{"query": "q"}]}"#,
            "expects nothing and forbids nothing",
        ),
        (
            r#"{"version": 1, "cases": [{"query": "q", "expect": "a"}]}"#,
            "expected a sequence",
        ),
    ];
    for (text, rule) in bad {
        write_cases(&state, text);
        let error = cases_error(&state);
        assert!(
            error.contains(rule) && error.contains("evals.json"),
            "{text}: {error:?} should name evals.json and say {rule:?}"
        );
        assert_eq!(
            std::fs::read_to_string(state.cases_path()).unwrap(),
            text,
            "left as it was"
        );
        assert!(
            matches!(
                eval::add_case(&MemoryBackend::new(&store), &state, case("x", &["a"], &[])),
                Err(EvalError::CasesInvalid { .. })
            ),
            "an edit of an invalid file is refused"
        );
        assert_eq!(
            std::fs::read_to_string(state.cases_path()).unwrap(),
            text,
            "unchanged by the refused edit"
        );
    }
}

#[test]
fn non_regular_and_oversized_case_files_are_refused_without_hanging() {
    let ws = workspace();
    let store = seeded(ws.path(), &[("a", "alpha")]);
    let state = EvalState::in_place(StatePlace::InSet(store.clone()));
    std::fs::create_dir_all(state.dir()).unwrap();
    let path = state.cases_path();
    use rustix::fs::{CWD, FileType, Mode, mknodat};
    mknodat(CWD, &path, FileType::Fifo, Mode::from_raw_mode(0o600), 0).expect("mkfifo");
    assert!(cases_error(&state).contains("not a regular file (it is a FIFO)"));
    let edit =
        eval::add_case(&MemoryBackend::new(&store), &state, case("q", &["a"], &[])).unwrap_err();
    assert!(
        edit.to_string().contains("not a regular file"),
        "a FIFO is neither read nor replaced: {edit}"
    );
    std::fs::remove_file(&path).unwrap();

    let elsewhere = ws.path().join("elsewhere.json");
    std::fs::write(&elsewhere, r#"{"version": 1, "cases": []}"#).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
    assert!(cases_error(&state).contains("is a symbolic link"));
    std::fs::remove_file(&path).unwrap();

    std::fs::create_dir(&path).unwrap();
    assert!(cases_error(&state).contains("not a regular file (it is a directory)"));
    std::fs::remove_dir(&path).unwrap();

    let huge = format!(
        "{{\"version\": 1, \"cases\": [], \"pad\": \"{}\"}}",
        "x".repeat(5 << 20)
    );
    std::fs::write(&path, huge).unwrap();
    assert!(cases_error(&state).contains("is larger than 4194304 bytes"));
}

#[test]
fn adding_a_case_needs_its_names_in_the_set() {
    let ws = workspace();
    let store = seeded(ws.path(), &[("a", "alpha")]);
    let state = EvalState::in_place(StatePlace::InSet(store.clone()));
    for bad in [case("q", &["zz"], &[]), case("q", &["a"], &["zz"])] {
        let error = eval::add_case(&MemoryBackend::new(&store), &state, bad)
            .unwrap_err()
            .to_string();
        assert!(error.contains("no memory named \"zz\""), "{error}");
    }
    assert!(!state.cases_path().exists(), "nothing written");
    assert!(matches!(
        eval::remove_case(&MemoryBackend::new(&store), &state, 1),
        Err(EvalError::NoSuchCase {
            number: 1,
            count: 0
        })
    ));
}

#[test]
fn names_gone_from_the_set_are_broken_not_misses() {
    let ws = workspace();
    let store = seeded(
        ws.path(),
        &[
            ("no-mocked-database", "Database tests use a real database"),
            ("tabs", "Indent with tabs"),
        ],
    );
    let state = EvalState::in_place(StatePlace::InSet(store.clone()));
    eval::add_case(
        &MemoryBackend::new(&store),
        &state,
        case("database tests", &["no-mocked-database", "tabs"], &[]),
    )
    .unwrap();
    eval::add_case(
        &MemoryBackend::new(&store),
        &state,
        case("indent", &["tabs"], &[]),
    )
    .unwrap();
    let tabs = store
        .records()
        .unwrap()
        .into_iter()
        .find(|r| r.name() == "tabs")
        .unwrap();
    store.remove(&[tabs]).unwrap();
    let corpus = Corpus::read(&MemoryBackend::new(&store)).unwrap();
    let run = eval::run_keyword(&corpus, &eval::load_cases(&state).unwrap(), 5);
    let [partly, wholly] = &run.results[..] else {
        panic!("two results")
    };
    assert_eq!(partly.broken, ["tabs"]);
    assert_eq!(
        partly.verdict(),
        Verdict::Pass,
        "scored on the name still there"
    );
    assert_eq!(wholly.broken, ["tabs"]);
    assert_eq!(wholly.verdict(), Verdict::Broken);
    assert_eq!(run.scores.scored, 1);
    assert_eq!(
        run.scores.recall_at_k,
        Some(1.0),
        "the broken case is no miss"
    );
}

/// The hand-computed example of docs/eval.md: set {a, b, c, d}, four cases.
fn worked_example(k: usize) -> Vec<CaseResult> {
    let in_set = |name: &str| ["a", "b", "c", "d"].contains(&name);
    [
        (case("one", &["a", "b"], &[]), names(&["c", "a", "b"])),
        (case("two", &["c"], &[]), names(&["a", "b"])),
        (case("three", &["d"], &["a"]), names(&["d", "a"])),
        (case("four", &["gone"], &[]), names(&["a"])),
    ]
    .into_iter()
    .map(|(case, selected)| CaseResult::score(&case, &in_set, selected, k, None))
    .collect()
}

fn close(actual: Option<f64>, expected: f64) -> bool {
    actual.is_some_and(|a| (a - expected).abs() < 1e-12)
}

#[test]
fn every_metric_matches_the_hand_computed_example_at_k_5() {
    let results = worked_example(5);
    let per_case: Vec<_> = results
        .iter()
        .map(|r| {
            (
                r.recall(),
                r.precision(),
                r.reciprocal_rank(),
                r.rank,
                r.hit,
            )
        })
        .collect();
    assert_eq!(
        per_case,
        [
            (Some(1.0), Some(2.0 / 3.0), Some(0.5), Some(2), true),
            (Some(0.0), Some(0.0), Some(0.0), None, false),
            (Some(1.0), Some(0.5), Some(1.0), Some(1), false),
            (None, None, None, None, false),
        ]
    );
    assert_eq!(results[2].forbidden, ["a"]);
    assert_eq!(results[3].broken, ["gone"]);
    let scores = Scores::of(&results);
    assert!(close(scores.recall_at_k, 2.0 / 3.0), "{scores:?}");
    assert!(close(scores.precision_at_k, 7.0 / 18.0), "{scores:?}");
    assert!(close(scores.mrr, 0.5), "{scores:?}");
    assert_eq!((scores.forbidden_hits, scores.scored), (1, 3));
}

#[test]
fn every_metric_matches_the_hand_computed_example_at_k_2() {
    let results = worked_example(2);
    assert_eq!(results[0].selected, ["c", "a"]);
    assert!(!results[0].hit, "b fell beyond k");
    let scores = Scores::of(&results);
    assert!(close(scores.recall_at_k, 0.5), "{scores:?}");
    assert!(close(scores.precision_at_k, 1.0 / 3.0), "{scores:?}");
    assert!(close(scores.mrr, 0.5), "{scores:?}");
    assert_eq!(scores.forbidden_hits, 1);
}

#[test]
fn no_scored_case_means_no_means() {
    let scores = Scores::of(&[]);
    assert_eq!(
        (scores.recall_at_k, scores.precision_at_k, scores.mrr),
        (None, None, None)
    );
}

#[test]
fn self_retrieval_asks_each_description_for_its_record() {
    let ws = workspace();
    let store = seeded(
        ws.path(),
        &[
            ("tabs", "Indent with tabs"),
            ("db", "Integration tests hit a real database"),
            ("x", "a b"),
        ],
    );
    let corpus = Corpus::read(&MemoryBackend::new(&store)).unwrap();
    let cases = eval::self_cases(&corpus.memories);
    assert_eq!(
        cases[1],
        case("Integration tests hit a real database", &["db"], &[])
    );
    let run = eval::run_keyword(&corpus, &cases, 5);
    let verdicts: Vec<_> = run.results.iter().map(CaseResult::verdict).collect();
    // "a b" has no token of three letters: the keyword fallback cannot find it.
    assert_eq!(verdicts, [Verdict::Pass, Verdict::Pass, Verdict::Fail]);
    assert!(close(run.scores.recall_at_k, 2.0 / 3.0));
}

/// A model program: names `db` for a query about databases, answers something that is not JSON
/// for a query about indenting, an empty array otherwise; it counts its calls in `calls`.
fn scripted_model(dir: &Path) -> CommandClient {
    let calls = dir.join("calls");
    let script = dir.join("model.sh");
    let reply = |content: &str| {
        format!(
            r#"{{"message":{{"content":{}}},"finish_reason":"stop","usage":{{"prompt_tokens":10,"completion_tokens":2}}}}"#,
            serde_json::to_string(content).unwrap()
        )
    };
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nreq=$(cat)\necho x >> '{}'\ncase \"$req\" in\n  *'query\\\":\\\"database'*) printf '%s' '{}' ;;\n  *'query\\\":\\\"indent'*) printf '%s' '{}' ;;\n  *) printf '%s' '{}' ;;\nesac\n",
            calls.display(),
            reply(r#"["db"]"#),
            reply("not json"),
            reply("[]"),
        ),
    )
    .unwrap();
    CommandClient::shell(
        &format!("sh '{}'", script.display()),
        Duration::from_secs(30),
    )
}

fn calls(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("calls")).map_or(0, |t| t.lines().count())
}

#[test]
fn the_model_selector_runs_each_case_and_an_invalid_reply_fails_only_its_case() {
    let ws = workspace();
    let tmp = workspace();
    let store = seeded(
        ws.path(),
        &[
            ("db", "Integration tests hit a real database"),
            ("tabs", "Indent with tabs"),
        ],
    );
    let corpus = Corpus::read(&MemoryBackend::new(&store)).unwrap();
    let cases = [
        case("database tests", &["db"], &[]),
        case("indent style", &["tabs"], &[]),
        case("what else", &["tabs"], &[]),
    ];
    let client = scripted_model(tmp.path());
    let run = eval::run_model(&corpus, &cases, 5, &client, None);
    let summary: Vec<_> = run
        .results
        .iter()
        .map(|r| (r.selected.clone(), r.verdict(), r.error.is_some()))
        .collect();
    assert_eq!(
        summary,
        [
            (names(&["db"]), Verdict::Pass, false),
            (vec![], Verdict::Fail, true),
            (vec![], Verdict::Fail, false),
        ]
    );
    assert!(
        run.results[1]
            .error
            .as_deref()
            .unwrap()
            .contains("not JSON")
    );
    assert!(close(run.scores.recall_at_k, 1.0 / 3.0));
    let cost = run.cost.unwrap();
    assert_eq!((cost.calls, cost.cached, calls(tmp.path())), (3, 0, 3));
    let tokens = cost.tokens.unwrap();
    assert_eq!((tokens.prompt_tokens, tokens.completion_tokens), (30, 6));
}

#[test]
fn a_second_run_of_unchanged_cases_is_answered_by_the_cache() {
    let ws = workspace();
    let tmp = workspace();
    let store = seeded(
        ws.path(),
        &[
            ("db", "Integration tests hit a real database"),
            ("tabs", "Indent with tabs"),
        ],
    );
    let state = EvalState::in_place(StatePlace::InSet(store.clone()));
    let cases = [
        case("database tests", &["db"], &[]),
        case("indent style", &["tabs"], &[]),
    ];
    let client = scripted_model(tmp.path());
    let cache = || Some(ReplyCache::new(&state, "command model.sh"));
    let corpus = Corpus::read(&MemoryBackend::new(&store)).unwrap();
    let first = eval::run_model(&corpus, &cases, 5, &client, cache());
    assert_eq!(calls(tmp.path()), 2);
    let second = eval::run_model(&corpus, &cases, 5, &client, cache());
    assert_eq!(calls(tmp.path()), 2, "no model call on the second run");
    assert_eq!(
        second.results, first.results,
        "the cached invalid reply fails its case again"
    );
    let cost = second.cost.unwrap();
    assert_eq!((cost.calls, cost.cached, cost.tokens), (0, 2, None));

    // Another model, another k (another prompt) or a changed set is asked again.
    let other = eval::run_model(
        &corpus,
        &cases,
        5,
        &client,
        Some(ReplyCache::new(&state, "other")),
    );
    assert_eq!(other.cost.unwrap().calls, 2);
    eval::run_model(&corpus, &cases, 3, &client, cache());
    assert_eq!(calls(tmp.path()), 6);
    store
        .extend(vec![record("new", "something new", "b")])
        .unwrap();
    let changed = Corpus::read(&MemoryBackend::new(&store)).unwrap();
    assert_eq!(
        eval::run_model(&changed, &cases, 5, &client, cache())
            .cost
            .unwrap()
            .calls,
        2
    );
}

#[test]
fn an_empty_set_asks_the_model_nothing() {
    let ws = workspace();
    let tmp = workspace();
    let store = open(ws.path());
    let corpus = Corpus::read(&MemoryBackend::new(&store)).unwrap();
    let client = scripted_model(tmp.path());
    let run = eval::run_model(&corpus, &[case("database", &["db"], &[])], 5, &client, None);
    assert_eq!(run.results[0].broken, ["db"]);
    assert_eq!((run.cost.unwrap().calls, calls(tmp.path())), (0, 0));
}

/// Files `plan` as a proposal against the set as it reads now.
fn proposed(store: &Store, plan: memwb::review::Plan) -> memwb::review::Proposal {
    use memwb::review::proposal::{self, NewProposal};
    proposal::file(
        store,
        NewProposal {
            plan,
            origin: memwb::review::Origin::new("import"),
            seen: store.read().unwrap(),
            additions: Vec::new(),
            evidence: None,
        },
    )
    .expect("filed")
}

#[test]
fn a_plan_is_judged_on_the_set_as_it_would_be() {
    use memwb::eval::CaseChanges;
    use memwb::review::Plan;
    let ws = workspace();
    let store = seeded(
        ws.path(),
        &[
            ("db", "Integration tests hit a real database"),
            ("tabs", "Indent with tabs"),
        ],
    );
    let backend = MemoryBackend::new(&store);
    let now = Corpus::read(&MemoryBackend::new(&store)).unwrap();
    let cases = [
        case("integration tests", &["db"], &[]),
        case("weather", &["tabs"], &[]),
        case("indent", &["tabs"], &[]),
    ];
    let consolidation = proposed(
        &store,
        Plan::Consolidation {
            source_names: names(&["db", "tabs"]),
            records: vec![
                record("db", "Suites hit real services", "b"),
                record("tabs", "Indent with tabs, whatever the weather", "b"),
            ],
        },
    );
    let after = now.after(&backend, &consolidation).expect("applies");
    let after_names: Vec<&str> = after.memories.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(after_names, ["db", "tabs"]);
    let changes = CaseChanges::between(&now, &after, &cases, 5);
    assert_eq!(
        changes,
        CaseChanges {
            now_pass: vec![2],
            now_fail: vec![1]
        }
    );
    assert_eq!(
        changes.describe(),
        "approving this changes 2 cases: +1 pass, -1 fail"
    );
    let extraction = proposed(
        &store,
        Plan::Extraction(vec![record("weather-notes", "About the weather", "b")]),
    );
    let with_extraction = now.after(&backend, &extraction).expect("applies");
    let unchanged = CaseChanges::between(&now, &with_extraction, &cases, 5);
    assert_eq!(unchanged.describe(), "approving this changes no case");
    assert_eq!(with_extraction.memories.len(), 3);
}

#[test]
fn state_kept_outside_the_memory_folder_works_the_same() {
    let ws = workspace();
    let elsewhere = workspace();
    let store = seeded(ws.path(), &[("a", "alpha")]);
    let state = EvalState::at(elsewhere.path().join("memwb/sets/one"));
    eval::add_case(
        &MemoryBackend::new(&store),
        &state,
        case("alpha", &["a"], &[]),
    )
    .unwrap();
    assert!(elsewhere.path().join("memwb/sets/one/evals.json").is_file());
    assert!(
        !ws.path().join(".memory/.memwb/evals.json").exists(),
        "nothing in .memory"
    );
    assert_eq!(
        eval::load_cases(&state).unwrap(),
        [case("alpha", &["a"], &[])]
    );
    let path = state.cases_path();
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(ws.path().join("x.json"), &path).unwrap();
    assert!(cases_error(&state).contains("is a symbolic link"));
}

#[test]
fn a_linked_state_folder_is_refused() {
    let ws = workspace();
    let outside = workspace();
    let store = seeded(ws.path(), &[("a", "alpha")]);
    std::fs::write(
        outside.path().join("evals.json"),
        r#"{"version": 1, "cases": []}"#,
    )
    .unwrap();
    let memwb = ws.path().join(".memory/.memwb");
    if memwb.exists() {
        std::fs::remove_dir_all(&memwb).unwrap();
    }
    std::os::unix::fs::symlink(outside.path(), &memwb).unwrap();
    let state = EvalState::in_place(StatePlace::InSet(store.clone()));
    assert!(
        cases_error(&state).contains("symbolic link"),
        "{}",
        cases_error(&state)
    );
    assert!(
        eval::add_case(
            &MemoryBackend::new(&store),
            &state,
            case("alpha", &["a"], &[])
        )
        .is_err()
    );
    assert_eq!(
        std::fs::read_to_string(outside.path().join("evals.json")).unwrap(),
        r#"{"version": 1, "cases": []}"#,
        "nothing written through the link"
    );
}
