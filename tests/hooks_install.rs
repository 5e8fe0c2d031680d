//! `memwb hooks install|uninstall|status` on Claude Code settings files in temporary homes:
//! into a missing file, into one with other hooks and keys (all kept, in order), twice (no
//! change), a new mode, uninstall (only memwb's entries go), and status.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

/// `memwb ARGS` with HOME and CLAUDE_CONFIG_DIR in `home`, nothing else inherited but PATH.
fn memwb(home: &Path, args: &[&str]) -> Output {
    memwb_with_path(home, std::env::var_os("PATH").unwrap_or_default(), args)
}

fn memwb_with_path(home: &Path, path: std::ffi::OsString, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memwb"))
        .env_clear()
        .env("PATH", path)
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
            "PreToolUse": [memwb_group(Some("*"), "memwb hook claude")],
            "PostToolUse": [memwb_group(Some("*"), "memwb hook claude")],
            "SessionStart": [memwb_group(None, "memwb hook claude")],
        }})
    );
    // Nothing was there before, so there is nothing to back up.
    let names: Vec<String> = fs::read_dir(home.path().join("claude"))
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("backup"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
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
            "the previous file is kept in {}.memwb-backup-1\n",
            path.display()
        )),
        "{out}"
    );
    assert_eq!(
        fs::read_to_string(home.path().join("claude/settings.json.memwb-backup-1"))
            .expect("backup"),
        OTHERS
    );
    let installed = read(&path);
    let keys: Vec<&String> = installed.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["model", "permissions", "hooks", "autoMemoryEnabled"]);
    let pre = &installed["hooks"]["PreToolUse"];
    assert_eq!(pre[0]["hooks"][0]["command"], "~/bin/no-rm-rf");
    assert_eq!(pre[1], memwb_group(Some("*"), "memwb hook claude"));
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
    assert!(
        out.starts_with(&format!("removed memwb's hooks from {}\n", path.display())),
        "{out}"
    );
    assert_eq!(
        fs::read_to_string(&path).expect("read"),
        OTHERS,
        "the original bytes"
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

/// `memwb ARGS` as [`memwb`], with `bin` (holding this binary as `memwb`) as the PATH.
fn memwb_on_path(home: &Path, args: &[&str]) -> Output {
    let bin = home.join("bin");
    if !bin.join("memwb").exists() {
        fs::create_dir_all(&bin).expect("mkdir");
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_memwb"), bin.join("memwb")).expect("link");
    }
    memwb_with_path(home, bin.into_os_string(), args)
}

const NARROW: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Write|Edit|MultiEdit|Bash", "hooks": [{"type": "command", "command": "memwb hook claude", "timeout": 10}]},
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "lint"}]}
    ],
    "PostToolUse": [
      {"matcher": "Write|Edit|MultiEdit", "hooks": [{"type": "command", "command": "memwb hook claude", "timeout": 10}]}
    ],
    "SessionStart": [{"hooks": [{"type": "command", "command": "memwb hook claude", "timeout": 10}]}]
  }
}
"#;

#[test]
fn an_old_narrow_install_is_reported_and_upgraded_in_place_to_every_tool() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    fs::write(&path, NARROW).expect("write");
    let status = ok(memwb_on_path(home.path(), &["hooks", "status"]));
    let warnings = status
        .lines()
        .filter(|l| l.starts_with("  warning: this ") && l.contains("matcher leaves tools out"))
        .count();
    assert_eq!(warnings, 2, "{status}");
    assert!(
        status.contains("\ngate: not effective: PreToolUse does not see every tool; PostToolUse does not see every tool\n"),
        "{status}"
    );

    ok(memwb(home.path(), &["hooks", "install"]));
    let upgraded = read(&path);
    let pre = upgraded["hooks"]["PreToolUse"].as_array().expect("array");
    assert_eq!(pre.len(), 2);
    assert_eq!(
        pre[0],
        memwb_group(Some("*"), "memwb hook claude"),
        "in its place"
    );
    assert_eq!(pre[1]["hooks"][0]["command"], "lint");
    assert_eq!(
        upgraded["hooks"]["PostToolUse"],
        json!([memwb_group(Some("*"), "memwb hook claude")])
    );
    let status = ok(memwb_on_path(home.path(), &["hooks", "status"]));
    assert!(!status.contains("warning"), "{status}");
    assert!(
        status.contains("  PreToolUse [*]: memwb hook claude\n"),
        "{status}"
    );
    assert!(status.ends_with("\ngate: effective\n"), "{status}");
}

/// Mode bits of a file.
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).expect("stat").permissions().mode() & 0o7777
}

