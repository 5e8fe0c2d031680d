//! `memwb hook claude` driven with recorded Claude Code hook inputs, on a copy of
//! tests/fixtures/claude in a temporary home (HOME, CLAUDE_CONFIG_DIR, MEMWB_STATE_DIR and
//! MEMWB_CONFIG all point into it): the exact stdout for each case, what was filed, and that
//! the memory folder is untouched until a person approves.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::copy_dir;
use serde_json::{Value, json};

use common::DEAD_PID;

mod gate;
mod record;
mod review;

struct Session {
    dir: tempfile::TempDir,
}

impl Session {
    /// A home whose Claude Code config holds the fixture's memory as the auto memory of
    /// `<home>/shop`.
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let session = Self { dir };
        fs::create_dir_all(session.project()).expect("project");
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/claude/config/projects/-home-dev-shop/memory"),
            &session.memory(),
        );
        fs::write(session.memory().join(".consolidate-lock"), DEAD_PID).expect("lock");
        session
    }

    fn home(&self) -> PathBuf {
        fs::canonicalize(self.dir.path()).expect("canonical")
    }

    fn project(&self) -> PathBuf {
        self.home().join("shop")
    }

    fn memory(&self) -> PathBuf {
        let slug: String = self
            .project()
            .to_str()
            .expect("utf-8")
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        self.home()
            .join("claude/projects")
            .join(slug)
            .join("memory")
    }

    fn state(&self) -> PathBuf {
        self.home().join("state")
    }

    fn config(&self) -> PathBuf {
        self.home().join("memwb.toml")
    }

    /// `memwb ARGS` started with piped stdio, in the project, nothing inherited but PATH.
    fn spawn(&self, args: &[&str], env: &[(&str, &str)]) -> std::process::Child {
        Command::new(env!("CARGO_BIN_EXE_memwb"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home())
            .env("CLAUDE_CONFIG_DIR", self.home().join("claude"))
            .env("MEMWB_STATE_DIR", self.state())
            .env("MEMWB_CONFIG", self.config())
            .envs(env.iter().copied())
            .current_dir(self.project())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn memwb")
    }

    /// `memwb ARGS` with stdin, in the project, nothing inherited but PATH.
    fn memwb(&self, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
        let mut child = self.spawn(args, env);
        // A memwb that refuses its command line exits without reading its input: the write
        // then races the exit and may see a closed pipe, which is not the test's concern.
        if let Err(e) = child.stdin.take().expect("stdin").write_all(stdin)
            && e.kind() != std::io::ErrorKind::BrokenPipe
        {
            panic!("stdin: {e}");
        }
        child.wait_with_output().expect("memwb runs")
    }

    /// The hook's stdout for `input`: it always exits 0 and prints nothing on stderr.
    fn hook(&self, input: &Value, env: &[(&str, &str)]) -> String {
        self.hook_bytes(&serde_json::to_vec(input).expect("json"), env)
    }

    fn hook_bytes(&self, input: &[u8], env: &[(&str, &str)]) -> String {
        let out = self.memwb(&["hook", "claude"], input, env);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
        assert_eq!(stderr, "", "a hook prints nothing on stderr");
        String::from_utf8(out.stdout).expect("utf-8")
    }

    /// A recorded input: the common fields of Claude Code 2.1's hook input around `fields`.
    fn input(&self, event: &str, tool: &str, tool_input: Value, id: &str) -> Value {
        json!({
            "session_id": "0b6f2c1e-5d0a-4c9b-9f3e-2a7d8c1b4e60",
            "transcript_path": self.home().join("claude/projects/x/0b6f2c1e.jsonl"),
            "cwd": self.project(),
            "permission_mode": "default",
            "hook_event_name": event,
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": id,
        })
    }

    /// Every file under the memory folder with its bytes.
    fn tree(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        for entry in walkdir(&self.memory()) {
            files.insert(
                entry
                    .strip_prefix(self.memory())
                    .expect("inside")
                    .to_owned(),
                fs::read(&entry).expect("read"),
            );
        }
        files
    }

    /// The memory folder, with memwb's state where the hook keeps it.
    fn folder(&self) -> memwb::claude::ClaudeFolder {
        memwb::claude::ClaudeFolder::open(&self.memory(), Default::default())
            .expect("open")
            .with_state_root(self.state())
    }

    /// Every line of every hook.log under the state directory but the decisions' (the hook
    /// logs each decision it prints).
    fn log(&self) -> String {
        let mut text = String::new();
        for file in walkdir(&self.state()) {
            if file.file_name().is_some_and(|n| n == "hook.log") {
                let log = fs::read_to_string(&file).expect("log");
                for line in log.lines().filter(|l| !l.contains(" decision: ")) {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
        text
    }
}

fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(walkdir(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn deny(reason: &str) -> String {
    format!(
        "{}\n",
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": reason}})
    )
}

/// The proposal id in a queued-change denial.
fn queued_id(stdout: &str) -> String {
    let value: Value = serde_json::from_str(stdout).expect("json");
    let reason = value["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .expect("reason");
    let id = reason
        .split(" as proposal ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .expect("an id");
    id.to_owned()
}
