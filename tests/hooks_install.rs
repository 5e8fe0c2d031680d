//! `memwb hooks install|uninstall|status` on Claude Code settings files in temporary homes:
//! into a missing file, into one with other hooks and keys (all kept, in order), twice (no
//! change), a new mode, uninstall (only memwb's entries go), and status.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

/// `memwb ARGS` with HOME and CLAUDE_CONFIG_DIR in `home`, nothing else inherited but PATH.
fn memwb(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memwb"))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("CLAUDE_CONFIG_DIR", home.join("claude"))
        .env("MEMWB_CONFIG", home.join("memwb.toml"))
        .env("MEMWB_STATE_DIR", home.join("state"))
        .current_dir(home)
        .args(args)
        .output()
        .expect("run memwb")
}

fn ok(out: Output) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    assert_eq!(stderr, "");
    String::from_utf8(out.stdout).expect("utf-8")
}

fn settings(home: &Path) -> std::path::PathBuf {
    home.join("claude").join("settings.json")
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).expect("settings")).expect("json")
}

fn memwb_group(matcher: Option<&str>, command: &str) -> Value {
    let hook = json!({"type": "command", "command": command, "timeout": 10});
    match matcher {
        Some(m) => json!({"matcher": m, "hooks": [hook]}),
        None => json!({"hooks": [hook]}),
    }
}

#[test]
fn install_into_a_missing_file_creates_it_with_the_three_hooks() {
    let home = tempfile::tempdir().expect("temp");
    let out = ok(memwb(home.path(), &["hooks", "install"]));
    assert_eq!(
        out,
        format!(
            "installed memwb's hooks in {}: memwb hook claude\n",
            settings(home.path()).display()
        )
    );
    assert_eq!(
        read(&settings(home.path())),
        json!({"hooks": {
            "PreToolUse": [memwb_group(Some("Write|Edit|MultiEdit|Bash"), "memwb hook claude")],
            "PostToolUse": [memwb_group(Some("Write|Edit|MultiEdit"), "memwb hook claude")],
            "SessionStart": [memwb_group(None, "memwb hook claude")],
        }})
    );
    // Nothing was there before, so there is nothing to back up.
    assert!(
        !home
            .path()
            .join("claude/settings.json.memwb-backup")
            .exists()
    );
}

const OTHERS: &str = r#"{
  "model": "opus",
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/no-rm-rf"}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  },
  "autoMemoryEnabled": true
}
"#;

#[test]
fn install_keeps_every_other_key_and_hook_twice_changes_nothing_and_uninstall_restores() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    fs::write(&path, OTHERS).expect("write");
    let out = ok(memwb(home.path(), &["hooks", "install", "--user"]));
    assert!(
        out.ends_with(&format!(
            "the previous file is kept in {}.memwb-backup\n",
            path.display()
        )),
        "{out}"
    );
    assert_eq!(
        fs::read_to_string(home.path().join("claude/settings.json.memwb-backup")).expect("backup"),
        OTHERS
    );
    let installed = read(&path);
    let keys: Vec<&String> = installed.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["model", "permissions", "hooks", "autoMemoryEnabled"]);
    let pre = &installed["hooks"]["PreToolUse"];
    assert_eq!(pre[0]["hooks"][0]["command"], "~/bin/no-rm-rf");
    assert_eq!(
        pre[1],
        memwb_group(Some("Write|Edit|MultiEdit|Bash"), "memwb hook claude")
    );
    assert_eq!(
        installed["hooks"]["Stop"][0]["hooks"][0]["command"],
        "notify-send done"
    );

    let bytes = fs::read(&path).expect("read");
    let again = ok(memwb(home.path(), &["hooks", "install"]));
    assert_eq!(
        again,
        format!(
            "memwb's hooks are already installed in {}; nothing changed\n",
            path.display()
        )
    );
    assert_eq!(
        fs::read(&path).expect("read"),
        bytes,
        "a second install writes nothing"
    );

    // Another mode replaces memwb's entries instead of adding a second set.
    ok(memwb(
        home.path(),
        &["hooks", "install", "--mode", "record"],
    ));
    let record = read(&path);
    assert_eq!(
        record["hooks"]["PreToolUse"]
            .as_array()
            .expect("array")
            .len(),
        2
    );
    assert_eq!(
        record["hooks"]["PreToolUse"][1]["hooks"][0]["command"],
        "memwb hook claude --mode record"
    );

    let out = ok(memwb(home.path(), &["hooks", "uninstall"]));
    assert_eq!(
        out,
        format!("removed memwb's hooks from {}\n", path.display())
    );
    let original: Value = serde_json::from_str(OTHERS).expect("json");
    assert_eq!(read(&path), original);
    let keys: Vec<String> = read(&path)
        .as_object()
        .expect("object")
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["model", "permissions", "hooks", "autoMemoryEnabled"]);
    let out = ok(memwb(home.path(), &["hooks", "uninstall"]));
    assert_eq!(
        out,
        format!(
            "memwb's hooks are not in {}; nothing changed\n",
            path.display()
        )
    );
}

#[test]
fn a_settings_file_that_is_not_an_object_is_refused_and_left_alone() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    for bad in ["[1, 2]", "{\"hooks\": [] }", "{not json"] {
        fs::write(&path, bad).expect("write");
        let out = memwb(home.path(), &["hooks", "install"]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with(&format!("error: settings file {}", path.display())),
            "{stderr}"
        );
        assert!(stderr.contains("nothing was changed"), "{stderr}");
        assert_eq!(fs::read_to_string(&path).expect("read"), bad);
    }
}

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
        "  PreToolUse [Write|Edit|MultiEdit|Bash]: memwb hook claude --mode record"
    );
    assert_eq!(
        lines[2],
        "  PostToolUse [Write|Edit|MultiEdit]: memwb hook claude --mode record"
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
    assert_eq!(
        status.lines().last(),
        Some(
            format!(
                "Claude Code runs {}: this binary",
                bin.join("memwb").display()
            )
            .as_str()
        )
    );

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
