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

mod content;
mod fixes;
mod sets;

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
