//! `check`, `index` and `repair` on a Claude Code folder: each finding where it is, the cut, the
//! size limit.

use super::*;

#[test]
fn check_on_the_fixture_names_each_problem_where_it_is() {
    let home = fixture();
    let before = tree(home.path());
    let out = on_fixture(home.path(), &["check", "--json"]);
    assert_eq!(out.status.code(), Some(1), "errors exit 1");
    let report = json(out);
    assert_eq!(report["ok"], false);
    assert_eq!(
        report["records"], 9,
        "every *.md but MEMORY.md, subfolders included"
    );
    let list = findings(&report);
    let expected: Vec<(String, String, Option<u64>)> = [
        ("index-dangling", "MEMORY.md", Some(13)),
        ("index-line-long", "MEMORY.md", Some(13)),
        ("index-content", "MEMORY.md", Some(16)),
        ("frontmatter-invalid", "feedback_commit_style.md", Some(3)),
        ("link-dangling", "feedback_integration_tests.md", Some(13)),
        ("index-unlisted", "project_old_api.md", None),
        ("type-unknown", "project_old_api.md", None),
        ("index-unlisted", "scratch.md", None),
        ("frontmatter-missing", "scratch.md", None),
        // The content audit (docs/audit.md) runs on topic files too.
        ("relative-date", "project_release.md", Some(7)),
    ]
    .iter()
    .map(|(c, f, l)| (c.to_string(), f.to_string(), *l))
    .collect();
    assert_eq!(list, expected);
    // Within the limits, a consolidation that is not running, and nothing written.
    assert!(!has(&list, "index-truncated", "MEMORY.md"));
    assert!(!has(&list, "consolidation-running", ".consolidate-lock"));
    assert_eq!(tree(home.path()), before);

    let human = text(&on_fixture(home.path(), &["check"]).stdout);
    // Claude Code never parses a topic file: broken YAML there is a warning, with the fix.
    assert!(
        human.contains("warning[frontmatter-invalid] feedback_commit_style.md:3: "),
        "{human}"
    );
    assert!(
        human.contains(
            r#"quote the value: description: "\"Conventional commits\" one logical change each""#
        ),
        "{human}"
    );
    assert!(human.contains("9 memories, 1 error, 9 warnings"), "{human}");
}

#[test]
fn the_remaining_codes_truncation_fields_consolidation_and_unreadable_files() {
    let home = fixture();
    let dir = memory(home.path());
    fs::write(
        dir.join("half.md"),
        "---\nname: half\n---\nno description, no type\n",
    )
    .expect("write");
    fs::write(
        dir.join(".consolidate-lock"),
        std::process::id().to_string(),
    )
    .expect("lock");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        dir.join("pipe.md"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    let before = tree(home.path());
    let report = json(on_fixture(
        home.path(),
        &["--claude-index-lines", "10", "check", "--json"],
    ));
    let list = findings(&report);
    for (code, file) in [
        ("field-missing", "half.md"),
        ("consolidation-running", ".consolidate-lock"),
        ("index-truncated", "MEMORY.md"),
    ] {
        assert!(has(&list, code, file), "{code} on {file}: {list:?}");
    }
    let field = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["code"] == "field-missing")
        .expect("field-missing");
    assert!(
        field["message"]
            .as_str()
            .is_some_and(|m| m.contains("description, type")),
        "{field}"
    );
    let truncated = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .find(|f| f["code"] == "index-truncated")
        .expect("index-truncated");
    assert_eq!(truncated["severity"], "error");
    assert_eq!(truncated["line"], 11, "the first line not loaded");
    // In index order; the dangling project_payments.md is not a topic file.
    assert_eq!(
        truncated["cut"],
        serde_json::json!([
            "project_release.md",
            "notes/deploy_steps.md",
            "reference_dashboards.md"
        ])
    );
    // A FIFO named like a topic file is reported, not read (the command above returned).
    let ls = json(on_fixture(home.path(), &["ls", "--json"]));
    let files: Vec<&str> = ls
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|r| r["file"].as_str())
        .collect();
    assert!(!files.contains(&"pipe.md"), "{files:?}");
    assert!(
        text(&on_fixture(home.path(), &["ls"]).stdout).contains("not a memory: pipe.md (a FIFO")
    );
    assert_eq!(tree(home.path()), before, "nothing written");
}

#[test]
fn unreadable_topic_files_are_findings_not_failures() {
    let home = fixture();
    let dir = memory(home.path());
    fs::write(dir.join("bad.md"), b"---\nname: \xff\n---\n").expect("write");
    let report = json(on_fixture(home.path(), &["check", "--json"]));
    assert!(has(&findings(&report), "file-unreadable", "bad.md"));
    assert_eq!(report["records"], 10);
}

