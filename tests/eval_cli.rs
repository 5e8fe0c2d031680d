//! `memwb eval` end to end: editing cases, `--self`, the `--json` shape, the exit codes of
//! `--min-recall` and forbidden hits, and the model selector through `--model-cmd` with its
//! reply cache.

use crate::common;
use crate::common::cli::memwb;

use std::path::Path;
use std::process::Output;

use common::workspace;
use serde_json::{Value, json};

#[track_caller]
fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("utf-8")
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A workspace with three records; `db` and `tabs` are found by their keywords.
fn seeded() -> tempfile::TempDir {
    let ws = workspace();
    for (name, description) in [
        (
            "no-mocked-database",
            "Integration tests hit a real database",
        ),
        ("prefers-tabs", "Indent with tabs"),
        ("release-freeze", "Merge freeze before a release"),
    ] {
        ok(&memwb(
            ws.path(),
            &common::cli::add_args(name, description, "b"),
        ));
    }
    ws
}

#[test]
fn cases_are_added_listed_and_removed() {
    let ws = seeded();
    let dir = ws.path();
    assert_eq!(
        ok(&memwb(
            dir,
            &[
                "eval",
                "add",
                "database tests",
                "--expect",
                "no-mocked-database",
                "--forbid",
                "prefers-tabs"
            ]
        )),
        "added case 1; memwb eval runs every case\n"
    );
    assert_eq!(
        ok(&memwb(
            dir,
            &[
                "eval",
                "add",
                "tabs",
                "--expect",
                "prefers-tabs",
                "--note",
                "style"
            ]
        )),
        "added case 2; memwb eval runs every case\n"
    );
    let listed = ok(&memwb(dir, &["eval", "ls"]));
    assert!(
        listed.contains("1  database tests  expect no-mocked-database  forbid prefers-tabs")
            && listed.contains("2  tabs  expect prefers-tabs  (style)"),
        "{listed}"
    );
    assert_eq!(
        json_of(&memwb(dir, &["eval", "ls", "--json"])),
        json!([
            {"query": "database tests", "expect": ["no-mocked-database"], "forbid": ["prefers-tabs"]},
            {"query": "tabs", "expect": ["prefers-tabs"], "forbid": [], "note": "style"},
        ])
    );
    assert!(ok(&memwb(dir, &["eval", "rm", "1"])).contains("removed case 1: database tests"));
    assert_eq!(
        json_of(&memwb(dir, &["eval", "ls", "--json"]))
            .as_array()
            .unwrap()
            .len(),
        1
    );

    for refused in [
        vec!["eval", "add", "q", "--expect", "nope"],
        vec!["eval", "add", "  ", "--expect", "prefers-tabs"],
        vec![
            "eval",
            "add",
            "q",
            "--expect",
            "prefers-tabs",
            "--forbid",
            "prefers-tabs",
        ],
        vec!["eval", "rm", "7"],
    ] {
        let out = memwb(dir, &refused);
        assert_eq!(out.status.code(), Some(2), "{refused:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with("error: "),
            "{refused:?}"
        );
    }
    assert_eq!(
        json_of(&memwb(dir, &["eval", "ls", "--json"]))
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn the_json_report_has_the_documented_shape_and_key_order() {
    let ws = seeded();
    let dir = ws.path();
    ok(&memwb(
        dir,
        &[
            "eval",
            "add",
            "database tests",
            "--expect",
            "no-mocked-database",
        ],
    ));
    let out = memwb(dir, &["eval", "--json", "--k", "3"]);
    let text = ok(&out);
    let report = json_of(&out);
    assert_eq!(report["k"], 3);
    assert_eq!(report["cases"], 1);
    assert!(
        report["selectors"].get("model").is_none(),
        "no model configured"
    );
    let keyword = &report["selectors"]["keyword"];
    assert_eq!(keyword["recall_at_k"], 1.0);
    assert_eq!(keyword["precision_at_k"], 1.0);
    assert_eq!(keyword["mrr"], 1.0);
    assert_eq!(keyword["forbidden_hits"], 0);
    assert_eq!(
        keyword["results"][0],
        json!({"query": "database tests", "expect": ["no-mocked-database"], "forbid": [],
               "selected": ["no-mocked-database"], "hit": true, "broken": [], "rank": 1, "error": null})
    );
    let order = [
        "\"k\"",
        "\"cases\"",
        "\"selectors\"",
        "\"recall_at_k\"",
        "\"precision_at_k\"",
        "\"mrr\"",
        "\"forbidden_hits\"",
        "\"results\"",
        "\"query\"",
        "\"expect\"",
        "\"forbid\"",
        "\"selected\"",
        "\"hit\"",
        "\"broken\"",
    ];
    let positions: Vec<usize> = order.iter().map(|key| text.find(key).expect(key)).collect();
    assert!(
        positions.is_sorted(),
        "keys out of the documented order: {text}"
    );
}

#[test]
fn self_retrieval_runs_one_case_per_record() {
    let ws = seeded();
    let out = memwb(
        ws.path(),
        &["eval", "--self", "--json", "--min-recall", "1"],
    );
    let report = json_of(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "every description finds its record"
    );
    assert_eq!(report["cases"], 3);
    assert_eq!(
        report["selectors"]["keyword"]["results"][1]["query"],
        "Indent with tabs"
    );
    assert_eq!(
        report["selectors"]["keyword"]["results"][1]["expect"],
        json!(["prefers-tabs"])
    );
    let human = ok(&memwb(ws.path(), &["eval", "--self"]));
    assert!(human.contains("keyword   1.00"), "{human}");
}

#[test]
fn min_recall_and_forbidden_hits_set_the_exit_code() {
    let ws = seeded();
    let dir = ws.path();
    ok(&memwb(
        dir,
        &[
            "eval",
            "add",
            "database tests",
            "--expect",
            "no-mocked-database",
        ],
    ));
    ok(&memwb(
        dir,
        &["eval", "add", "how do I indent", "--expect", "prefers-tabs"],
    ));
    let code = |args: &[&str]| memwb(dir, args).status.code();
    let recall = json_of(&memwb(dir, &["eval", "--json"]))["selectors"]["keyword"]["recall_at_k"]
        .as_f64()
        .unwrap();
    assert_eq!(recall, 1.0, "\"indent\" finds prefers-tabs");
    ok(&memwb(
        dir,
        &[
            "eval",
            "add",
            "what about the weather",
            "--expect",
            "release-freeze",
        ],
    ));
    assert_eq!(
        code(&["eval"]),
        Some(0),
        "no threshold: a miss alone is no failure"
    );
    assert_eq!(
        code(&["eval", "--min-recall", "0.6"]),
        Some(0),
        "2/3 >= 0.6"
    );
    assert_eq!(code(&["eval", "--min-recall", "0.7"]), Some(1), "2/3 < 0.7");
    assert_eq!(
        code(&["eval", "--min-recall", "1.5"]),
        Some(2),
        "not a share"
    );
    ok(&memwb(
        dir,
        &[
            "eval",
            "add",
            "real database",
            "--expect",
            "no-mocked-database",
            "--forbid",
            "release-freeze",
        ],
    ));
    assert_eq!(
        code(&["eval"]),
        Some(0),
        "the forbidden name is not selected"
    );
    ok(&memwb(
        dir,
        &[
            "eval",
            "add",
            "database release",
            "--expect",
            "no-mocked-database",
            "--forbid",
            "release-freeze",
        ],
    ));
    let out = memwb(dir, &["eval", "--json"]);
    assert_eq!(out.status.code(), Some(1), "a forbidden hit fails the run");
    assert_eq!(json_of(&out)["selectors"]["keyword"]["forbidden_hits"], 1);
    assert!(ok(&memwb(dir, &["eval", "rm", "5"])).contains("removed"));
    assert_eq!(code(&["eval"]), Some(0));
    std::fs::write(dir.join(".memory/.memwb/evals.json"), "{").unwrap();
    let out = memwb(dir, &["eval"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unreadable case file is an error, not a pass"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("evals.json"));
}

#[test]
fn without_cases_a_threshold_fails() {
    let ws = seeded();
    assert!(ok(&memwb(ws.path(), &["eval"])).contains("no cases"));
    assert_eq!(
        memwb(ws.path(), &["eval", "--min-recall", "0.5"])
            .status
            .code(),
        Some(1)
    );
}

/// A model program that names `no-mocked-database` for database queries and answers prose
/// otherwise; each call adds a line to `calls`.
fn scripted_model(dir: &Path) -> String {
    let script = dir.join("model.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nreq=$(cat)\necho x >> '{calls}'\ncase \"$req\" in\n  *'query\\\":\\\"database'*) printf '%s' '{db}' ;;\n  *) printf '%s' '{prose}' ;;\nesac\n",
            calls = dir.join("calls").display(),
            db = json!({"message": {"content": "[\"no-mocked-database\"]"}, "finish_reason": "stop"}),
            prose = json!({"message": {"content": "I think prefers-tabs"}, "finish_reason": "stop"}),
        ),
    )
    .unwrap();
    format!("sh '{}'", script.display())
}

#[test]
fn the_model_runs_beside_the_keyword_fallback_and_its_replies_are_cached() {
    let ws = seeded();
    let tmp = workspace();
    let dir = ws.path();
    ok(&memwb(
        dir,
        &[
            "eval",
            "add",
            "database tests",
            "--expect",
            "no-mocked-database",
        ],
    ));
    ok(&memwb(
        dir,
        &["eval", "add", "indent", "--expect", "prefers-tabs"],
    ));
    let model = scripted_model(tmp.path());
    let calls =
        || std::fs::read_to_string(tmp.path().join("calls")).map_or(0, |t| t.lines().count());
    let out = memwb(dir, &["eval", "--json", "--model-cmd", &model]);
    let report = json_of(&out);
    assert_eq!(out.status.code(), Some(0));
    let selectors = &report["selectors"];
    assert_eq!(selectors["keyword"]["recall_at_k"], 1.0);
    assert_eq!(selectors["model"]["recall_at_k"], 0.5);
    let results = &selectors["model"]["results"];
    assert_eq!(results[0]["selected"], json!(["no-mocked-database"]));
    assert_eq!(results[1]["hit"], false);
    assert_eq!(results[1]["selected"], json!([]));
    assert!(
        results[1]["error"].as_str().unwrap().contains("not JSON"),
        "{results}"
    );
    let cost = &selectors["model"]["cost"];
    assert_eq!(
        (
            cost["calls"].clone(),
            cost["cached"].clone(),
            cost["tokens"].clone()
        ),
        (json!(2), json!(0), Value::Null)
    );
    assert_eq!(calls(), 2);

    let again = json_of(&memwb(dir, &["eval", "--json", "--model-cmd", &model]));
    assert_eq!(calls(), 2, "the second run asks the model nothing");
    assert_eq!(again["selectors"]["model"]["cost"]["cached"], 2);
    assert_eq!(again["selectors"]["model"]["results"], *results);
    let human = ok(&memwb(dir, &["eval", "--model-cmd", &model]));
    assert!(
        human.contains("0 calls, 2 cached, tokens not reported"),
        "{human}"
    );
    assert_eq!(
        memwb(
            dir,
            &["eval", "--model-cmd", &model, "--min-recall", "0.75"]
        )
        .status
        .code(),
        Some(1),
        "the model's recall counts for the threshold too"
    );
    ok(&memwb(dir, &["eval", "--no-cache", "--model-cmd", &model]));
    assert_eq!(calls(), 4, "--no-cache asks again");
    let check = memwb(dir, &["check", "--json"]);
    assert_eq!(
        json_of(&check)["findings"],
        json!([]),
        "the case file and the cache are memwb's own state, not findings"
    );
}
