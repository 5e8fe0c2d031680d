//! The review gate on Claude Code folders from the command line: proposals filed into the
//! folder's state directory (MEMWB_STATE_DIR, a temporary directory in every test), listed,
//! approved into topic files and MEMORY.md lines, rejected, refused when stale; dedupe and
//! consolidate across topic files; `copy --from` in both directions. After every test the
//! folder holds nothing but topic files and MEMORY.md.

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::tree;
use serde_json::{Value, json};

mod copy;
mod dedupe;
mod proposals;

const INDEX: &str = "# Memory Index

## User
- [user_role](user_role.md) — Dana leads the storefront team

## Feedback
- [tabs_indent](feedback_tabs.md) — User prefers tabs for indentation
- [indent_tabs](feedback_indent.md) — Indentation with tabs preferred by user

Free text the agent wrote stays.
";

const USER_ROLE: &str = "---
name: user_role
description: \"Dana leads the storefront team\"
metadata: 
  node_type: memory
  type: user
  originSessionId: 7d0c2b9e-41a6-4f53-8e2d-6b1f0c9a3e57
  modified: 2026-09-14T08:21:07.512Z
---

Dana leads the storefront team and decides on the data model.
";

const TABS: &str = "---
name: tabs_indent
description: User prefers tabs for indentation
type: feedback
---

Use tabs.
";

const INDENT: &str = "---
name: indent_tabs
description: Indentation with tabs preferred by user
type: feedback
---

Tabs, not spaces.

Use tabs.
";

/// A Claude Code folder and a state directory, both temporary.
struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Self {
        let env = Self {
            dir: tempfile::tempdir().expect("temp dir"),
        };
        fs::create_dir_all(env.memory()).expect("mkdir");
        fs::create_dir_all(env.state()).expect("mkdir");
        for (file, text) in [
            ("MEMORY.md", INDEX),
            ("user_role.md", USER_ROLE),
            ("feedback_tabs.md", TABS),
            ("feedback_indent.md", INDENT),
        ] {
            fs::write(env.memory().join(file), text).expect("write");
        }
        env
    }

    fn memory(&self) -> PathBuf {
        self.dir.path().join("memory")
    }

    fn state(&self) -> PathBuf {
        self.dir.path().join("state")
    }

    /// `memwb --memory-dir <memory> ARGS` with HOME and MEMWB_STATE_DIR in the temp dir.
    fn run(&self, args: &[&str]) -> Output {
        self.run_on(&self.memory(), args)
    }

    fn run_on(&self, folder: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_memwb"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.path())
            .env("MEMWB_STATE_DIR", self.state())
            .current_dir(self.dir.path())
            .arg("--memory-dir")
            .arg(folder)
            .args(args)
            .output()
            .expect("run memwb")
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "memwb {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    }

    /// The id a `propose` or `copy` printed on its last line.
    fn proposed(&self, args: &[&str]) -> String {
        let out = self.ok(args);
        let id = out.lines().last().expect("an id").to_owned();
        assert!(
            id.len() == 12 && id.bytes().all(|b| b.is_ascii_hexdigit()),
            "{out}"
        );
        id
    }

    fn read(&self, file: &str) -> String {
        fs::read_to_string(self.memory().join(file)).expect("read")
    }

    fn proposals(&self, extra: &[&str]) -> Vec<Value> {
        let mut args = vec!["proposals", "--json"];
        args.extend_from_slice(extra);
        serde_json::from_str(&self.ok(&args)).expect("json")
    }

    fn reply(&self, value: &Value) -> String {
        let path = self.dir.path().join("reply.json");
        fs::write(&path, value.to_string()).expect("write reply");
        path.display().to_string()
    }
}

impl Drop for Env {
    /// Whatever a test did, only topic files and MEMORY.md are in the folder: memwb's own
    /// files live in the state directory.
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        self.assert_only_memories();
    }
}

impl Env {
    fn assert_only_memories(&self) {
        for file in tree(&self.memory()).keys() {
            assert!(
                file.ends_with(".md"),
                "{file} appeared in the Claude Code folder"
            );
        }
    }
}

/// A folder with its dedupe proposal filed, and a copy of the folder and the state directory
/// as they were then: each step of a sweep starts from those bytes, at the same paths (the
/// state directory's name comes from the folder's path), without running `propose` again.
struct Filed {
    env: Env,
    id: String,
}

impl Filed {
    const PARTS: [&str; 2] = ["memory", "state"];

    fn dedupe() -> Self {
        let env = Env::new();
        let id = env.proposed(&["propose", "dedupe"]);
        for part in Self::PARTS {
            common::copy_dir(
                &env.dir.path().join(part),
                &env.dir.path().join("filed").join(part),
            );
        }
        Self { env, id }
    }

    /// The folder and the state directory back as they were right after the filing; what the
    /// last step left in the folder is checked first, as a dropped `Env` checks it.
    fn reset(&self) {
        self.env.assert_only_memories();
        for part in Self::PARTS {
            let live = self.env.dir.path().join(part);
            fs::remove_dir_all(&live).expect("remove");
            common::copy_dir(&self.env.dir.path().join("filed").join(part), &live);
        }
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn record(name: &str, kind: &str, description: &str, body: &str) -> Value {
    json!({"name": name, "type": kind, "description": description, "body": body})
}

/// The entries of the folder's journal, failing on any damaged or unmarked line.
fn journal_entries(env: &Env) -> Vec<memwb::review::Entry> {
    let folder = memwb::claude::ClaudeFolder::open(&env.memory(), Default::default())
        .expect("open")
        .with_state_root(env.state());
    let scan = memwb::formats::claude::journal::journal_of(&folder)
        .expect("journal")
        .scan()
        .expect("scan");
    assert!(scan.damaged.is_empty(), "{:?}", scan.damaged);
    assert!(
        scan.pending.is_none(),
        "an unmarked intent: {:?}",
        scan.pending
    );
    scan.entries
}
