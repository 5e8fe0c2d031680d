//! The content audit: each code with its line, relative dates, a clean set, a configured model that
//! never sees a secret.

use super::*;

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
