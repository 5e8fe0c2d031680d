//! The metrics against a hand-computed example, and self-retrieval.

use super::*;

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
