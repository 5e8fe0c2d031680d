//! `hooks status` and `--project`: the binary on `PATH`, the folder, the log, whether the gate
//! works.

use super::*;

#[test]
fn project_settings_and_status() {
    let home = tempfile::tempdir().expect("temp");
    let project = home.path().join("app");
    fs::create_dir_all(&project).expect("mkdir");
    let dir = project.to_str().expect("utf-8");
    ok(memwb(
        home.path(),
        &["hooks", "install", "--project", dir, "--mode", "record"],
    ));
    let path = project.join(".claude/settings.json");
    assert_eq!(
        read(&path)["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
        "memwb hook claude --mode record"
    );
    let status = ok(memwb(home.path(), &["hooks", "status", "--project", dir]));
    let lines: Vec<&str> = status.lines().collect();
    assert_eq!(
        lines[0],
        format!("project settings {}: installed", path.display())
    );
    assert_eq!(
        lines[1],
        "  PreToolUse [*]: memwb hook claude --mode record"
    );
    assert_eq!(
        lines[2],
        "  PostToolUse [*]: memwb hook claude --mode record"
    );
    assert_eq!(lines[3], "  SessionStart: memwb hook claude --mode record");
    assert_eq!(
        lines[4],
        format!(
            "local settings {}: no file",
            project.join(".claude/settings.local.json").display()
        )
    );
    assert_eq!(lines[5], "mode: record (--mode in the hook command)");
    // The test's PATH has no memwb (or another one): either way, not silently "fine".
    assert!(lines[6].starts_with("Claude Code runs "), "{status}");
    assert!(!lines[6].ends_with(": this binary"), "{status}");

    // With this binary first on PATH, status says so.
    let bin = home.path().join("bin");
    fs::create_dir_all(&bin).expect("mkdir");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_memwb"), bin.join("memwb")).expect("link");
    let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .env_clear()
        .env("PATH", &bin)
        .env("HOME", home.path())
        .env("CLAUDE_CONFIG_DIR", home.path().join("claude"))
        .env("MEMWB_CONFIG", home.path().join("memwb.toml"))
        .args(["hooks", "status", "--project", dir])
        .output()
        .expect("run");
    let status = ok(out);
    let runs = format!(
        "Claude Code runs {}: this binary",
        bin.join("memwb").display()
    );
    assert!(status.lines().any(|l| l == runs), "{status}");

    // The user's file has nothing: status says so and names no mode.
    let user = ok(memwb(home.path(), &["hooks", "status"]));
    assert!(
        user.starts_with(&format!(
            "user settings {}: no file\n",
            settings(home.path()).display()
        )),
        "{user}"
    );
}

#[test]
fn status_says_whether_the_gate_works_now() {
    let home = tempfile::tempdir().expect("temp");
    let project = home.path().join("repo");
    fs::create_dir_all(project.join(".git")).expect("mkdir");
    let dir = project.to_str().expect("utf-8");
    ok(memwb(home.path(), &["hooks", "install", "--project", dir]));
    let status = ok(memwb_on_path(
        home.path(),
        &["hooks", "status", "--project", dir],
    ));
    let folder = home
        .path()
        .join("claude/projects")
        .join(dir.replace(|c: char| !c.is_ascii_alphanumeric(), "-"));
    assert!(
        status.contains(&format!("\nmemory folder: {}/memory\n", folder.display())),
        "{status}"
    );
    assert!(
        status.contains("\nlast decision: none in hook.log\n"),
        "{status}"
    );
    assert!(status.contains("\nlast hook.log entry: none\n"), "{status}");
    assert!(status.ends_with("\ngate: effective\n"), "{status}");

    // A hook that decided leaves the time in hook.log, which status shows.
    fs::create_dir_all(folder.join("memory")).expect("mkdir");
    let input = json!({"hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": dir,
        "session_id": "s", "tool_use_id": "t1",
        "tool_input": {"file_path": format!("{}/memory/a.md", folder.display()), "content": "x"}});
    let mut hook = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .env_clear()
        .env("HOME", home.path())
        .env("CLAUDE_CONFIG_DIR", home.path().join("claude"))
        .env("MEMWB_CONFIG", home.path().join("memwb.toml"))
        .env("MEMWB_STATE_DIR", home.path().join("state"))
        .args(["hook", "claude"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("hook");
    use std::io::Write;
    hook.stdin
        .take()
        .expect("stdin")
        .write_all(input.to_string().as_bytes())
        .expect("write");
    hook.wait_with_output().expect("hook");
    let status = ok(memwb_on_path(
        home.path(),
        &["hooks", "status", "--project", dir],
    ));
    let last = status
        .lines()
        .find_map(|l| l.strip_prefix("last decision: "))
        .expect("a decision line");
    assert!(last.starts_with("20"), "a time first: {status}");
    assert!(last.ends_with("Z (PreToolUse deny)"), "{status}");

    // Settings that do not parse, or the mode off, make the gate ineffective, and it says why.
    fs::write(project.join(".claude/settings.local.json"), "{").expect("write");
    fs::write(home.path().join("memwb.toml"), "[claude]\nmode = \"off\"\n").expect("write");
    let status = ok(memwb_on_path(
        home.path(),
        &["hooks", "status", "--project", dir],
    ));
    let verdict = status.lines().last().expect("a verdict");
    assert!(verdict.starts_with("gate: not effective: "), "{status}");
    assert!(
        verdict.contains("the local settings do not parse"),
        "{status}"
    );
    assert!(verdict.contains("the mode is off"), "{status}");
}
