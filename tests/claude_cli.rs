//! Claude Code auto memory from the command line, on a copy of tests/fixtures/claude: how it is
//! found, how it is read, every finding, the load limits, and that nothing is ever written.
//! Every command runs with HOME and CLAUDE_CONFIG_DIR in temporary directories.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use common::copy_dir;
use std::process::{Command, Output};

use serde_json::Value;

use common::{CLAUDE_MEMORY as MEMORY, DEAD_PID};

/// A temporary home holding a copy of the fixture's `config/`; the consolidation lock names a
/// process that cannot exist.
fn fixture() -> tempfile::TempDir {
    common::claude_home()
}

fn memory(home: &Path) -> PathBuf {
    home.join(MEMORY)
}

/// `memwb ARGS` in `cwd`, with HOME=`home`, CLAUDE_CONFIG_DIR as given, nothing else inherited.
fn run(home: &Path, config: Option<&Path>, cwd: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_memwb"));
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .current_dir(cwd)
        .args(args);
    if let Some(config) = config {
        command.env("CLAUDE_CONFIG_DIR", config);
    }
    command.output().expect("run memwb")
}

/// `memwb --memory-dir <fixture memory> ARGS`.
fn on_fixture(home: &Path, args: &[&str]) -> Output {
    let dir = memory(home);
    let mut all = vec!["--memory-dir", dir.to_str().expect("utf-8")];
    all.extend_from_slice(args);
    run(home, None, home, &all)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ok(out: Output) -> String {
    assert_eq!(out.status.code(), Some(0), "stderr: {}", text(&out.stderr));
    text(&out.stdout)
}

fn json(out: Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} / {}", text(&out.stdout), text(&out.stderr)))
}

/// Every file under `dir` with its bytes.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(next) = stack.pop() {
        for entry in fs::read_dir(&next).expect("read") {
            let entry = entry.expect("entry");
            let kind = entry.file_type().expect("type");
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() {
                out.insert(entry.path(), fs::read(entry.path()).expect("read"));
            } else {
                out.insert(entry.path(), b"(special)".to_vec());
            }
        }
    }
    out
}

/// `(code, file, line)` of every finding.
fn findings(report: &Value) -> Vec<(String, String, Option<u64>)> {
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["code"].as_str().expect("code").to_owned(),
                f["file"].as_str().unwrap_or("").to_owned(),
                f["line"].as_u64(),
            )
        })
        .collect()
}

