//! `check --fix` filing proposals, accepted findings, and no output path ever holding a full
//! secret.

use super::*;

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
        .flat_map(|p| p["files"].as_array().cloned().unwrap_or_default())
        .map(|f| f["after"]["record"].clone())
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
