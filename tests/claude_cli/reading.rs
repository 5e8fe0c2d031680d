//! Reading a Claude Code folder: `ls`, `show`, `select`, `watch`, and record text never raw on the
//! output.

use super::*;

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
