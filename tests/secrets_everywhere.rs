//! Secrets through the binary, on both formats: `check` scans every byte it reads from a
//! memory folder (MEMORY.md, every frontmatter field, files without frontmatter, files the
//! manifest does not list), a finding never shows more of a secret than it may, and every
//! output but `show --raw` prints credentials redacted. Tokens are synthetic and assembled at
//! run time so no scanner mistakes this file for a leak.

use crate::common;

use std::path::Path;

use common::cli::{memwb, ok, stdout};
use common::workspace;
use serde_json::Value;

fn github() -> String {
    ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat()
}

fn gitlab() -> String {
    ["glpat-", "xYz12AbC34dEf56GhI78jK"].concat()
}

fn slack_webhook() -> String {
    [
        "https://hooks.slack.com/services/",
        "T0A1B2C3D/B0E4F5G6H7/aBcDeFgHiJkLmNoPqRsTuVwX",
    ]
    .concat()
}

/// A Claude Code memory folder: MEMORY.md holding a token, a topic file holding one in a
/// field other than `description`, a file without frontmatter holding one, and a short URL
/// password.
fn claude_folder(dir: &Path) {
    std::fs::write(
        dir.join("MEMORY.md"),
        format!(
            "- [Deploys](deploys.md) — how we deploy; hook {}\n- [Scratch](scratch.md) — notes\n- [DB](db.md) — the db\n",
            slack_webhook()
        ),
    )
    .expect("index");
    std::fs::write(
        dir.join("deploys.md"),
        format!(
            "---\nname: deploys\ndescription: how we deploy\ntype: project\nmetadata:\n  source: pasted {}\n---\n\nDeploy from main.\n",
            github()
        ),
    )
    .expect("topic");
    std::fs::write(
        dir.join("scratch.md"),
        format!("scratch notes\nCI uses {}\n", gitlab()),
    )
    .expect("scratch");
    std::fs::write(
        dir.join("db.md"),
        "---\nname: db\ndescription: the database\ntype: reference\n---\n\nstaging is postgres://app:pw7@db.internal/app\n",
    )
    .expect("db");
}

fn check_json(dir: &Path, args: &[&str]) -> Value {
    let out = memwb(dir, args);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)))
}

