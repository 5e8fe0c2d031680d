//! `memwb eval` on a Claude Code folder (a copy of tests/fixtures/claude): the cases and the
//! model reply cache live in the folder's state directory under `$MEMWB_STATE_DIR`, never in
//! the folder; add, ls, rm, the run over the topic files with both selectors, `--self`,
//! `--min-recall`, broken names, an invalid model reply and the cache.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

use common::CLAUDE_MEMORY as MEMORY;

struct Fixture {
    home: tempfile::TempDir,
    state: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let home = common::claude_home();
        Self {
            home,
            state: tempfile::tempdir().expect("temp dir"),
        }
    }

    fn memory(&self) -> PathBuf {
        self.home.path().join(MEMORY)
    }

    /// `memwb --memory-dir <the folder> ARGS`, with HOME and MEMWB_STATE_DIR in temporary
    /// directories and nothing else inherited.
    fn memwb(&self, args: &[&str]) -> Output {
        common::cli::memwb_claude(self.home.path(), &self.memory(), self.state.path(), args)
    }

    fn json(&self, args: &[&str]) -> (i32, Value) {
        let out = self.memwb(args);
        let value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{args:?}: not JSON ({e}): {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.code().expect("exit code"), value)
    }

    /// The one state directory memwb made for the folder.
    fn state_dir(&self) -> PathBuf {
        let claude = self.state.path().join("claude");
        let dirs: Vec<_> = fs::read_dir(&claude)
            .expect("state dir")
            .map(|e| e.expect("entry").path())
            .collect();
        assert_eq!(dirs.len(), 1, "{dirs:?}");
        dirs[0].clone()
    }
}