const EXACT: &str = "{\r\n    \"apiKeyHelper\": \"~/bin/key\",\r\n    \"big\": 12345678901234567890123,\r\n    \"env\": {\"A\": \"1\", \"A\": \"2\"},\r\n    \"ratio\": 1.50e0\r\n}";

#[test]
fn install_keeps_the_files_mode_and_every_byte_not_memwbs_and_every_backup() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    let original = format!("\u{feff}{EXACT}");
    fs::write(&path, &original).expect("write");
    fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o600)).expect("chmod");

    ok(memwb(home.path(), &["hooks", "install"]));
    assert_eq!(mode(&path), 0o600, "the file's mode is kept");
    let text = fs::read_to_string(&path).expect("read");
    assert!(
        text.starts_with("\u{feff}{\r\n    \"apiKeyHelper\""),
        "{text}"
    );
    for kept in [
        "\"big\": 12345678901234567890123,",
        "\"env\": {\"A\": \"1\", \"A\": \"2\"},",
        "\"ratio\": 1.50e0",
    ] {
        assert!(text.contains(kept), "{kept} changed:\n{text}");
    }
    let first = path.with_file_name("settings.json.memwb-backup-1");
    assert_eq!(fs::read_to_string(&first).expect("backup"), original);
    assert_eq!(mode(&first), 0o600);

    // Another install and an uninstall: each keeps what it replaced, none overwrites another.
    fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o640)).expect("chmod");
    ok(memwb(
        home.path(),
        &["hooks", "install", "--mode", "record"],
    ));
    assert_eq!(mode(&path), 0o640);
    // The owner is kept too, where this test may give the file another one (as root).
    use std::os::unix::fs::MetadataExt;
    let owner = std::os::unix::fs::chown(&path, Some(4242), Some(4243))
        .is_ok()
        .then_some((4242, 4243));
    ok(memwb(home.path(), &["hooks", "uninstall"]));
    assert_eq!(
        fs::read_to_string(&path).expect("read"),
        original,
        "byte for byte"
    );
    assert_eq!(mode(&path), 0o640);
    if let Some(owner) = owner {
        let meta = fs::metadata(&path).expect("stat");
        assert_eq!((meta.uid(), meta.gid()), owner, "the owner is kept");
    }
    assert_eq!(fs::read_to_string(&first).expect("backup"), original);
    for generation in 2..=3 {
        let backup = path.with_file_name(format!("settings.json.memwb-backup-{generation}"));
        assert!(
            fs::read_to_string(&backup)
                .expect("backup")
                .contains("memwb hook claude"),
            "generation {generation}"
        );
        assert_eq!(mode(&backup), 0o600);
    }
    // An older memwb's single backup is never overwritten either.
    let legacy = path.with_file_name("settings.json.memwb-backup");
    fs::write(&legacy, "old").expect("write");
    ok(memwb(home.path(), &["hooks", "install"]));
    assert_eq!(fs::read_to_string(&legacy).expect("legacy"), "old");
    assert!(path.with_file_name("settings.json.memwb-backup-4").exists());
}

#[test]
fn a_settings_file_memwb_cannot_edit_exactly_is_refused_untouched() {
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
    let twice = "{\"hooks\": {}, \"hooks\": {\"Stop\": []}}";
    fs::write(&path, twice).expect("write");
    let out = memwb(home.path(), &["hooks", "install"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the key \"hooks\" appears 2 times")
            && stderr.contains("nothing was changed"),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&path).expect("read"), twice);
    assert_eq!(
        fs::read_dir(path.parent().expect("dir"))
            .expect("list")
            .count(),
        1
    );
}

