//! Issue 15's fixes and suppression on a Claude Code folder, from the command line, with
//! `MEMWB_STATE_DIR` in a temporary directory: `check --fix` files a redaction, an absolute
//! date edit and a dedupe proposal in the state directory and writes nothing in the folder;
//! approving the redaction writes the redacted file and keeps no copy of the credential;
//! `accept` suppresses a finding (kept in the state directory) and `--all-findings` shows it.

use crate::common;

use std::fs;
use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, UNIX_EPOCH};

use common::tree;
use serde_json::Value;

/// A token of GitHub's shape; never printed or kept whole.
fn token() -> String {
    format!("ghp_{}", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5")
}

const INDEX: &str = "# Memory Index

- [CI secrets](reference_ci.md) — where the CI token lives
- [Release](project_release.md) — when the release was cut
- [tabs_indent](feedback_tabs.md) — User prefers tabs for indentation
- [indent_tabs](feedback_indent.md) — Indentation with tabs preferred by user
";

const RELEASE: &str = "---
name: Release
description: when the release was cut
type: project
---

The release branch was cut yesterday.
";

const TABS: &str = "---
name: tabs_indent
description: User prefers tabs for indentation
type: feedback
---

Use tabs.
";

const INDENT: &str = "---
name: indent_tabs
description: Indentation with tabs preferred by user
type: feedback
---

Tabs, not spaces.
";

fn ci() -> String {
    format!(
        "---\nname: CI secrets\ndescription: where the CI token lives\ntype: reference\n---\n\nThe pipeline reads it from the vault.\nCI token: {}\n",
        token()
    )
}

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        let env = Self {
            dir: tempfile::tempdir().expect("temp dir"),
        };
        fs::create_dir_all(env.memory()).expect("mkdir");
        fs::create_dir_all(env.state()).expect("mkdir");
        for (file, text) in [
            ("MEMORY.md", INDEX.to_owned()),
            ("reference_ci.md", ci()),
            ("project_release.md", RELEASE.to_owned()),
            ("feedback_tabs.md", TABS.to_owned()),
            ("feedback_indent.md", INDENT.to_owned()),
        ] {
            fs::write(env.memory().join(file), text).expect("write");
        }
        // "yesterday" is read from the file's last change: 2026-09-15 12:00 UTC.
        let written = UNIX_EPOCH + Duration::from_secs(1_789_473_600);
        fs::File::options()
            .write(true)
            .open(env.memory().join("project_release.md"))
            .and_then(|f| f.set_modified(written))
            .expect("age the file");
        env
    }

    fn memory(&self) -> PathBuf {
        self.dir.path().join("memory")
    }

    fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    fn run(&self, args: &[&str]) -> Output {
        common::cli::memwb_claude(self.dir.path(), &self.memory(), &self.state(), args)
    }

    fn stdout(&self, args: &[&str], code: i32) -> String {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(code),
            "memwb {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_no_secret(&String::from_utf8_lossy(&out.stderr), "stderr");
        String::from_utf8(out.stdout).expect("utf-8")
    }

    fn proposals(&self) -> Vec<Value> {
        serde_json::from_str(&self.stdout(&["proposals", "--json"], 0)).expect("json")
    }

    fn check_json(&self, extra: &[&str], code: i32) -> Value {
        let mut args = vec!["check", "--json"];
        args.extend_from_slice(extra);
        serde_json::from_str(&self.stdout(&args, code)).expect("json")
    }
}

fn assert_no_secret(text: &str, what: &str) {
    assert!(
        !text.contains(&token()[..12]),
        "a credential in {what}: {text}"
    );
}

fn assert_state_has_no_secret(env: &Env) {
    for (file, bytes) in tree(&env.state()) {
        assert_no_secret(&String::from_utf8_lossy(&bytes), &file);
    }
}

fn codes(report: &Value) -> Vec<(String, Option<String>, bool)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().expect("code").to_owned(),
                f["name"].as_str().map(str::to_owned),
                f.get("accepted").is_some(),
            )
        })
        .collect()
}

fn after_of<'a>(proposal: &'a Value, file: &str) -> Option<&'a str> {
    proposal["files"]
        .as_array()?
        .iter()
        .find(|f| f["file"] == file)?["after"]["text"]
        .as_str()
}

