//! The case file: round trip, refusals, names in the set or broken, where its state is kept.

use super::*;

#[test]
fn the_case_file_round_trips_and_no_file_means_no_cases() {
    let ws = workspace();
    let store = seeded(ws.path(), &[("a", "alpha"), ("b", "beta")]);
    let state = EvalState::in_place(StatePlace::in_set(store.clone()));
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
    let state = EvalState::in_place(StatePlace::in_set(store.clone()));
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
    let state = EvalState::in_place(StatePlace::in_set(store.clone()));
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
    let state = EvalState::in_place(StatePlace::in_set(store.clone()));
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
    let state = EvalState::in_place(StatePlace::in_set(store.clone()));
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
    let state = EvalState::in_place(StatePlace::in_set(store.clone()));
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