/// Every file under `dir` with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in walk(dir) {
        out.insert(entry.clone(), fs::read(&entry).expect("read"));
    }
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn cases_are_kept_in_the_state_directory_and_run_over_the_topic_files() {
    let f = Fixture::new();
    let before = files(&f.memory());

    let out = f.memwb(&[
        "eval",
        "add",
        "integration tests postgres",
        "--expect",
        "feedback_integration_tests",
        "--forbid",
        "user_role",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "added case 1; memwb eval runs every case\n"
    );
    let out = f.memwb(&["eval", "add", "release", "--expect", "no_such_topic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no memory named \"no_such_topic\""),
        "{}",
        stderr(&out)
    );
    let out = f.memwb(&[
        "eval",
        "add",
        "release freeze",
        "--expect",
        "project_release",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let cases: Value =
        serde_json::from_slice(&fs::read(f.state_dir().join("evals.json")).expect("evals.json"))
            .expect("json");
    assert_eq!(cases["cases"].as_array().map(Vec::len), Some(2));
    let (code, listed) = f.json(&["eval", "ls", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(listed[1]["query"], "release freeze");

    let (code, report) = f.json(&["eval", "--json"]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["cases"], 2);
    let keyword = &report["selectors"]["keyword"];
    assert!(report["selectors"].get("model").is_none());
    assert_eq!(keyword["results"][0]["hit"], true, "{keyword}");
    assert_eq!(
        keyword["results"][0]["selected"][0],
        "feedback_integration_tests"
    );
    assert_eq!(keyword["recall_at_k"], 1.0);
    assert_eq!(keyword["forbidden_hits"], 0);

    let out = f.memwb(&["eval", "rm", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("removed case 2: release freeze"));
    let out = f.memwb(&["eval", "rm", "5"]);
    assert_eq!(out.status.code(), Some(2));

    assert_eq!(
        files(&f.memory()),
        before,
        "nothing is written in the Claude Code folder"
    );
}

#[test]
fn self_cases_min_recall_and_broken_names() {
    let f = Fixture::new();
    let (code, report) = f.json(&["eval", "--self", "--json"]);
    assert_eq!(code, 0, "{report}");
    let results = report["selectors"]["keyword"]["results"]
        .as_array()
        .expect("results")
        .clone();
    assert!(
        results.len() >= 6,
        "one case per described topic file: {report}"
    );
    assert!(
        results
            .iter()
            .any(|r| r["expect"] == json!(["feedback_integration_tests"]))
    );
    let recall = report["selectors"]["keyword"]["recall_at_k"]
        .as_f64()
        .expect("recall");
    let out = f.memwb(&["eval", "--self", "--min-recall", "1"]);
    let below = if recall < 1.0 { 1 } else { 0 };
    assert_eq!(out.status.code(), Some(below), "recall {recall} against 1");
    let out = f.memwb(&["eval", "--self", "--min-recall", &format!("{recall}")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    // A forbidden hit fails the run; a topic file that is gone makes its case broken.
    let out = f.memwb(&[
        "eval",
        "add",
        "release freeze checklist",
        "--forbid",
        "project_release",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = f.memwb(&["eval", "add", "old api", "--expect", "project_old_api"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    fs::remove_file(f.memory().join("project_old_api.md")).expect("rm");
    let (code, report) = f.json(&["eval", "--json"]);
    assert_eq!(code, 1, "a forbidden hit: {report}");
    let keyword = &report["selectors"]["keyword"];
    assert_eq!(keyword["forbidden_hits"], 1);
    assert_eq!(keyword["results"][1]["broken"], json!(["project_old_api"]));
    assert_eq!(
        keyword["recall_at_k"],
        Value::Null,
        "a broken case is left out of the scoring, not counted as a miss: {keyword}"
    );
}

#[cfg(unix)]
#[test]
fn the_model_selector_with_its_cache_in_the_state_directory() {
    let f = Fixture::new();
    let tools = tempfile::tempdir().expect("temp dir");
    // Answers the first request well and every later one with something that is not a
    // selection; each call is logged.
    let model = tools.path().join("model.sh");
    let calls = tools.path().join("calls");
    let good = json!({"message": {"content": "[\"feedback_integration_tests\"]"}, "finish_reason": "stop"});
    let bad = json!({"message": {"content": "not json"}, "finish_reason": "stop"});
    fs::write(
        &model,
        format!(
            "#!/bin/sh\ncat >/dev/null\necho x >> '{calls}'\nif [ \"$(wc -l < '{calls}')\" -le 1 ]; then printf '%s' '{good}'; else printf '%s' '{bad}'; fi\n",
            calls = calls.display()
        ),
    )
    .expect("model");
    let cmd = format!("sh '{}'", model.display());
    for (query, name) in [
        ("integration tests postgres", "feedback_integration_tests"),
        ("release freeze", "project_release"),
    ] {
        let out = f.memwb(&["eval", "add", query, "--expect", name]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    let count = || fs::read_to_string(&calls).map_or(0, |t| t.lines().count());

    let (code, report) = f.json(&["eval", "--json", "--model-cmd", &cmd]);
    assert_eq!(code, 0, "{report}");
    let run = &report["selectors"]["model"];
    assert_eq!(run["results"][0]["hit"], true, "{run}");
    assert_eq!(
        run["results"][1]["hit"], false,
        "an invalid reply fails its case: {run}"
    );
    assert!(run["results"][1]["error"].is_string(), "{run}");
    assert_eq!(run["cost"]["calls"], 2);
    assert_eq!(count(), 2);

    // Both replies were replies (one that breaks the selector's rules is still one): a re-run
    // of the unchanged cases asks nobody and scores the same.
    let (_, again) = f.json(&["eval", "--json", "--model-cmd", &cmd]);
    let run = &again["selectors"]["model"];
    assert_eq!(run["cost"]["cached"], 2, "{run}");
    assert_eq!(run["cost"]["calls"], 0, "{run}");
    assert_eq!(run["results"][0]["hit"], true);
    assert_eq!(run["results"][1]["hit"], false);
    assert_eq!(count(), 2);
    let (_, fresh) = f.json(&["eval", "--json", "--no-cache", "--model-cmd", &cmd]);
    assert_eq!(fresh["selectors"]["model"]["cost"]["calls"], 2);
    assert_eq!(count(), 4);
    assert!(
        fs::read_dir(f.state_dir().join("eval-cache"))
            .expect("cache")
            .count()
            >= 1,
        "the cache is in the state directory"
    );
    assert!(!f.memory().join("eval-cache").exists() && !f.memory().join(".memwb").exists());
}
