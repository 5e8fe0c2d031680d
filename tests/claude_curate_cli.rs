//! Curating a Claude Code folder from the command line: `add`, `set`, `rm`, `consolidate`,
//! `index --fix`, `log` and `undo` on a copy of tests/fixtures/claude, with HOME and
//! MEMWB_STATE_DIR in temporary directories. Each test checks the files, the MEMORY.md lines, the journal, and
//! that nothing but topic files and MEMORY.md (and its archive) appears in the folder.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::process::Output;

use serde_json::Value;

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
            state: tempfile::tempdir().expect("state dir"),
        }
    }

    fn memory(&self) -> PathBuf {
        self.home.path().join(MEMORY)
    }

    fn read(&self, file: &str) -> String {
        fs::read_to_string(self.memory().join(file)).expect("read")
    }

    /// `memwb --memory-dir <memory> ARGS` with `stdin`, nothing inherited but PATH.
    fn run_with(&self, args: &[&str], stdin: &str) -> Output {
        common::cli::memwb_claude_with(
            self.home.path(),
            &self.memory(),
            self.state.path(),
            args,
            stdin,
        )
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, "")
    }

    /// The folder's files and their bytes.
    fn tree(&self) -> BTreeMap<String, Vec<u8>> {
        common::tree(&self.memory())
    }

    fn log(&self) -> Vec<Value> {
        let out = ok(self.run(&["log", "--json"]));
        serde_json::from_str::<Vec<Value>>(&out).expect("log --json is an array")
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok(out: Output) -> String {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    text(&out.stdout)
}

fn refused(out: Output) -> String {
    assert_eq!(out.status.code(), Some(2), "stdout: {}", text(&out.stdout));
    text(&out.stderr)
}

/// Files that appeared or changed between two trees: each must be a Markdown file (a topic
/// file, MEMORY.md or its archive), never memwb's own state.
fn assert_only_markdown_changed(
    before: &BTreeMap<String, Vec<u8>>,
    after: &BTreeMap<String, Vec<u8>>,
) {
    for (file, bytes) in after {
        if before.get(file) != Some(bytes) {
            assert!(
                file.ends_with(".md") && !file.starts_with('.'),
                "memwb wrote {file}"
            );
        }
    }
}

#[test]
fn add_writes_a_topic_file_and_its_index_entry_and_undo_takes_both_back() {
    let fx = Fixture::new();
    let before = fx.tree();
    let index = fx.read("MEMORY.md");
    let out = ok(fx.run(&[
        "add",
        "--name",
        "review-size",
        "--type",
        "feedback",
        "--description",
        "-keep PRs under 300 lines",
        "--body",
        "Keep pull requests under 300 changed lines.",
    ]));
    assert_eq!(out, "added review-size\n");
    // Claude Code's own form (docs/claude-code.md): its writer quotes a leading `-`.
    let topic = fx.read("feedback_review_size.md");
    assert!(
        topic.starts_with("---\nname: review-size\ndescription: \"-keep PRs under 300 lines\"\nmetadata:\n  node_type: memory\n  type: feedback\n  modified: "),
        "{topic}"
    );
    assert!(
        topic.ends_with("---\n\nKeep pull requests under 300 changed lines.\n"),
        "{topic}"
    );
    let line = "- [review-size](feedback_review_size.md) \u{2014} -keep PRs under 300 lines";
    assert_eq!(
        fx.read("MEMORY.md"),
        index.replace(
            "one logical change each\n",
            &format!("one logical change each\n{line}\n")
        )
    );
    let after = fx.tree();
    assert_only_markdown_changed(&before, &after);
    assert_eq!(after.len(), before.len() + 1);

    let log = fx.log();
    assert_eq!(log.len(), 1, "{log:?}");
    assert_eq!(log[0]["op"], "add");
    // The topic file whole, MEMORY.md as its changed lines (docs/claude-code.md).
    let files: Vec<&str> = log[0]["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["feedback_review_size.md", "MEMORY.md"]);
    assert_eq!(
        log[0]["files"][1]["lines"][0]["added"],
        serde_json::json!([format!("{line}\n")])
    );
    assert!(ok(fx.run(&["log"])).contains("  added review-size"));

    let out = ok(fx.run(&["undo"]));
    assert!(
        out.starts_with("undid #1 (add) as #2: removed review-size"),
        "{out}"
    );
    assert_eq!(fx.tree(), before, "undo restores the exact bytes");
    let log = fx.log();
    assert_eq!(log.len(), 2);
    assert_eq!(log[1]["op"], "undo");
    assert_eq!(log[1]["undoes"], 1);
}

#[test]
fn add_takes_a_json_batch_with_cjk_names_and_refuses_a_bad_one_whole() {
    let fx = Fixture::new();
    let before = fx.tree();
    let bad = r#"[{"name":"ok","type":"user","description":"d","body":"b"},
                  {"name":"x","type":"decision","description":"d","body":"b"}]"#;
    let err = refused(fx.run_with(&["add", "--json", "-"], bad));
    assert!(err.starts_with("error: record 2 (\"x\")"), "{err}");
    assert!(err.contains("unknown type \"decision\""), "{err}");
    let err = refused(fx.run(&[
        "add",
        "--name",
        "user_role",
        "--type",
        "user",
        "--description",
        "d",
        "--body",
        "b",
    ]));
    assert!(err.contains("a memory named \"user_role\" exists"), "{err}");
    assert_eq!(fx.tree(), before, "nothing written");

    // A name Claude Code would erase (it keeps ASCII letters and digits only) or change is
    // refused, the batch whole; the title can go in the description.
    let batch = r#"[{"name":"deploy-zh","type":"project","description":"部署 步骤: 如何部署","body":"先跑冒烟测试。"},
                    {"name":"部署 步骤","type":"project","description":"如何部署","body":"b"}]"#;
    let err = refused(fx.run_with(&["add", "--json", "-"], batch));
    assert!(
        err.contains("name \"部署 步骤\" cannot be kept") && err.contains("would erase it"),
        "{err}"
    );
    let err = refused(fx.run(&common::cli::add_args("Role", "d", "b")));
    assert!(err.contains("use `role`"), "{err}");
    assert_eq!(fx.tree(), before, "nothing written");
    let batch = r#"[{"name":"deploy-zh","type":"project","description":"部署 步骤: 如何部署","body":"先跑冒烟测试。"},
                    {"name":"role","type":"user","description":"the role again","body":"b"}]"#;
    let out = ok(fx.run_with(&["add", "--json", "-"], batch));
    assert_eq!(out, "added deploy-zh, role\n");
    assert!(
        fx.read("project_deploy_zh.md")
            .starts_with("---\nname: deploy-zh\ndescription: \"部署 步骤: 如何部署\"\n"),
        "{}",
        fx.read("project_deploy_zh.md")
    );
    let index = fx.read("MEMORY.md");
    assert!(
        index.contains(
            "deploys run\n- [deploy-zh](project_deploy_zh.md) \u{2014} 部署 步骤: 如何部署\n"
        ),
        "{index}"
    );
    assert!(
        index.contains("- [role](user_role_2.md) \u{2014} the role again\n\n## Feedback"),
        "{index}"
    );
    assert_only_markdown_changed(&before, &fx.tree());
    assert_eq!(fx.log().len(), 1, "one change, one entry");
}