#[test]
fn uninstall_takes_away_the_settings_file_and_folder_install_created() {
    let home = tempfile::tempdir().expect("temp");
    let project = home.path().join("repo");
    fs::create_dir_all(&project).expect("mkdir");
    let dir = project.to_str().expect("utf-8");
    ok(memwb(home.path(), &["hooks", "install", "--project", dir]));
    assert_eq!(mode(&project.join(".claude/settings.json")), 0o600);
    ok(memwb(
        home.path(),
        &["hooks", "install", "--project", dir, "--mode", "record"],
    ));
    let out = ok(memwb(
        home.path(),
        &["hooks", "uninstall", "--project", dir],
    ));
    assert!(
        out.contains("and the file, which memwb had created"),
        "{out}"
    );
    assert!(
        !project.join(".claude").exists(),
        "nothing of memwb's is left"
    );

    // A project folder that does not exist is refused, and nothing is made.
    let missing = home.path().join("no-such-repo");
    let out = memwb(
        home.path(),
        &[
            "hooks",
            "install",
            "--project",
            missing.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: --project {}: no such folder; nothing was changed\n",
            missing.display()
        )
    );
    assert!(!missing.exists());

    // A .claude/ that holds something else stays, with that in it.
    ok(memwb(home.path(), &["hooks", "install", "--project", dir]));
    fs::write(project.join(".claude/settings.local.json"), "{}").expect("write");
    ok(memwb(
        home.path(),
        &["hooks", "uninstall", "--project", dir],
    ));
    let left: Vec<String> = fs::read_dir(project.join(".claude"))
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["settings.local.json"]);

    // Keys the user added to the created file meanwhile keep it.
    ok(memwb(home.path(), &["hooks", "install", "--project", dir]));
    let path = project.join(".claude/settings.json");
    let with_hooks = fs::read_to_string(&path).expect("read");
    let added = with_hooks.replacen('{', "{\n  \"model\": \"opus\",", 1);
    fs::write(&path, &added).expect("write");
    ok(memwb(
        home.path(),
        &["hooks", "uninstall", "--project", dir],
    ));
    assert_eq!(read(&path), json!({"model": "opus"}));
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

#[test]
fn a_crash_at_any_step_of_install_or_uninstall_leaves_the_old_file_or_the_new_one() {
    if !cfg!(feature = "fault-injection") {
        eprintln!(
            "skipping: MEMWB_CRASH_AT exists only with the fault-injection feature (cargo test turns it on)"
        );
        return;
    }
    let home = tempfile::tempdir().expect("temp");
    let path = settings(home.path());
    let dir = path.parent().expect("dir").to_owned();
    fs::create_dir_all(&dir).expect("mkdir");
    fs::write(&path, EXACT).expect("write");
    ok(memwb(home.path(), &["hooks", "install"]));
    let installed = fs::read(&path).expect("read");
    let done = home.path().join("done");
    fs::create_dir_all(&done).expect("mkdir");

    for (args, before, after) in [
        (
            &["hooks", "uninstall"][..],
            installed.clone(),
            EXACT.as_bytes().to_vec(),
        ),
        (
            &["hooks", "install"][..],
            EXACT.as_bytes().to_vec(),
            installed.clone(),
        ),
    ] {
        let mut crashes = 0;
        for n in 0.. {
            assert!(n < 50, "{args:?} never completed");
            // Every run starts from the same file and the same backups.
            for entry in fs::read_dir(&dir).expect("list") {
                fs::remove_file(entry.expect("entry").path()).expect("clear");
            }
            fs::write(&path, &before).expect("write");
            let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
                .env_clear()
                .env("HOME", home.path())
                .env("CLAUDE_CONFIG_DIR", home.path().join("claude"))
                .env("MEMWB_CONFIG", home.path().join("memwb.toml"))
                .env("MEMWB_STATE_DIR", home.path().join("state"))
                .env("MEMWB_CRASH_AT", n.to_string())
                .args(args)
                .output()
                .expect("run");
            let now = fs::read(&path).expect("the file is always there");
            assert!(
                now == before || now == after,
                "{args:?} step {n}: a third version"
            );
            for (_, backup) in backups(&dir) {
                assert_eq!(
                    fs::read(&backup).expect("backup"),
                    before,
                    "{args:?} step {n}"
                );
            }
            if out.status.success() {
                assert_eq!(now, after);
                break;
            }
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(
                out.status.signal(),
                Some(6),
                "{args:?} step {n}: not the crash point"
            );
            crashes += 1;
            // The next run finishes the job and clears what the crash left.
            let again = memwb(home.path(), args);
            assert_eq!(again.status.code(), Some(0), "{args:?} step {n}");
            assert_eq!(fs::read(&path).expect("read"), after, "{args:?} step {n}");
            let names: Vec<String> = fs::read_dir(&dir)
                .expect("list")
                .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".tmp"))
                .collect();
            assert!(names.is_empty(), "{args:?} step {n}: {names:?}");
        }
        assert!(crashes >= 4, "{args:?}: only {crashes} crash points");
    }
}

/// The numbered backups in `dir`: (generation, path).
fn backups(dir: &Path) -> Vec<(u32, std::path::PathBuf)> {
    fs::read_dir(dir)
        .expect("list")
        .filter_map(|e| {
            let path = e.expect("entry").path();
            let name = path.file_name()?.to_string_lossy().into_owned();
            let generation = name
                .strip_prefix("settings.json.memwb-backup-")?
                .parse()
                .ok()?;
            Some((generation, path))
        })
        .collect()
}
