//! `memwb hooks install|uninstall|status` on Claude Code settings files in temporary homes:
//! into a missing file, into one with other hooks and keys (all kept, in order), twice (no
//! change), a new mode, uninstall (only memwb's entries go), status, and the agent named.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

mod agents;
mod install;
mod status;
mod uninstall;

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

/// Mode bits of a file.
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).expect("stat").permissions().mode() & 0o7777
}

const EXACT: &str = "{\r\n    \"apiKeyHelper\": \"~/bin/key\",\r\n    \"big\": 12345678901234567890123,\r\n    \"env\": {\"A\": \"1\", \"A\": \"2\"},\r\n    \"ratio\": 1.50e0\r\n}";