#[test]
fn set_edits_one_field_stamps_modified_and_follows_in_the_index() {
    let fx = Fixture::new();
    let before = fx.tree();
    let topic = fx.read("user_role.md");
    let index = fx.read("MEMORY.md");
    let out = ok(fx.run(&[
        "set",
        "user_role",
        "--description",
        "Dana leads the storefront team",
    ]));
    assert_eq!(out, "changed user_role\n");
    let edited = fx.read("user_role.md");
    let changed: Vec<(&str, &str)> = topic
        .split_inclusive('\n')
        .zip(edited.split_inclusive('\n'))
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(topic.lines().count(), edited.lines().count());
    assert_eq!(changed.len(), 2, "{changed:?}");
    assert_eq!(
        changed[0].1,
        "description: \"Dana leads the storefront team\"\n"
    );
    assert!(
        changed[1].1.starts_with("  modified: 20") && changed[1].1.ends_with("Z\n"),
        "{changed:?}"
    );
    let stamp = changed[1].1.trim().strip_prefix("modified: ").unwrap();
    assert_eq!(
        stamp.len(),
        "2026-09-14T08:21:07.512Z".len(),
        "milliseconds: {stamp}"
    );
    assert_eq!(
        fx.read("MEMORY.md"),
        index.replace(
            "\u{2014} Dana leads the storefront team; prefers small reviewable PRs",
            "\u{2014} Dana leads the storefront team"
        )
    );
    assert_only_markdown_changed(&before, &fx.tree());
    assert_eq!(
        ok(fx.run(&[
            "set",
            "user_role",
            "--description",
            "Dana leads the storefront team"
        ])),
        "unchanged: user_role already holds what was given\n"
    );
    ok(fx.run(&["undo"]));
    assert_eq!(fx.tree(), before);
}