fn secret_files(report: &Value) -> Vec<(String, u64)> {
    let mut found: Vec<(String, u64)> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["code"] == "secret")
        .map(|f| {
            (
                f["file"].as_str().unwrap_or_default().to_owned(),
                f["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    found.sort();
    found
}

#[test]
fn check_scans_memory_md_every_frontmatter_field_and_files_without_frontmatter() {
    let ws = workspace();
    claude_folder(ws.path());
    let dir = ws.path().to_str().expect("utf-8");
    let report = check_json(ws.path(), &["--memory-dir", dir, "check", "--json"]);
    assert_eq!(
        secret_files(&report),
        [
            ("MEMORY.md".to_owned(), 1),
            ("db.md".to_owned(), 7),
            ("deploys.md".to_owned(), 6),
            ("scratch.md".to_owned(), 2),
        ],
        "{report:#}"
    );
}

#[test]
fn check_scans_what_a_memory_folder_holds_besides_its_records() {
    let ws = workspace();
    common::cli::add(ws.path(), "deploys", "how we deploy", "Deploy from main.");
    let root = ws.path().join(".memory");
    // A person pasted a token into MEMORY.md, and a file the manifest does not list holds one.
    let index = std::fs::read_to_string(root.join("MEMORY.md")).expect("index");
    std::fs::write(
        root.join("MEMORY.md"),
        format!("{index}- note: bot token {}\n", github()),
    )
    .expect("index");
    std::fs::write(
        root.join("stray-0badf00d.md"),
        format!(
            "---\nname: stray\ndescription: x\ntype: user\n---\n\nCI uses {}\n",
            gitlab()
        ),
    )
    .expect("stray");
    let report = check_json(ws.path(), &["check", "--json"]);
    assert_eq!(
        secret_files(&report),
        [
            ("MEMORY.md".to_owned(), 2),
            ("stray-0badf00d.md".to_owned(), 7),
        ],
        "{report:#}"
    );
}

#[test]
fn a_finding_shows_nothing_of_a_short_secret_and_at_most_a_quarter_of_a_long_one() {
    let ws = workspace();
    claude_folder(ws.path());
    let dir = ws.path().to_str().expect("utf-8");
    let text = stdout(&memwb(ws.path(), &["--memory-dir", dir, "check"]));
    let json = stdout(&memwb(ws.path(), &["--memory-dir", dir, "check", "--json"]));
    for output in [&text, &json] {
        assert!(output.contains("db.md"), "{output}");
        assert!(
            !output.contains("pw7"),
            "the short password is shown: {output}"
        );
        for secret in [github(), gitlab()] {
            let quarter = secret.len() / 4;
            assert!(
                !output.contains(&secret[..quarter + 1]),
                "more than a quarter of {secret} shown: {output}"
            );
        }
    }
}

#[test]
fn every_output_redacts_by_default_and_show_raw_stays_exact() {
    let ws = workspace();
    let token = github();
    common::cli::add(
        ws.path(),
        "deploys",
        &format!("deploy key {token}"),
        &format!("push with {token} and db postgres://app:pw7@db/x"),
    );
    for args in [
        &["show", "deploys"][..],
        &["show", "deploys", "--json"],
        &["ls"],
        &["ls", "--json"],
        &["index"],
        &["select", "deploy key push", "--json"],
        &["select", "deploy key push"],
    ] {
        let out = memwb(ws.path(), args);
        let printed = stdout(&out);
        assert!(
            !printed.is_empty(),
            "{args:?}: {}",
            common::cli::stderr(&out)
        );
        assert!(
            !printed.contains(&token),
            "{args:?} prints the token: {printed}"
        );
        assert!(
            !printed.contains("pw7@"),
            "{args:?} prints the password: {printed}"
        );
    }
    assert!(ok(memwb(ws.path(), &["show", "deploys"])).contains("[REDACTED]"));
    let raw = memwb(ws.path(), &["show", "deploys", "--raw"]).stdout;
    let file = common::cli::file_of(ws.path(), "deploys");
    assert_eq!(
        raw,
        std::fs::read(ws.path().join(".memory").join(file)).expect("record file"),
        "show --raw is the exact bytes"
    );
}

#[test]
fn claude_code_outputs_redact_by_default_and_show_raw_stays_exact() {
    let ws = workspace();
    claude_folder(ws.path());
    let dir = ws.path().to_str().expect("utf-8");
    for args in [
        &["show", "deploys"][..],
        &["show", "deploys", "--json"],
        &["show", "scratch"],
        &["ls", "--json"],
        &["index"],
    ] {
        let mut full = vec!["--memory-dir", dir];
        full.extend_from_slice(args);
        let out = memwb(ws.path(), &full);
        let printed = stdout(&out);
        assert!(
            !printed.is_empty(),
            "{args:?}: {}",
            common::cli::stderr(&out)
        );
        for secret in [github(), gitlab(), slack_webhook()] {
            assert!(
                !printed.contains(&secret),
                "{args:?} prints {secret}: {printed}"
            );
        }
    }
    let raw = memwb(
        ws.path(),
        &["--memory-dir", dir, "show", "deploys", "--raw"],
    )
    .stdout;
    assert_eq!(
        raw,
        std::fs::read(ws.path().join("deploys.md")).expect("topic")
    );
}

#[test]
fn a_yaml_alias_bomb_is_frontmatter_invalid_and_every_command_finishes() {
    let ws = workspace();
    let mut bomb = String::from(
        "---\nname: bomb\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for (name, prev) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        bomb.push_str(&format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{prev}"); 9].join(",")
        ));
    }
    bomb.push_str("---\n\nbody\n");
    std::fs::write(ws.path().join("MEMORY.md"), "- [Bomb](bomb.md) — a bomb\n").expect("index");
    std::fs::write(ws.path().join("bomb.md"), &bomb).expect("bomb");
    let dir = ws.path().to_str().expect("utf-8");
    let report = check_json(ws.path(), &["--memory-dir", dir, "check", "--json"]);
    let invalid = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["code"] == "frontmatter-invalid")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert!(
        invalid["message"]
            .as_str()
            .unwrap_or_default()
            .contains("anchors and aliases"),
        "{invalid}"
    );
    for args in [
        &["ls"][..],
        &["ls", "--json"],
        &["show", "bomb"],
        &["index"],
    ] {
        let mut full = vec!["--memory-dir", dir];
        full.extend_from_slice(args);
        let out = memwb(ws.path(), &full);
        assert!(
            out.status.code().is_some_and(|c| c < 100),
            "{args:?}: {out:?}"
        );
    }
}
