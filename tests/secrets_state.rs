//! What memwb keeps of a secret in its own state, and what undo says about it: `repair
//! --drop` keeps the dropped file redacted and undo says the secret is not restored; undoing a
//! redaction refuses plainly, journals nothing and stays refused, on both formats. Tokens are
//! synthetic, assembled at run time.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::cli::{add, file_of, memwb, ok, stderr, stdout};
use common::{tree, workspace};
use serde_json::Value;

fn token() -> String {
    ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat()
}

fn journal_lines(dir: &Path) -> usize {
    fs::read_to_string(dir.join(".memory/.memwb/journal.jsonl"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

#[test]
fn repair_drop_keeps_the_dropped_file_redacted_and_undo_says_so() {
    let ws = workspace();
    add(ws.path(), "alpha", "alpha", "a");
    add(
        ws.path(),
        "leaky",
        "leaky",
        &format!("push with {}", token()),
    );
    let file = file_of(ws.path(), "leaky");
    let path = ws.path().join(".memory").join(&file);
    let broken = fs::read_to_string(&path)
        .expect("record")
        .replace("type: project", "type: 42");
    fs::write(&path, &broken).expect("break it");

    ok(memwb(ws.path(), &["repair", &file, "--drop"]));
    let kept = ws.path().join(".memory/.memwb/dropped").join(&file);
    let kept_text = fs::read_to_string(&kept).expect("kept");
    assert_eq!(kept_text, broken.replace(&token(), "[REDACTED]"));
    for (name, bytes) in tree(&ws.path().join(".memory")) {
        assert!(
            !String::from_utf8_lossy(&bytes).contains(&token()),
            "{name} keeps the token"
        );
    }

    let out = ok(memwb(ws.path(), &["undo"]));
    assert!(out.contains("[REDACTED]"), "{out}");
    assert!(out.contains("not restored"), "{out}");
    assert_eq!(
        fs::read_to_string(&path).expect("restored"),
        broken.replace(&token(), "[REDACTED]"),
        "undo restores the redacted text"
    );
}

/// An undo of a redaction: refused, saying the secret is not restored, printing no "restored".
fn assert_undo_refused(out: &Output) {
    assert_ne!(out.status.code(), Some(0), "{}", stdout(out));
    let err = stderr(out);
    assert!(err.contains("a redacted secret is not restored"), "{err}");
    assert!(!stdout(out).contains("restored"), "{}", stdout(out));
}

fn redaction_id(proposals: &Value) -> String {
    proposals
        .as_array()
        .expect("proposals")
        .iter()
        .find(|p| p.to_string().contains("[REDACTED]"))
        .and_then(|p| p["id"].as_str())
        .expect("a redaction proposal")
        .to_owned()
}

#[test]
fn undoing_a_redaction_on_memory_says_it_is_not_restored_and_journals_nothing() {
    let ws = workspace();
    add(
        ws.path(),
        "leaky",
        "leaky",
        &format!("push with {}", token()),
    );
    memwb(ws.path(), &["check", "--fix"]);
    let listed = ok(memwb(ws.path(), &["proposals"]));
    assert!(
        listed.contains("redact leaky: github-token on line 7"),
        "a redaction says what it redacts: {listed}"
    );
    let proposals: Value =
        serde_json::from_str(&ok(memwb(ws.path(), &["proposals", "--json"]))).expect("json");
    ok(memwb(ws.path(), &["approve", &redaction_id(&proposals)]));
    let lines = journal_lines(ws.path());
    let before = tree(&ws.path().join(".memory"));
    for _ in 0..2 {
        assert_undo_refused(&memwb(ws.path(), &["undo"]));
        assert_eq!(journal_lines(ws.path()), lines, "nothing journaled");
        assert_eq!(tree(&ws.path().join(".memory")), before, "nothing changed");
    }
}

struct Claude {
    dir: tempfile::TempDir,
}

impl Claude {
    fn new() -> Self {
        let claude = Self { dir: workspace() };
        fs::create_dir_all(claude.memory()).expect("mkdir");
        fs::write(
            claude.memory().join("MEMORY.md"),
            "- [CI](reference_ci.md) — where the CI token lives\n",
        )
        .expect("index");
        fs::write(
            claude.memory().join("reference_ci.md"),
            format!(
                "---\nname: CI\ndescription: where the CI token lives\ntype: reference\n---\n\nCI token: {}\n",
                token()
            ),
        )
        .expect("topic");
        claude
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

    fn journal(&self) -> String {
        tree(&self.state())
            .into_iter()
            .filter(|(f, _)| f.ends_with("journal.jsonl"))
            .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned())
            .collect()
    }
}

#[test]
fn undoing_a_redaction_on_claude_code_says_it_is_not_restored_and_journals_nothing() {
    let claude = Claude::new();
    claude.run(&["check", "--fix"]);
    let listed = stdout(&claude.run(&["proposals"]));
    assert!(
        listed.contains("redact CI: github-token on line 7"),
        "a redaction says what it redacts: {listed}"
    );
    let proposals: Value =
        serde_json::from_slice(&claude.run(&["proposals", "--json"]).stdout).expect("json");
    let approved = claude.run(&["approve", &redaction_id(&proposals)]);
    assert_eq!(approved.status.code(), Some(0), "{}", stderr(&approved));
    let journal = claude.journal();
    let before = tree(&claude.memory());
    for _ in 0..2 {
        assert_undo_refused(&claude.run(&["undo"]));
        assert_eq!(claude.journal(), journal, "nothing journaled");
        assert_eq!(tree(&claude.memory()), before, "nothing changed");
    }
}

fn gitlab() -> String {
    ["glpat-", "xYz12AbC34dEf56GhI78jK"].concat()
}

fn open_secrets(dir: &Path) -> Vec<String> {
    let out = memwb(dir, &["check", "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("json");
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "secret")
        .map(|f| f["message"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn accepting_a_secret_binds_to_its_value_and_a_new_one_is_reported_again() {
    let ws = workspace();
    add(
        ws.path(),
        "leaky",
        "leaky",
        &format!("push with {}", token()),
    );
    ok(memwb(
        ws.path(),
        &[
            "accept",
            "secret",
            "leaky",
            "--reason",
            "a revoked test token",
        ],
    ));
    assert!(open_secrets(ws.path()).is_empty());
    let kept = fs::read_to_string(ws.path().join(".memory/.memwb/accepted.json")).expect("kept");
    assert!(!kept.contains(&token()), "the value is not kept: {kept}");
    assert!(kept.contains("fingerprints"), "{kept}");

    // A new credential in the same record is a new finding; the accepted one stays accepted.
    ok(memwb(
        ws.path(),
        &[
            "set",
            "leaky",
            "--body",
            &format!("push with {} and CI uses {}", token(), gitlab()),
        ],
    ));
    let open = open_secrets(ws.path());
    assert_eq!(open.len(), 1, "{open:?}");
    assert!(open[0].starts_with("gitlab-token"), "{open:?}");
    assert_eq!(memwb(ws.path(), &["check"]).status.code(), Some(1));
}

#[test]
fn an_acceptance_written_before_fingerprints_keeps_loading_and_applying() {
    let ws = workspace();
    add(
        ws.path(),
        "leaky",
        "leaky",
        &format!("push with {}", token()),
    );
    fs::write(
        ws.path().join(".memory/.memwb/accepted.json"),
        r#"[{"code":"secret","name":"leaky","reason":null,"by":{"user":"a","host":"b"},"at":1}]"#,
    )
    .expect("old file");
    assert!(open_secrets(ws.path()).is_empty());
    assert_eq!(memwb(ws.path(), &["check"]).status.code(), Some(0));
}

#[test]
fn accepting_a_secret_in_a_record_that_holds_none_is_refused() {
    let ws = workspace();
    add(ws.path(), "clean", "clean", "nothing secret here");
    let out = memwb(ws.path(), &["accept", "secret", "clean"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("holds no secret finding"),
        "{}",
        stderr(&out)
    );
    assert!(!ws.path().join(".memory/.memwb/accepted.json").exists());
}