#[test]
fn set_with_a_new_name_renames_the_file_and_rewrites_its_link() {
    let fx = Fixture::new();
    let before = fx.tree();
    let index = fx.read("MEMORY.md");
    // A new name Claude Code would change is refused, naming the one it keeps.
    let err = refused(fx.run(&["set", "deploy_steps", "--name", "Deploy runbook"]));
    assert!(err.contains("use `deploy-runbook`"), "{err}");
    assert_eq!(fx.tree(), before, "nothing written");
    let out = ok(fx.run(&["set", "deploy_steps", "--name", "deploy-runbook"]));
    assert_eq!(out, "renamed deploy_steps to deploy-runbook\n");
    assert!(!fx.memory().join("notes/deploy_steps.md").exists());
    assert!(
        fx.read("notes/reference_deploy_runbook.md")
            .starts_with("---\nname: deploy-runbook\n")
    );
    assert_eq!(
        fx.read("MEMORY.md"),
        index.replace(
            "- [deploy_steps](notes/deploy_steps.md)",
            "- [deploy-runbook](notes/reference_deploy_runbook.md)"
        )
    );
    assert_only_markdown_changed(&before, &fx.tree());
    let err = refused(fx.run(&["set", "user_role", "--name", "deploy-runbook"]));
    assert!(
        err.contains("a memory named \"deploy-runbook\" exists"),
        "{err}"
    );
    ok(fx.run(&["undo"]));
    assert_eq!(fx.tree(), before);
}

#[test]
fn rm_removes_the_files_and_their_lines_all_or_none() {
    let fx = Fixture::new();
    let before = fx.tree();
    let index = fx.read("MEMORY.md");
    let err = refused(fx.run(&["rm", "project_release", "no-such-memory"]));
    assert!(err.contains("no memory named \"no-such-memory\""), "{err}");
    assert_eq!(fx.tree(), before);
    let out = ok(fx.run(&["rm", "project_release", "用户偏好"]));
    assert_eq!(out, "removed project_release, 用户偏好\n");
    assert!(!fx.memory().join("project_release.md").exists());
    assert!(!fx.memory().join("用户偏好.md").exists());
    let expected: String = index
        .split_inclusive('\n')
        .filter(|l| !l.contains("](project_release.md)") && !l.contains("](用户偏好.md)"))
        .collect();
    assert_eq!(fx.read("MEMORY.md"), expected);
    ok(fx.run(&["undo"]));
    assert_eq!(fx.tree(), before);
}