#[test]
fn index_prints_what_loads_then_the_cut_and_what_it_drops() {
    let home = fixture();
    let whole = ok(on_fixture(home.path(), &["index"]));
    let on_disk = fs::read_to_string(memory(home.path()).join("MEMORY.md")).expect("read");
    assert_eq!(
        whole,
        format!("{on_disk}\n"),
        "within the limits: all of it"
    );

    let cut = ok(on_fixture(
        home.path(),
        &["--claude-index-lines", "10", "index"],
    ));
    let lines: Vec<&str> = cut.lines().collect();
    let original: Vec<&str> = on_disk.lines().collect();
    assert_eq!(lines[..10], original[..10]);
    assert_eq!(
        lines[10],
        "── not loaded past here (10 lines): 9 lines, 4 entries ──"
    );
    assert_eq!(lines[11..], original[10..]);
}

/// A MEMORY.md of wide text: 3 units per character in UTF-8, 1 in UTF-16.
fn wide_folder() -> (tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().expect("temp dir");
    let dir = home.path().join("mem");
    fs::create_dir(&dir).expect("mkdir");
    let mut index = String::from(
        "---\nnote: frontmatter is not counted\n---\n<!--\na comment is not counted\n-->\n",
    );
    for i in 0..4 {
        let name = format!("t{i}");
        fs::write(
            dir.join(format!("{name}.md")),
            format!("---\nname: {name}\ndescription: d\ntype: user\n---\nbody\n"),
        )
        .expect("write");
        // 10 characters of CJK, so each line is 10 + 21 characters.
        index.push_str(&format!("- [{name}]({name}.md) — 中文中文中文中文中文\n"));
    }
    fs::write(dir.join("MEMORY.md"), index).expect("write");
    (home, dir)
}

#[test]
fn the_size_limit_counts_utf16_units_or_bytes() {
    let (home, dir) = wide_folder();
    let d = dir.to_str().expect("utf-8");
    let line_chars = "- [t0](t0.md) — 中文中文中文中文中文".chars().count();
    let line_bytes = "- [t0](t0.md) — 中文中文中文中文中文".len();
    // Two lines and their line break fit exactly in characters.
    let size = (2 * line_chars + 1).to_string();
    let check = |unit: &str| {
        json(run(
            home.path(),
            None,
            home.path(),
            &[
                "--memory-dir",
                d,
                "--claude-index-size",
                &size,
                "--claude-index-unit",
                unit,
                "check",
                "--json",
            ],
        ))
    };
    let truncated = |report: &Value| {
        report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .find(|f| f["code"] == "index-truncated")
            .cloned()
    };
    let chars = check("utf16");
    assert_eq!(
        truncated(&chars).expect("cut")["cut"],
        serde_json::json!(["t2.md", "t3.md"])
    );
    let bytes = check("bytes");
    assert!(
        2 * line_chars + 1 < line_bytes * 2,
        "the test needs wide text"
    );
    assert_eq!(
        truncated(&bytes).expect("cut")["cut"],
        serde_json::json!(["t1.md", "t2.md", "t3.md"])
    );
    // The same through the environment; a size that fits everything finds nothing to cut.
    let mut command = Command::new(env!("CARGO_BIN_EXE_memwb"));
    let out = command
        .env_clear()
        .env("HOME", home.path())
        .env("MEMWB_CLAUDE_INDEX_UNIT", "bytes")
        .env("MEMWB_CLAUDE_INDEX_SIZE", (4 * line_bytes + 3).to_string())
        .args(["--memory-dir", d, "check", "--json"])
        .output()
        .expect("run");
    assert!(truncated(&json(out)).is_none());
    let loaded = ok(run(
        home.path(),
        None,
        home.path(),
        &["--memory-dir", d, "--claude-index-size", &size, "index"],
    ));
    assert!(
        loaded.starts_with("- [t0]"),
        "frontmatter and comments stripped: {loaded}"
    );
}

#[test]
fn repair_of_a_manifest_entry_refuses_with_what_to_run_instead_and_changes_nothing() {
    let home = fixture();
    let before = tree(home.path());
    // add, set, rm, index --fix (and its older spelling index --write), log and undo write
    // here (tests/claude_curate_cli.rs, tests/conformance.rs), and the proposal commands
    // (tests/claude_review.rs); only what needs a manifest refuses.
    let out = on_fixture(home.path(), &["repair", "scratch.md", "--drop"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("memwb set FILE") && err.contains("nothing was changed"),
        "{err}"
    );
    assert!(!err.contains("comes next"), "{err}");
    assert_eq!(tree(home.path()), before);
}