#[test]
fn check_fix_files_a_redaction_a_date_edit_and_a_dedupe_and_writes_nothing() {
    let env = Env::new();
    let before = tree(&env.memory());
    let out = env.stdout(&["check", "--fix", "--json"], 1);
    assert_no_secret(&out, "stdout");
    let report: Value = serde_json::Deserializer::from_str(&out)
        .into_iter::<Value>()
        .next()
        .expect("the report")
        .expect("json");
    let found = codes(&report);
    for code in ["secret", "relative-date", "duplicate"] {
        assert!(found.iter().any(|(c, _, _)| c == code), "{found:?}");
    }
    assert_eq!(tree(&env.memory()), before, "the folder is byte-identical");

    let proposals = env.proposals();
    assert_eq!(proposals.len(), 3, "{proposals:#?}");
    let kinds: Vec<&str> = proposals
        .iter()
        .map(|p| p["kind"].as_str().expect("kind"))
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "edit").count(),
        2,
        "{kinds:?}"
    );
    assert!(kinds.contains(&"consolidation"), "{kinds:?}");

    let redaction = proposals
        .iter()
        .find_map(|p| after_of(p, "reference_ci.md"))
        .expect("a redaction of reference_ci.md");
    assert_eq!(redaction, ci().replace(&token(), "[REDACTED]"));

    let dated = proposals
        .iter()
        .find_map(|p| after_of(p, "project_release.md"))
        .expect("an edit of project_release.md");
    assert!(!dated.contains("yesterday"), "{dated}");
    assert!(
        dated.contains("The release branch was cut 2026-09-14"),
        "{dated}"
    );

    let dedupe = proposals
        .iter()
        .find(|p| p["kind"] == "consolidation")
        .expect("dedupe");
    let removed = dedupe["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter(|f| f["after"].is_null())
        .count();
    assert_eq!(removed, 1, "{dedupe:#?}");
    assert_state_has_no_secret(&env);

    // A second run files nothing new: each fix is already pending.
    env.stdout(&["check", "--fix"], 1);
    assert_eq!(env.proposals().len(), 3);
    assert_eq!(tree(&env.memory()), before);
}

#[test]
fn approving_the_redaction_writes_the_redacted_file_and_keeps_no_credential() {
    let env = Env::new();
    env.stdout(&["check", "--fix"], 1);
    let id = env
        .proposals()
        .iter()
        .find(|p| after_of(p, "reference_ci.md").is_some())
        .map(|p| p["id"].as_str().expect("id").to_owned())
        .expect("the redaction");
    env.stdout(&["approve", &id], 0);
    let text = fs::read_to_string(env.memory().join("reference_ci.md")).expect("read");
    assert_eq!(text, ci().replace(&token(), "[REDACTED]"));
    let report = env.check_json(&[], 0);
    assert!(
        !codes(&report).iter().any(|(c, _, _)| c == "secret"),
        "{report:#}"
    );
    assert_state_has_no_secret(&env);
}

#[test]
fn accept_suppresses_a_finding_kept_in_the_state_directory() {
    let env = Env::new();
    let before = tree(&env.memory());
    let out = env.stdout(
        &["accept", "secret", "CI secrets", "--reason", "a test token"],
        0,
    );
    assert!(out.contains("accepted secret for CI secrets"), "{out}");
    assert_eq!(
        tree(&env.memory()),
        before,
        "nothing is written in the folder"
    );
    let kept: Vec<String> = tree(&env.state())
        .into_keys()
        .filter(|f| f.ends_with("accepted.json"))
        .collect();
    assert_eq!(kept.len(), 1, "accepted.json in the state directory");

    // The secret was the only error: the check passes now.
    let report = env.check_json(&[], 0);
    assert_eq!(report["ok"], true);
    assert!(
        !codes(&report).iter().any(|(c, _, _)| c == "secret"),
        "{report:#}"
    );
    let all = env.check_json(&["--all-findings"], 0);
    assert!(
        codes(&all).iter().any(|(c, n, accepted)| c == "secret"
            && n.as_deref() == Some("CI secrets")
            && *accepted),
        "{all:#}"
    );
    let text = env.stdout(&["check", "--all-findings"], 0);
    assert!(text.contains("(accepted: a test token)"), "{text}");

    // --fix does not propose the accepted finding's fix.
    env.stdout(&["check", "--fix"], 0);
    assert!(
        env.proposals()
            .iter()
            .all(|p| after_of(p, "reference_ci.md").is_none()),
        "no redaction filed for an accepted secret"
    );
}

#[test]
fn accept_refuses_an_unknown_memory_or_code_and_writes_nothing() {
    let env = Env::new();
    let out = env.run(&["accept", "secret", "no such memory"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no memory named"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = env.run(&["accept", "no-such-code", "CI secrets"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        !tree(&env.state())
            .keys()
            .any(|f| f.ends_with("accepted.json")),
        "nothing accepted"
    );
}