#[test]
fn consolidate_applies_a_plan_in_one_journaled_change_and_undo_takes_it_back() {
    let fx = Fixture::new();
    let before = fx.tree();
    let plan = serde_json::json!({
        "source_names": ["feedback_integration_tests", "user_role"],
        // Records are in the consolidator's terms: the name a slug of the source it keeps.
        "records": [{
            "name": "feedback-integration-tests",
            "description": "real Postgres in integration tests; small reviewable PRs",
            "type": "feedback",
            "body": "Integration tests hit a real Postgres. Dana prefers small reviewable PRs.",
        }],
    });
    // A plan naming a memory the folder does not have is refused whole.
    let mut bad = plan.clone();
    bad["source_names"][1] = "no-such-memory".into();
    let err = refused(fx.run_with(&["consolidate", "--plan", "-"], &bad.to_string()));
    assert!(err.contains("the consolidation plan is refused"), "{err}");
    assert_eq!(fx.tree(), before);

    let out = ok(fx.run_with(&["consolidate", "--plan", "-"], &plan.to_string()));
    assert_eq!(
        out,
        "consolidated feedback-integration-tests, user-role into feedback-integration-tests\n"
    );
    assert!(!fx.memory().join("user_role.md").exists());
    let merged = fx.read("feedback_integration_tests.md");
    assert!(
        merged.contains("Dana prefers small reviewable PRs"),
        "{merged}"
    );
    assert!(
        merged.contains("originSessionId: 2f8e6a10-9b3d-4c7e-a5f1-0d2c4b6e8a93"),
        "the fields the plan does not name are kept: {merged}"
    );
    let index = fx.read("MEMORY.md");
    assert!(!index.contains("](user_role.md)"), "{index}");
    assert!(
        index.contains("](feedback_integration_tests.md)"),
        "{index}"
    );
    assert_only_markdown_changed(&before, &fx.tree());
    let log = fx.log();
    assert_eq!(log.last().expect("an entry")["op"], "consolidate");
    ok(fx.run(&["undo"]));
    assert_eq!(fx.tree(), before);
}

#[test]
fn index_fix_prints_the_diff_and_writes_only_with_yes() {
    let fx = Fixture::new();
    let before = fx.tree();
    let out = fx.run(&["index", "--fix"]);
    let diff = ok(out.clone());
    assert!(
        diff.starts_with("--- a/MEMORY.md\n+++ b/MEMORY.md\n"),
        "{diff}"
    );
    assert!(
        diff.contains("\n-- [project_payments](project_payments.md)"),
        "{diff}"
    );
    assert!(diff.contains("\n+- [scratch](scratch.md)"), "{diff}");
    assert!(
        diff.contains("\n+- [project_old_api](project_old_api.md)"),
        "{diff}"
    );
    assert!(text(&out.stderr).contains("nothing written (run with --yes to write it)"));
    assert_eq!(fx.tree(), before, "no --yes, nothing written");

    let out = fx.run(&["index", "--fix", "--yes"]);
    assert_eq!(ok(out.clone()), diff);
    assert!(
        text(&out.stderr).starts_with("fixed: 1 dangling entry removed; 2 unlisted files added")
    );
    let index = fx.read("MEMORY.md");
    assert!(!index.contains("project_payments"));
    // Each under a section of its own: the `decision` note's type, a default for no type.
    assert!(index.ends_with("error budget\n\n## Decision\n- [project_old_api](project_old_api.md) \u{2014} The v1 API stays read-only until clients migrate\n\n## Other\n- [scratch](scratch.md)"), "{index}");
    assert_eq!(ok(fx.run(&["index", "--fix"])), "MEMORY.md needs no fix\n");
    assert_eq!(fx.log()[0]["op"], "rebuild-index");
    ok(fx.run(&["undo"]));
    assert_eq!(fx.tree(), before);
}

