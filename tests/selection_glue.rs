//! One selection for every caller: `memwb select` (through `cli::select::execute`) and the
//! workbench's Query pane (through `tui::query::select_with`) run the session's one
//! `Selector`, so for the same environment they select the same names, fall back the same way
//! when a model fails, and refuse the same bad settings (docs/session.md).

use crate::common;

use std::collections::HashMap;

use clap::Parser;
use common::*;
use memwb::cli::select::{SelectArgs, execute};
use memwb::formats::memory::MemoryBackend;
use memwb::session::SELECTION_FAILED;
use memwb::store::Store;
use memwb::tui::query::select_with;
use serde_json::json;

#[derive(Parser, Debug)]
struct Harness {
    #[command(flatten)]
    args: SelectArgs,
}

fn args(query: &str) -> SelectArgs {
    Harness::try_parse_from(["select", query])
        .expect("parse")
        .args
}

fn env_of(vars: &[(&str, String)]) -> impl Fn(&str) -> Option<String> + use<> {
    let vars: HashMap<String, String> =
        vars.iter().map(|(k, v)| ((*k).into(), v.clone())).collect();
    move |name| vars.get(name).cloned()
}

/// What the CLI selects for `query` in `env`: the names and whether it fell back, or the error.
fn cli(
    store: &Store,
    query: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(Vec<String>, Option<String>), String> {
    execute(&MemoryBackend::new(store), &args(query), env)
        .map(|s| (s.names(), s.error))
        .map_err(|e| e.to_string())
}

/// The same through the Query pane, which reads the set itself.
fn workbench(
    store: &Store,
    query: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> memwb::tui::panes::query::QueryResult {
    let set = store.read().expect("read");
    let records: Vec<_> = set.records().cloned().collect();
    select_with(query, &records, Some(&set.index_text()), env)
}

/// A model program answering `content` to every request.
fn model(dir: &std::path::Path, content: &str) -> String {
    let path = dir.join("model.sh");
    let reply = json!({"message": {"content": content}, "finish_reason": "stop"}).to_string();
    std::fs::write(
        &path,
        format!("#!/bin/sh\ncat >/dev/null\nprintf '%s' '{reply}'\n"),
    )
    .expect("write model");
    format!("sh '{}'", path.display())
}

#[test]
fn bad_model_settings_are_refused_by_both_callers_alike() {
    let store = open(&fixture("stores/basic"));
    let cases: [&[(&str, String)]; 4] = [
        // contradictory
        &[
            ("MEMWB_MODEL_URL", "http://h/v1".into()),
            ("MEMWB_MODEL_CMD", "x".into()),
        ],
        // a URL without a model name
        &[("MEMWB_MODEL_URL", "http://h/v1".into())],
        // configured, but no client can use it
        &[
            ("MEMWB_MODEL_URL", "ftp://h".into()),
            ("MEMWB_MODEL", "m".into()),
        ],
        &[
            ("MEMWB_MODEL_CMD", "x".into()),
            ("MEMWB_MODEL_TIMEOUT", "0".into()),
        ],
    ];
    for vars in cases {
        let env = env_of(vars);
        let refused = cli(&store, "tabs", &env).expect_err("the CLI refuses");
        let shown = workbench(&store, "tabs", &env);
        assert!(shown.names.is_empty(), "{vars:?}: nothing is selected");
        assert_eq!(shown.how, "nothing", "{vars:?}");
        let error = shown.error.expect("the pane says why");
        assert!(
            error.starts_with(&refused),
            "{vars:?}: the pane shows the CLI's error {refused:?}, got {error:?}"
        );
        assert!(refused.contains("model settings are invalid"), "{refused}");
    }
}

#[test]
fn without_a_model_both_rank_by_keyword() {
    let store = open(&fixture("stores/basic"));
    let env = env_of(&[]);
    let (names, error) = cli(&store, "tabs indentation", &env).expect("select");
    let shown = workbench(&store, "tabs indentation", &env);
    assert_eq!(shown.names, names);
    assert_eq!(names, ["user-preference-tabs"]);
    assert_eq!((error, shown.error), (None, None));
    assert_eq!(shown.how, "keyword fallback");
}

#[cfg(unix)]
#[test]
fn a_model_answers_both_and_a_failing_one_falls_back_in_both() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let store = open(&fixture("stores/basic"));
    let env = env_of(&[(
        "MEMWB_MODEL_CMD",
        model(tmp.path(), r#"["review-feedback","ci-reference"]"#),
    )]);
    let (names, error) = cli(&store, "tabs", &env).expect("select");
    let shown = workbench(&store, "tabs", &env);
    assert_eq!(names, ["review-feedback", "ci-reference"]);
    assert_eq!((shown.names, shown.how.as_str()), (names, "model"));
    assert_eq!((error, shown.error), (None, None));

    let env = env_of(&[("MEMWB_MODEL_CMD", "exit 7".into())]);
    let (names, error) = cli(&store, "tabs", &env).expect("a failing model is no error");
    let shown = workbench(&store, "tabs", &env);
    assert_eq!(names, ["user-preference-tabs"]);
    assert_eq!(
        (shown.names, shown.how.as_str()),
        (names, "keyword fallback")
    );
    assert_eq!(error.as_deref(), Some(SELECTION_FAILED));
    assert_eq!(shown.error.as_deref(), Some(SELECTION_FAILED));
}
