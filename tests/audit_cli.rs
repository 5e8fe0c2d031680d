//! `memwb check`'s content audit through the binary: each code with positive and negative
//! cases, `--fix`, `accept`, the conflict check with a scripted model, and the promise that no
//! output path ever holds a full secret.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

use common::{open, snapshot, typed, workspace};
use memwb::store::MemoryType;
use serde_json::{Value, json};

/// A GitHub token in the provider's shape (synthetic), assembled so no scanner flags this file.
fn token() -> String {
    ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat()
}

fn memwb(dir: &Path, args: &[&str]) -> Output {
    common::cli::command(dir)
        .args(args)
        .env("TZ", "UTC")
        // No Claude Code folders of the machine's own: only what a test makes.
        .env("CLAUDE_CONFIG_DIR", dir.join(".no-claude-config"))
        .output()
        .expect("memwb runs")
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn add(dir: &Path, name: &str, kind: &str, description: &str, body: &str) {
    let out = memwb(
        dir,
        &[
            "add",
            "--name",
            name,
            "--type",
            kind,
            "--description",
            description,
            "--body",
            body,
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Sets the last change of every record file to 2026-11-26 12:00 UTC (a Thursday), the day
/// relative dates are resolved from.
/// With memwb's journal gone, as in a copy of the folder without memwb's state, so the last
/// change is the only evidence of when the records were written.
fn written_on_thursday(dir: &Path) {
    age_record_files(dir);
    let journal = dir.join(".memory/.memwb/journal.jsonl");
    if journal.exists() {
        std::fs::remove_file(journal).unwrap();
    }
}

fn age_record_files(dir: &Path) {
    let when = SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_694_400);
    for entry in std::fs::read_dir(dir.join(".memory")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") && !path.ends_with("MEMORY.md") {
            let file = std::fs::File::options().write(true).open(&path).unwrap();
            file.set_modified(when).unwrap();
        }
    }
}

fn findings(report: &Value) -> Vec<Value> {
    report["findings"].as_array().cloned().unwrap_or_default()
}

fn codes_for(report: &Value, name: &str) -> Vec<String> {
    findings(report)
        .iter()
        .filter(|f| f["name"] == name)
        .map(|f| f["code"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn each_content_code_is_reported_with_its_line_and_exit_1_on_a_secret() {
    let dir = workspace();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "").unwrap();
    add(
        dir.path(),
        "staging-api",
        "project",
        "How to call the staging API",
        &format!(
            "Use {} for staging.\nRun `scripts/test.sh` after src/lib.rs changes.\nThe release is next Thursday; merge freeze until 2025-01-10.",
            token()
        ),
    );
    add(
        dir.path(),
        "tabs",
        "user",
        "User prefers tabs for indentation",
        "Tabs, from tomorrow on.",
    );
    add(
        dir.path(),
        "tabs-again",
        "feedback",
        "Indentation with tabs preferred by user",
        "Reviewers asked for tabs 明天.",
    );
    written_on_thursday(dir.path());
    let out = memwb(dir.path(), &["check", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report = json_of(&out);
    assert_eq!(report["ok"], false);
    assert_eq!(
        codes_for(&report, "staging-api"),
        ["secret", "stale-path", "relative-date", "date-past"]
    );
    let by_code = |code: &str| {
        findings(&report)
            .into_iter()
            .find(|f| f["code"] == code)
            .unwrap_or_else(|| panic!("no {code}"))
    };
    // The body starts on line 7 of the file: frontmatter (5 lines) and a blank line.
    assert_eq!(by_code("secret")["line"], 7);
    assert_eq!(by_code("secret")["severity"], "error");
    assert!(
        by_code("secret")["message"]
            .as_str()
            .unwrap()
            .contains("github-token on line 7: ghp_…")
    );
    assert_eq!(by_code("stale-path")["line"], 8);
    assert!(
        by_code("stale-path")["message"]
            .as_str()
            .unwrap()
            .contains("scripts/test.sh")
    );
    assert!(
        !by_code("stale-path")["message"]
            .as_str()
            .unwrap()
            .contains("src/lib.rs")
    );
    assert_eq!(by_code("relative-date")["line"], 9);
    assert!(
        by_code("relative-date")["message"]
            .as_str()
            .unwrap()
            .contains("written 2026-11-26 per the file's last change, it means 2026-12-03")
    );
    assert_eq!(by_code("date-past")["severity"], "info");
    // A user memory's "tomorrow" is left alone; a feedback memory's "明天" is not.
    assert_eq!(codes_for(&report, "tabs"), ["duplicate"]);
    assert_eq!(
        codes_for(&report, "tabs-again"),
        ["relative-date", "duplicate"]
    );
    let zh = findings(&report)
        .into_iter()
        .find(|f| f["name"] == "tabs-again" && f["code"] == "relative-date")
        .unwrap();
    assert!(zh["message"].as_str().unwrap().contains("2026-11-27"));
    let duplicate = findings(&report)
        .into_iter()
        .find(|f| f["name"] == "tabs" && f["code"] == "duplicate")
        .unwrap();
    assert!(
        duplicate["message"]
            .as_str()
            .unwrap()
            .contains("near-duplicate of tabs-again")
    );
    assert!(
        report["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("conflict check skipped")
    );
}

/// memwb's journal is better evidence of when a record was written than its last change,
/// which a clone or a copy resets; a record changed by hand since memwb wrote it has none.
#[test]
fn a_relative_date_is_resolved_from_the_journal_before_the_last_change() {
    let dir = workspace();
    let utc_today = || {
        jiff::tz::TimeZone::UTC
            .to_datetime(jiff::Timestamp::now())
            .date()
    };
    let before = utc_today();
    add(
        dir.path(),
        "importer-launch",
        "project",
        "When the CSV importer ships",
        "The importer ships tomorrow.",
    );
    age_record_files(dir.path());
    let message = |dir: &Path| {
        let report = json_of(&memwb(dir, &["check", "--json"]));
        findings(&report)
            .into_iter()
            .find(|f| f["code"] == "relative-date")
            .and_then(|f| f["message"].as_str().map(str::to_owned))
            .unwrap_or_else(|| panic!("no relative-date: {report}"))
    };
    let from_journal = message(dir.path());
    // The day memwb wrote it (the test may straddle midnight), not the aged mtime.
    let journaled = [before, utc_today()].into_iter().any(|day| {
        from_journal.contains(&format!(
            "written {day} per memwb's journal, it means {}",
            day.tomorrow().unwrap()
        ))
    });
    assert!(journaled, "{from_journal}");

    let file = std::fs::read_dir(dir.path().join(".memory"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("MEMORY.md"))
        .expect("the record file");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("ships tomorrow", "now ships tomorrow")).unwrap();
    age_record_files(dir.path());
    let from_mtime = message(dir.path());
    assert!(
        from_mtime.contains("written 2026-11-26 per the file's last change, it means 2026-11-27"),
        "{from_mtime}"
    );
}

#[test]
fn a_set_without_content_problems_passes() {
    let dir = workspace();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("scripts/test.sh"), "").unwrap();
    let store = open(dir.path());
    store
        .extend(vec![
            typed(
                "test-runner",
                MemoryType::Project,
                "How tests run in this repository",
                "Run `./scripts/test.sh`; see https://example.org/docs/a.md and github.com/org/repo.\nThe freeze lasts until 2999-01-01.\nRequest 123e4567-e89b-12d3-a456-426614174000 was slow.",
            ),
            typed(
                "deploy-window",
                MemoryType::Feedback,
                "Deploys happen on weekdays",
                "Deploy on weekdays before 16:00; in the days of old we deployed weekly.",
            ),
        ])
        .unwrap();
    let out = memwb(dir.path(), &["check", "--json"]);
    let report = json_of(&out);
    assert_eq!(findings(&report), Vec::<Value>::new(), "{report:#}");
    assert_eq!(out.status.code(), Some(0));
}

/// A model program that answers `content` and saves the request it got.
fn scripted_model(dir: &Path, content: &Value) -> (String, PathBuf) {
    let reply = json!({"message": {"content": content.to_string()}, "finish_reason": "stop"});
    let reply_path = dir.join("reply.json");
    std::fs::write(&reply_path, reply.to_string()).unwrap();
    let request = dir.join("request.json");
    let script = dir.join("model.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > '{}'\ncat '{}'\n",
            request.display(),
            reply_path.display()
        ),
    )
    .unwrap();
    (format!("sh '{}'", script.display()), request)
}

#[test]
fn a_configured_model_reports_contradictions_and_never_sees_a_secret() {
    let dir = workspace();
    let model_dir = workspace();
    add(
        dir.path(),
        "db-tests-real",
        "feedback",
        "Integration tests hit a real database",
        &format!("Never mock the database; the CI token is {}.", token()),
    );
    add(
        dir.path(),
        "db-tests-mocked",
        "feedback",
        "Mock the database in unit tests",
        "Always mock the database.",
    );
    let (model, request) = scripted_model(
        model_dir.path(),
        &json!([{"names": ["db-tests-real", "db-tests-mocked"], "reason": "one says never mock the database, the other always"}]),
    );
    let report = json_of(&memwb(
        dir.path(),
        &["check", "--json", "--model-cmd", &model],
    ));
    let conflicts: Vec<Value> = findings(&report)
        .into_iter()
        .filter(|f| f["code"] == "conflict")
        .collect();
    assert_eq!(conflicts.len(), 2, "{report:#}");
    assert_eq!(conflicts[0]["name"], "db-tests-real");
    assert!(
        conflicts[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("contradicts db-tests-mocked: one says never mock")
    );
    assert_eq!(report["notes"], json!([]));
    let sent = std::fs::read_to_string(request).unwrap();
    assert!(sent.contains("db-tests-mocked"));
    assert!(sent.contains("[REDACTED]"), "{sent}");
    assert!(!sent.contains(&token()));

    // A reply naming a record that is not in the set reports nothing, with a note.
    let (bad, _) = scripted_model(
        model_dir.path(),
        &json!([{"names": ["db-tests-real", "nobody"], "reason": "x"}]),
    );
    let report = json_of(&memwb(
        dir.path(),
        &["check", "--json", "--model-cmd", &bad],
    ));
    assert!(findings(&report).iter().all(|f| f["code"] != "conflict"));
    assert!(
        report["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("conflict check failed")
    );
}

#[test]
fn check_fix_files_one_proposal_per_fix_and_applies_nothing() {
    let dir = workspace();
    add(
        dir.path(),
        "release",
        "project",
        "Release plan",
        &format!("Ship next Thursday with {}.", token()),
    );
    add(
        dir.path(),
        "tabs",
        "user",
        "User prefers tabs for indentation",
        "Tabs.",
    );
    add(
        dir.path(),
        "tabs-again",
        "user",
        "Indentation with tabs preferred by user",
        "Tabs again.",
    );
    written_on_thursday(dir.path());
    let before = snapshot(dir.path());
    let out = memwb(dir.path(), &["check", "--fix"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(snapshot(dir.path()), before, "--fix applies nothing");
    let listed = json_of(&memwb(dir.path(), &["proposals", "--json"]));
    let listed = listed.as_array().unwrap();
    let origins: Vec<&str> = listed
        .iter()
        .map(|p| p["origin"]["source"].as_str().unwrap())
        .collect();
    assert_eq!(origins.len(), 3, "{listed:#?}");
    assert_eq!(origins.iter().filter(|o| **o == "audit").count(), 2);
    assert!(origins.contains(&"dedupe"));
    let bodies: Vec<String> = listed
        .iter()
        .flat_map(|p| p["records"].as_array().cloned().unwrap_or_default())
        .filter(|r| r["name"] == "release")
        .map(|r| r["body"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        bodies
            .iter()
            .any(|b| b == "Ship next Thursday with [REDACTED]."),
        "{bodies:?}"
    );
    assert!(
        bodies.iter().any(|b| b.starts_with("Ship 2026-12-03 with")),
        "{bodies:?}"
    );
    // Run again: the dedupe group is pending already and is not filed a second time.
    memwb(dir.path(), &["check", "--fix"]);
    let again = json_of(&memwb(dir.path(), &["proposals", "--json"]));
    let dedupes = again
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["origin"]["source"] == "dedupe")
        .count();
    assert_eq!(dedupes, 1, "{again:#?}");
}

#[test]
fn an_accepted_finding_stops_failing_check_but_all_findings_lists_it() {
    let dir = workspace();
    add(
        dir.path(),
        "vault-note",
        "reference",
        "Where the staging token lives",
        &format!("staging: {}", token()),
    );
    assert_eq!(memwb(dir.path(), &["check"]).status.code(), Some(1));
    let out = memwb(
        dir.path(),
        &[
            "accept",
            "secret",
            "vault-note",
            "--reason",
            "revoked, kept as a sample",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = memwb(dir.path(), &["check", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(findings(&json_of(&out)).is_empty());
    let all = json_of(&memwb(dir.path(), &["check", "--json", "--all-findings"]));
    let listed = findings(&all);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["accepted"]["reason"], "revoked, kept as a sample");
    assert_eq!(all["ok"], true);
    let human = memwb(dir.path(), &["check", "--all-findings"]);
    assert!(
        String::from_utf8_lossy(&human.stdout).contains("(accepted: revoked, kept as a sample)")
    );

    for bad in [
        ["accept", "secrett", "vault-note"],
        ["accept", "secret", "nobody"],
    ] {
        let out = memwb(dir.path(), &bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error:"));
    }
}

/// Every file under `root`, recursively, as text.
fn every_file(root: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push((
                    path.clone(),
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned(),
                ));
            }
        }
    }
    out
}

#[test]
fn no_output_path_ever_holds_a_full_secret() {
    let dir = workspace();
    let log = dir.path().join("memwb.log");
    let secret = token();
    add(
        dir.path(),
        "leaky",
        "project",
        "Copied from a CI log",
        &format!("export GITHUB_TOKEN={secret}\nrerun tomorrow"),
    );
    let mut outputs = Vec::new();
    for args in [
        vec!["check"],
        vec!["check", "--json"],
        vec!["check", "--all", "--json"],
        vec!["check", "--fix"],
        vec!["proposals", "--json"],
        vec!["log", "--json"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
            .arg("-C")
            .arg(dir.path())
            .args(&args)
            .env("MEMWB_LOG", &log)
            .env("RUST_LOG", "trace")
            .env_remove("MEMWB_MODEL_URL")
            .env_remove("MEMWB_MODEL_CMD")
            .output()
            .unwrap();
        outputs.push((args.join(" "), out));
    }
    for (what, out) in &outputs {
        for stream in [&out.stdout, &out.stderr] {
            let text = String::from_utf8_lossy(stream);
            assert!(
                !text.contains(&secret),
                "`{what}` printed the secret: {text}"
            );
        }
    }
    // Before approval the record itself holds the secret; memwb's own state never does.
    for (path, text) in every_file(&dir.path().join(".memory/.memwb")) {
        assert!(
            !text.contains(&secret),
            "{} holds the secret",
            path.display()
        );
    }
    let redaction = json_of(&memwb(dir.path(), &["proposals", "--json"]))
        .as_array()
        .unwrap()
        .iter()
        .find(|p| {
            p["evidence"]
                .as_str()
                .unwrap_or_default()
                .contains("[REDACTED]")
        })
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .expect("a redaction proposal");
    let out = memwb(dir.path(), &["approve", &redaction]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Undoing the redaction has nothing to put back: it says so and changes nothing.
    let undo = memwb(dir.path(), &["undo"]);
    assert!(!undo.status.success());
    assert!(
        String::from_utf8_lossy(&undo.stderr).contains("a redacted secret is not restored"),
        "{}",
        String::from_utf8_lossy(&undo.stderr)
    );
    for (path, text) in every_file(dir.path()) {
        assert!(
            !text.contains(&secret),
            "{} holds the secret",
            path.display()
        );
    }
    let shown = memwb(dir.path(), &["show", "leaky", "--raw"]);
    assert!(
        String::from_utf8_lossy(&shown.stdout).contains("export GITHUB_TOKEN=[REDACTED]"),
        "the record stays redacted"
    );
}

/// `root/<name>/.memory` with one record each; `leak` gives the set a secret.
fn generated_set(root: &Path, name: &str, leak: bool) {
    let project = root.join(name);
    std::fs::create_dir_all(&project).unwrap();
    let body = if leak {
        format!("token {}", token())
    } else {
        "Tabs.".to_owned()
    };
    open(&project)
        .extend(vec![typed(
            "note",
            MemoryType::User,
            &format!("A note about {name}"),
            &body,
        )])
        .unwrap();
}

#[test]
fn check_all_audits_every_set_under_the_roots_and_fails_on_any_error() {
    let root = workspace();
    generated_set(root.path(), "alpha", false);
    generated_set(root.path(), "beta", true);
    generated_set(&root.path().join("deep/er"), "gamma", false);
    // A Claude Code subagent folder: a topic file with a token, listed in its MEMORY.md.
    let agent = root.path().join("delta/.claude/agent-memory/reviewer");
    claude_folder(&agent, &format!("Review with {}.", token()));
    // Never entered: dependency and build folders.
    generated_set(&root.path().join("node_modules"), "dep", true);
    generated_set(&root.path().join("alpha/target"), "built", true);
    let elsewhere = workspace();
    let out = memwb(
        elsewhere.path(),
        &["check", "--all", root.path().to_str().unwrap(), "--json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let reports = json_of(&out);
    let folders: Vec<String> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["folder"].as_str().unwrap().to_owned())
        .collect();
    let root_text = std::fs::canonicalize(root.path()).unwrap();
    let mut expected: Vec<String> = ["alpha", "beta", "deep/er/gamma"]
        .iter()
        .map(|p| root_text.join(p).join(".memory").display().to_string())
        .collect();
    expected.push(
        root_text
            .join("delta/.claude/agent-memory/reviewer")
            .display()
            .to_string(),
    );
    expected.sort();
    let mut sorted = folders.clone();
    sorted.sort();
    assert_eq!(sorted, expected);
    let formats: Vec<&str> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["format"].as_str().unwrap())
        .collect();
    assert_eq!(formats.iter().filter(|f| **f == "claude").count(), 1);
    let ok: Vec<bool> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ok"].as_bool().unwrap())
        .collect();
    assert_eq!(
        ok.iter().filter(|ok| !**ok).count(),
        2,
        "beta and the agent folder"
    );

    let table = memwb(
        elsewhere.path(),
        &["check", "--all", root.path().to_str().unwrap()],
    );
    let text = String::from_utf8_lossy(&table.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("set"), "{text}");
    for column in ["format", "memories", "errors", "warnings", "worst"] {
        assert!(lines[0].contains(column), "{text}");
    }
    let beta = lines.iter().find(|l| l.contains("beta")).unwrap();
    assert!(
        beta.contains("memory") && beta.contains("error secret"),
        "{beta}"
    );
    let agent_row = lines.iter().find(|l| l.contains("reviewer")).unwrap();
    assert!(
        agent_row.contains("claude") && agent_row.contains("error secret"),
        "{agent_row}"
    );
    assert_eq!(lines.last(), Some(&"4 sets, 2 with errors"));
    // Not a terminal: no progress bar on stderr.
    assert!(
        table.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&table.stderr)
    );

    let clean = workspace();
    generated_set(clean.path(), "only", false);
    let out = memwb(clean.path(), &["check", "--all"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A Claude Code memory folder with one topic file holding `body`, listed in its MEMORY.md.
fn claude_folder(dir: &Path, body: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("review-notes.md"),
        format!(
            "---\nname: review-notes\ndescription: How reviews run\ntype: project\n---\n\n{body}\n"
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("MEMORY.md"),
        "- [Review notes](review-notes.md) — how reviews run\n",
    )
    .unwrap();
}

#[test]
fn a_claude_code_folder_gets_the_content_audit_and_its_fixes() {
    let dir = workspace();
    let folder = dir.path().join("memory");
    claude_folder(
        &folder,
        &format!("Use {} and run `scripts/gone.sh`.", token()),
    );
    let folder_arg = folder.to_str().unwrap();
    let out = memwb(dir.path(), &["--memory-dir", folder_arg, "check", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report = json_of(&out);
    assert_eq!(report["format"], "claude");
    let secret = findings(&report)
        .into_iter()
        .find(|f| f["code"] == "secret")
        .expect("a secret finding");
    assert_eq!(secret["file"], "review-notes.md");
    // Frontmatter on lines 1-5, a blank line, the body on line 7.
    assert_eq!(secret["line"], 7);
    assert!(!String::from_utf8_lossy(&out.stdout).contains(&token()));
    // This folder is no projects/<slug>/memory, so no path can be judged stale, and check
    // says so rather than staying silent.
    assert!(findings(&report).iter().all(|f| f["code"] != "stale-path"));
    let notes = report["notes"].to_string();
    assert!(
        notes.contains("stale-path: relative paths were not checked"),
        "{notes}"
    );
    // The fix is offered; `check --fix` and `accept` on Claude Code folders: tests/claude_fix.rs.
    assert!(
        secret.get("fix").is_none(),
        "the fix is not part of the JSON"
    );
    let text = memwb(dir.path(), &["--memory-dir", folder_arg, "check"]);
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("[fix: redaction proposal]"),
        "{}",
        String::from_utf8_lossy(&text.stdout)
    );
}

#[test]
fn a_folder_in_this_machines_config_gets_its_home_paths_checked_against_its_project() {
    let dir = workspace();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let home = base.join("home");
    let project = home.join("shop");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
    std::fs::write(home.join("notes.md"), "# notes\n").unwrap();
    let folder = home
        .join(".claude/projects")
        .join(memwb::claude::locate::slug(&project))
        .join("memory");
    let home_text = home.display();
    claude_folder(
        &folder,
        &format!(
            "`src/main.rs` and `src/gone.rs`; {home_text}/notes.md, {home_text}/gone.md, \
             `~/notes.md`, `~/old/gone.txt`, /srv/backups/db.tar"
        ),
    );
    let out = common::cli::memwb_claude(&home, &folder, &base.join("state"), &["check", "--json"]);
    let report = json_of(&out);
    let stale: Vec<String> = findings(&report)
        .iter()
        .filter(|f| f["code"] == "stale-path")
        .map(|f| f["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        stale,
        [
            format!(
                "mentions src/gone.rs, which does not exist under the project root {} or in the memory folder",
                project.display()
            ),
            format!("mentions {home_text}/gone.md, which does not exist on this machine"),
            "mentions ~/old/gone.txt, which does not exist in the home directory".to_owned(),
        ]
    );
    assert!(report["notes"].to_string().find("stale-path").is_none());
}
