//! Which format a folder is, what is said without one, the order of the candidates, `sets`.

use super::*;

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
