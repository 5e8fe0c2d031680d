//! Running the cases: the model selector, its cache, an empty set, a plan judged on the set it
//! would make.

use super::*;

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
    let state = EvalState::in_place(StatePlace::in_set(store.clone()));
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
fn proposed(store: &Store, plan: memwb::session::Plan) -> memwb::review::Proposal {
    use memwb::formats::memory::journal::{NewProposal, file as file_proposal};
    file_proposal(
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
    use memwb::session::Plan;
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