#[test]
fn index_fix_archives_the_oldest_entries_past_the_load_limit() {
    let fx = Fixture::new();
    let before = fx.tree();
    // Fifteen lines may load (the fixture's index has 19, 12 of them not entries): the fix
    // archives down to fifteen.
    let out = fx.run(&["--claude-index-lines", "15", "index", "--fix", "--yes"]);
    assert!(
        !text(&out.stderr).contains("still past"),
        "{}",
        text(&out.stderr)
    );
    let diff = ok(out.clone());
    assert!(diff.contains("+++ b/MEMORY-archive.md"), "{diff}");
    let index = fx.read("MEMORY.md");
    assert!(index.contains("](MEMORY-archive.md)"), "{index}");
    let archive = fx.read("MEMORY-archive.md");
    assert!(archive.starts_with("# Memory archive\n"), "{archive}");
    let limits = memwb::claude::LoadLimits {
        lines: 15,
        ..memwb::claude::LoadLimits::default()
    };
    let parsed = memwb::claude::index::parse(&index, limits);
    assert!(
        parsed.counted_lines <= 15 && parsed.cut_by.is_none(),
        "{index}"
    );
    // user_role's `modified` (2026-09-14) is older than the other files' mtimes (copied just
    // now), so its entry is the first to go.
    assert!(
        archive.contains("- [user_role](user_role.md)"),
        "the oldest stamp goes: {archive}"
    );
    let after = fx.tree();
    assert_only_markdown_changed(&before, &after);
    assert_eq!(
        after.len(),
        before.len() + 1,
        "the archive is the one new file"
    );
    ok(fx.run(&["undo"]));
    assert_eq!(fx.tree(), before);
}

#[test]
fn undo_refuses_when_claude_code_changed_the_file_since() {
    let fx = Fixture::new();
    ok(fx.run(&["set", "project_release", "--description", "the freeze"]));
    // Claude Code writes the file after memwb did: undo must not clobber it.
    let path = fx.memory().join("project_release.md");
    let theirs = format!("{}Claude Code's own line.\n", fx.read("project_release.md"));
    fs::write(&path, &theirs).expect("plain write");
    let index = fx.read("MEMORY.md");
    let err = refused(fx.run(&["undo"]));
    assert!(
        err.contains("\"project_release\" was changed since #1"),
        "{err}"
    );
    assert_eq!(fx.read("project_release.md"), theirs);
    assert_eq!(fx.read("MEMORY.md"), index);
}

#[test]
fn every_write_is_refused_while_claude_code_consolidates() {
    let fx = Fixture::new();
    // This test's own process is alive for as long as the command runs.
    fs::write(
        fx.memory().join(".consolidate-lock"),
        std::process::id().to_string(),
    )
    .expect("lock");
    let before = fx.tree();
    for args in [
        &[
            "add",
            "--name",
            "x",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ][..],
        &["set", "user_role", "--description", "changed"],
        &["rm", "user_role"],
        &["index", "--fix", "--yes"],
    ] {
        let err = refused(fx.run(args));
        assert!(
            err.contains("Claude Code is consolidating this folder; try again when it finishes"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(fx.tree(), before);
}

#[test]
fn index_fix_on_a_memory_set_previews_and_writes_with_yes_and_write_is_its_alias() {
    use common::cli::{add, memwb_with, ok, stderr};
    let dir = tempfile::tempdir().expect("temp dir");
    let state = dir.path().join("state");
    let state = state.to_str().expect("utf-8 path");
    let run = |args: &[&str]| {
        let mut all = vec!["--format", "memory"];
        all.extend_from_slice(args);
        memwb_with(dir.path(), &all, "", &[("MEMWB_STATE_DIR", state)])
    };
    add(
        dir.path(),
        "release",
        "release freeze",
        "Freeze on Fridays.",
    );
    let index = dir.path().join(".memory/MEMORY.md");
    let derived = fs::read_to_string(&index).expect("index");
    assert_eq!(ok(run(&["index", "--fix"])), "MEMORY.md needs no fix\n");
    fs::write(&index, "# hand-edited\n").expect("drift");
    let out = run(&["index", "--fix"]);
    let diff = ok(out.clone());
    assert!(diff.contains("\n-# hand-edited\n"), "{diff}");
    assert!(stderr(&out).contains("nothing written (run with --yes to write it)"));
    assert_eq!(
        fs::read_to_string(&index).expect("index"),
        "# hand-edited\n"
    );
    ok(run(&["index", "--fix", "--yes"]));
    assert_eq!(fs::read_to_string(&index).expect("index"), derived);
    fs::write(&index, "# again\n").expect("drift");
    ok(run(&["index", "--write"]));
    assert_eq!(fs::read_to_string(&index).expect("index"), derived);
}