fn has(list: &[(String, String, Option<u64>)], code: &str, file: &str) -> bool {
    list.iter().any(|(c, f, _)| c == code && f == file)
}

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
fn ls_and_show_keep_every_field_and_relative_paths() {
    let home = fixture();
    let rows = json(on_fixture(home.path(), &["ls", "--json"]));
    let rows = rows.as_array().expect("array");
    let order: Vec<&str> = rows.iter().filter_map(|r| r["file"].as_str()).collect();
    assert_eq!(
        order,
        [
            "user_role.md",
            "用户偏好.md",
            "feedback_integration_tests.md",
            "feedback_commit_style.md",
            "project_release.md",
            "notes/deploy_steps.md",
            "reference_dashboards.md",
            "project_old_api.md",
            "scratch.md"
        ],
        "index order first, then the unlisted files"
    );
    let user = &rows[0];
    assert_eq!(user["name"], "user_role");
    assert_eq!(user["type"], "user", "type under metadata: counts");
    assert_eq!(user["extra"]["metadata"]["node_type"], "memory");
    assert_eq!(
        user["extra"]["metadata"]["originSessionId"],
        "7d0c2b9e-41a6-4f53-8e2d-6b1f0c9a3e57"
    );
    assert_eq!(
        rows[2]["extra"]["originSessionId"],
        "2f8e6a10-9b3d-4c7e-a5f1-0d2c4b6e8a93"
    );
    assert_eq!(
        rows[8]["name"], "scratch",
        "no frontmatter: named by its file"
    );
    assert_eq!(rows[8]["type"], Value::Null);

    let shown = json(on_fixture(home.path(), &["show", "deploy_steps", "--json"]));
    assert_eq!(shown["file"], "notes/deploy_steps.md");
    let raw = ok(on_fixture(home.path(), &["show", "用户偏好"]));
    assert!(
        raw.starts_with("# 用户偏好.md\n---\nname: 用户偏好\n"),
        "{raw}"
    );
    let missing = on_fixture(home.path(), &["show", "nothing-here"]);
    assert_eq!(missing.status.code(), Some(2));
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

#[test]
fn select_chooses_among_topic_files() {
    let home = fixture();
    let out = json(on_fixture(
        home.path(),
        &["select", "postgres integration tests", "--json"],
    ));
    assert_eq!(out["fallback"], true);
    assert_eq!(
        out["selected"],
        serde_json::json!(["feedback_integration_tests"])
    );
    assert!(
        out["rendered"]
            .as_str()
            .is_some_and(|r| r.contains("## feedback_integration_tests (feedback)")),
        "{out}"
    );
}

#[test]
fn detection_of_each_format_and_of_a_foreign_manifest() {
    let home = fixture();
    // The .memory contract, by its manifest.
    let ws = tempfile::tempdir().expect("temp dir");
    let add = run(
        home.path(),
        None,
        ws.path(),
        &[
            "add",
            "--name",
            "tabs",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
    );
    assert_eq!(add.status.code(), Some(0), "{}", text(&add.stderr));
    let contract = ws.path().join(".memory");
    let rows = json(run(
        home.path(),
        None,
        home.path(),
        &[
            "--memory-dir",
            contract.to_str().expect("utf-8"),
            "ls",
            "--json",
        ],
    ));
    assert_eq!(rows[0]["name"], "tabs");
    assert!(
        rows[0].get("extra").is_none(),
        ".memory output is unchanged"
    );

    // Claude Code, by the absence of a manifest.
    let rows = json(on_fixture(home.path(), &["ls", "--json"]));
    assert!(rows[0].get("extra").is_some());

    // Another tool's manifest.json: neither, and nothing written.
    let foreign = tempfile::tempdir().expect("temp dir");
    fs::write(
        foreign.path().join("manifest.json"),
        r#"{"name":"other-tool","entries":[]}"#,
    )
    .expect("write");
    fs::write(foreign.path().join("a.md"), "---\nname: a\n---\nx\n").expect("write");
    let before = tree(foreign.path());
    let f = foreign.path().to_str().expect("utf-8");
    for args in [
        &["--memory-dir", f, "ls"][..],
        &[
            "--memory-dir",
            f,
            "add",
            "--name",
            "x",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
    ] {
        let out = run(home.path(), None, home.path(), args);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(
            err.contains("neither the .memory contract nor Claude Code auto memory"),
            "{err}"
        );
    }
    assert_eq!(tree(foreign.path()), before);
    // --format forces one.
    let rows = json(run(
        home.path(),
        None,
        home.path(),
        &["--memory-dir", f, "--format", "claude", "ls", "--json"],
    ));
    assert_eq!(rows[0]["name"], "a");
}

/// `<config>/projects/<slug of project>/memory`, holding a copy of the fixture's memory.
fn install_memory(config: &Path, project: &Path) -> PathBuf {
    let slug = project
        .to_str()
        .expect("utf-8")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect::<String>();
    let dir = config.join("projects").join(slug).join("memory");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claude")
            .join(MEMORY),
        &dir,
    );
    fs::write(dir.join(".consolidate-lock"), DEAD_PID).expect("lock");
    dir
}

fn realpath(path: &Path) -> PathBuf {
    fs::canonicalize(path).expect("realpath")
}

/// `--claude` with no folder for the project says where it looked, why there (the variable, or
/// its absence), and the two ways out.
#[test]
fn claude_without_a_folder_names_claude_config_dir_and_memory_dir() {
    let home = tempfile::tempdir().expect("home");
    let project = realpath(home.path()).join("proj");
    fs::create_dir_all(&project).expect("mkdir");
    let out = run(home.path(), None, &project, &["--claude", "ls"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("CLAUDE_CONFIG_DIR is not set, so ~/.claude was assumed")
            && err.contains("set CLAUDE_CONFIG_DIR")
            && err.contains("--memory-dir PATH"),
        "{err}"
    );
    let config = tempfile::tempdir().expect("config");
    let out = run(
        home.path(),
        Some(config.path()),
        &project,
        &["--claude", "ls"],
    );
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("CLAUDE_CONFIG_DIR is {}", config.path().display())),
        "{err}"
    );
}

/// `check --all` checks every folder alike: it does not announce the fallback folder as the
/// one it uses.
#[test]
fn check_all_does_not_announce_the_claude_code_fallback() {
    let home = tempfile::tempdir().expect("home");
    let config = tempfile::tempdir().expect("config");
    let project = realpath(home.path()).join("proj");
    fs::create_dir_all(&project).expect("mkdir");
    install_memory(config.path(), &project);
    let out = run(
        home.path(),
        Some(config.path()),
        &project,
        &["check", "--all", "--json"],
    );
    assert!(
        !text(&out.stderr).contains("using Claude Code"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(json(out).as_array().map(Vec::len), Some(1));
}

#[test]
fn claude_finds_the_folder_by_slug_under_claude_config_dir() {
    let home = tempfile::tempdir().expect("home");
    let config = tempfile::tempdir().expect("config");
    let project = realpath(home.path()).join("work").join("my.proj_x");
    fs::create_dir_all(&project).expect("mkdir");
    let folder = install_memory(config.path(), &project);
    let report = json(run(
        home.path(),
        Some(config.path()),
        &project,
        &["--claude", "check", "--json"],
    ));
    assert_eq!(report["workspace"], realpath(&folder).display().to_string());
    assert!(
        folder
            .to_str()
            .expect("utf-8")
            .ends_with("-work-my-proj-x/memory"),
        "the slug replaces every character that is not a letter or digit"
    );

    // Without CLAUDE_CONFIG_DIR the folder is looked for under ~/.claude, and not found there:
    // the message says where it looked.
    let out = run(home.path(), None, &project, &["--claude", "ls"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    let expected = realpath(home.path()).join(".claude/projects");
    assert!(err.contains(&expected.display().to_string()), "{err}");
    // ~/.claude is the default config folder.
    let home_config = home.path().join(".claude");
    install_memory(&home_config, &project);
    ok(run(home.path(), None, &project, &["--claude", "ls"]));
}

#[test]
fn a_subdirectory_and_a_worktree_resolve_to_the_main_repository() {
    let home = tempfile::tempdir().expect("home");
    let config = tempfile::tempdir().expect("config");
    let base = realpath(home.path());
    let main = base.join("repo");
    fs::create_dir_all(main.join(".git/worktrees/feature")).expect("mkdir");
    fs::create_dir_all(main.join("src/deep")).expect("mkdir");
    let worktree = base.join("feature-wt");
    fs::create_dir_all(worktree.join("sub")).expect("mkdir");
    fs::write(
        worktree.join(".git"),
        format!(
            "gitdir: {}\n",
            main.join(".git/worktrees/feature").display()
        ),
    )
    .expect("write");
    fs::write(main.join(".git/worktrees/feature/commondir"), "../..\n").expect("write");
    // A submodule-like .git file without commondir is its own project.
    let other = base.join("lib");
    fs::create_dir_all(&other).expect("mkdir");
    fs::write(other.join(".git"), "gitdir: ../repo/.git/modules/lib\n").expect("write");
    install_memory(config.path(), &main);
    for cwd in [
        main.clone(),
        main.join("src/deep"),
        worktree.clone(),
        worktree.join("sub"),
    ] {
        let rows = json(run(
            home.path(),
            Some(config.path()),
            &cwd,
            &["--claude", "ls", "--json"],
        ));
        assert_eq!(
            rows.as_array().map(Vec::len),
            Some(9),
            "from {}",
            cwd.display()
        );
    }
    let out = run(
        home.path(),
        Some(config.path()),
        &other,
        &["--claude", "ls"],
    );
    assert_eq!(out.status.code(), Some(2), "lib is not the repo's project");
    assert!(
        text(&out.stderr).contains("-lib/memory"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn auto_memory_directory_in_each_settings_file() {
    let home = tempfile::tempdir().expect("home");
    let config = tempfile::tempdir().expect("config");
    let project = realpath(home.path()).join("proj");
    fs::create_dir_all(project.join(".claude")).expect("mkdir");
    let source = fixture();
    let elsewhere = memory(source.path());
    let ls = |cwd: &Path| {
        run(
            home.path(),
            Some(config.path()),
            cwd,
            &["--claude", "ls", "--json"],
        )
    };

    // User settings, with ~/ expanded against HOME.
    let in_home = home.path().join("memories/shop");
    copy_dir(&elsewhere, &in_home);
    fs::write(
        config.path().join("settings.json"),
        r#"{"autoMemoryDirectory": "~/memories/shop"}"#,
    )
    .expect("write");
    assert_eq!(json(ls(&project)).as_array().map(Vec::len), Some(9));

    // Project settings win over the user's.
    let empty = tempfile::tempdir().expect("empty");
    fs::write(
        project.join(".claude/settings.json"),
        format!(r#"{{"autoMemoryDirectory": "{}"}}"#, empty.path().display()),
    )
    .expect("write");
    assert_eq!(json(ls(&project)), serde_json::json!([]));

    // Local settings win over both.
    fs::write(
        project.join(".claude/settings.local.json"),
        format!(r#"{{"autoMemoryDirectory": "{}"}}"#, elsewhere.display()),
    )
    .expect("write");
    assert_eq!(json(ls(&project)).as_array().map(Vec::len), Some(9));

    // A value Claude Code cannot use is ignored as Claude Code ignores it: the default folder
    // (missing here, so the error names it), and the file and the reason are said.
    for value in [
        r#""mem""#, r#""~""#, r#""""#, "null", "3", r#""/""#, r#""~/""#,
    ] {
        fs::write(
            project.join(".claude/settings.local.json"),
            format!(r#"{{"autoMemoryDirectory": {value}}}"#),
        )
        .expect("write");
        let out = ls(&project);
        assert_eq!(out.status.code(), Some(2), "{value}");
        let err = text(&out.stderr);
        assert!(
            err.contains("-proj/memory")
                && err.contains("autoMemoryDirectory in")
                && err.contains("settings.local.json is ignored"),
            "{value}: {err}"
        );
    }
    // A local settings file that does not parse is skipped: the project's value applies.
    for broken in ["{", r#"{"autoMemoryDirectory": "/x",}"#, "// c\n{}"] {
        fs::write(project.join(".claude/settings.local.json"), broken).expect("write");
        assert_eq!(json(ls(&project)), serde_json::json!([]), "{broken}");
    }
    // `..` is resolved.
    fs::write(
        project.join(".claude/settings.local.json"),
        format!(
            r#"{{"autoMemoryDirectory": "{}/x/.."}}"#,
            elsewhere.display()
        ),
    )
    .expect("write");
    assert_eq!(json(ls(&project)).as_array().map(Vec::len), Some(9));
}

#[test]
fn without_flags_the_workspace_memory_comes_first_then_claude_code() {
    let home = tempfile::tempdir().expect("home");
    let config = tempfile::tempdir().expect("config");
    let project = realpath(home.path()).join("proj");
    fs::create_dir_all(&project).expect("mkdir");
    let folder = install_memory(config.path(), &project);
    let out = run(
        home.path(),
        Some(config.path()),
        &project,
        &["ls", "--json"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stderr),
        format!(
            "using Claude Code auto memory at {}\n",
            realpath(&folder).display()
        )
    );
    assert_eq!(json(out).as_array().map(Vec::len), Some(9));

    // Once the workspace has a .memory, that is used, silently.
    let add = run(
        home.path(),
        Some(config.path()),
        &project,
        &[
            "--format",
            "memory",
            "add",
            "--name",
            "tabs",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
    );
    assert_eq!(add.status.code(), Some(0), "{}", text(&add.stderr));
    let out = run(
        home.path(),
        Some(config.path()),
        &project,
        &["ls", "--json"],
    );
    assert_eq!(text(&out.stderr), "");
    assert_eq!(json(out)[0]["name"], "tabs");
}

#[test]
fn sets_lists_every_folder_found() {
    let home = fixture();
    let root = tempfile::tempdir().expect("root");
    let ws = root.path().join("app");
    fs::create_dir_all(ws.join(".claude/agent-memory/reviewer")).expect("mkdir");
    fs::create_dir_all(root.path().join("node_modules/dep/.memory")).expect("mkdir");
    let add = run(
        home.path(),
        None,
        &ws,
        &[
            "--format",
            "memory",
            "add",
            "--name",
            "tabs",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
    );
    assert_eq!(add.status.code(), Some(0), "{}", text(&add.stderr));
    let config = home.path().join("config");
    let rows = json(run(
        home.path(),
        Some(&config),
        home.path(),
        &["sets", root.path().to_str().expect("utf-8"), "--json"],
    ));
    let rows = rows.as_array().expect("array");
    let summary: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r["format"].as_str().expect("format"),
                r["path"].as_str().expect("path"),
            )
        })
        .collect();
    let real_root = realpath(root.path());
    assert_eq!(
        summary,
        [
            (
                "claude",
                realpath(&memory(home.path())).to_str().expect("utf-8")
            ),
            (
                "claude",
                real_root
                    .join("app/.claude/agent-memory/reviewer")
                    .to_str()
                    .expect("utf-8")
            ),
            (
                "memory",
                real_root.join("app/.memory").to_str().expect("utf-8")
            ),
        ],
        "node_modules is skipped"
    );
    let shop = &rows[0];
    assert_eq!(shop["project"]["slug"], "-home-dev-shop");
    assert_eq!(shop["records"], 9);
    // One count everywhere: the folder's own findings and the content audit, as `check --all`
    // (and the workbench's Sets view, through the same function) counts them.
    assert_eq!(shop["errors"], 1, "the dangling index entry");
    let checked = json(run(
        home.path(),
        Some(&config),
        home.path(),
        &[
            "check",
            "--all",
            root.path().to_str().expect("utf-8"),
            "--json",
        ],
    ));
    let checked = checked.as_array().expect("reports");
    assert_eq!(checked.len(), rows.len());
    for (row, report) in rows.iter().zip(checked) {
        let count = |severity: &str| {
            report["findings"]
                .as_array()
                .expect("findings")
                .iter()
                .filter(|f| f["severity"] == severity && f.get("accepted").is_none())
                .count()
        };
        assert_eq!(row["path"], report["folder"], "{report}");
        assert_eq!(row["errors"], count("error"), "{}", row["path"]);
        assert_eq!(row["warnings"], count("warning"), "{}", row["path"]);
    }
    assert_eq!(shop["index"]["max_lines"], 200);
    assert_eq!(shop["index"]["unit"], "utf16");
    assert!(shop["last_change"].is_string());
    assert_eq!(rows[2]["records"], 1);
    let human = ok(run(
        home.path(),
        Some(&config),
        home.path(),
        &["sets", root.path().to_str().expect("utf-8")],
    ));
    assert_eq!(human.lines().count(), 3, "{human}");
}

#[test]
fn watch_reports_topic_files_added_and_changed() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use std::time::Duration;

    let home = fixture();
    let dir = memory(home.path());
    let mut child = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .env_clear()
        .env("HOME", home.path())
        .args([
            "--memory-dir",
            dir.to_str().expect("utf-8"),
            "watch",
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut ready = String::new();
    stderr.read_line(&mut ready).expect("read stderr");
    assert!(ready.starts_with("watching "), "{ready}");
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let wait = Duration::from_secs(20);
    fs::write(
        dir.join("notes/new_one.md"),
        "---\nname: new_one\ndescription: d\ntype: user\n---\nbody\n",
    )
    .expect("write");
    let line: Value = serde_json::from_str(&rx.recv_timeout(wait).expect("a line")).expect("json");
    assert_eq!(line["added"], serde_json::json!(["new_one"]));
    fs::write(
        dir.join("user_role.md"),
        "---\nname: user_role\n---\nchanged\n",
    )
    .expect("write");
    let line: Value = serde_json::from_str(&rx.recv_timeout(wait).expect("a line")).expect("json");
    assert_eq!(line["changed"], serde_json::json!(["user_role"]));
    assert_eq!(line["added"], serde_json::json!([]));
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn record_text_never_reaches_the_output_raw() {
    let home = fixture();
    let dir = memory(home.path());
    let hostile = "---\nname: \"evil\\e]0;pwned\\a\"\ndescription: \"clear \\e[2J screen\"\ntype: user\n---\nbody \u{1b}[31mred\n[[\u{1b}[1mx]]\n";
    fs::write(dir.join("evil.md"), hostile).expect("write");
    fs::write(
        dir.join("MEMORY.md"),
        "- [e](evil.md) — \u{1b}[2J\ncontent \u{9b}31m\n",
    )
    .expect("write");
    for args in [
        &["ls"][..],
        &["check"],
        &["index"],
        &["show", "evil.md"],
        &["ls", "--json"],
        &["check", "--json"],
    ] {
        let out = on_fixture(home.path(), args);
        let printed = text(&out.stdout);
        assert!(
            printed.contains("evil") || printed.contains("e]"),
            "{args:?}: {printed}"
        );
        assert!(
            !printed
                .chars()
                .any(|c| c == '\u{1b}' || c == '\u{9b}' || c == '\u{7}'),
            "{args:?}: {printed:?}"
        );
    }
    let raw = on_fixture(home.path(), &["show", "evil.md", "--raw"]);
    assert_eq!(raw.stdout, hostile.as_bytes(), "--raw is the exact bytes");
}
