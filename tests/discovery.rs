//! Discovery by shape (issue 25): `memwb sets ROOT` and `check --all ROOT` find every memory
//! folder of a synthetic tree holding each shape real repositories commit (`memory/`,
//! `claude-memory/` without MEMORY.md, `.claude/memory/`, `docs/memory/`, subagent groups
//! under `.claude` and elsewhere, a `.memory` set, folders moved by `autoMemoryDirectory` in a
//! project's and in the user's settings), and nothing in `node_modules`, `.git` or `target`,
//! in documentation, or twice through a symbolic link loop.

use crate::common;

use std::collections::BTreeSet;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use memwb::folder::sets::{ScanBounds, discover_within};
use serde_json::Value;

const TOPIC: &str = "---\nname: role\ndescription: what the user does\ntype: user\n---\n\nBody.\n";
const NESTED_TYPE: &str =
    "---\nname: deploy\ndescription: how deploys run\nmetadata:\n  type: project\n---\n\nBody.\n";

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

struct Tree {
    home: tempfile::TempDir,
    root: PathBuf,
    /// Every folder `sets` must find, resolved.
    expected: BTreeSet<PathBuf>,
}

/// A memory folder at `dir` with a MEMORY.md and one topic file.
fn claude_folder(dir: &Path) {
    write(
        &dir.join("MEMORY.md"),
        "# Memory Index\n- [role](user_role.md) — what the user does\n",
    );
    write(&dir.join("user_role.md"), TOPIC);
}

fn tree() -> Tree {
    let home = tempfile::tempdir().expect("home");
    let root = home.path().join("src");
    let mut expected = Vec::new();
    let mut found = |dir: PathBuf| expected.push(dir);

    // A .memory set, made before any Claude Code folder exists for `add` to fall back to.
    fs::create_dir_all(root.join("svc")).expect("mkdir");
    let home_dir = home.path().to_str().expect("utf-8 path");
    let out = common::cli::memwb_with(
        &root.join("svc"),
        &common::cli::add_args("release", "release freeze", "Freeze on Fridays."),
        "",
        &[("HOME", home_dir)],
    );
    assert!(out.status.success(), "{}", common::cli::stderr(&out));
    found(root.join("svc/.memory"));

    claude_folder(&root.join("app/memory"));
    found(root.join("app/memory"));
    // A topic subfolder belongs to its set; one with its own MEMORY.md is a set of its own.
    write(&root.join("app/memory/notes/user_more.md"), TOPIC);
    claude_folder(&root.join("app/memory/nested"));
    found(root.join("app/memory/nested"));

    write(&root.join("web/claude-memory/user_role.md"), TOPIC);
    found(root.join("web/claude-memory"));
    claude_folder(&root.join("api/.claude/memory"));
    found(root.join("api/.claude/memory"));
    write(&root.join("lib/docs/memory/deploy.md"), NESTED_TYPE);
    found(root.join("lib/docs/memory"));

    // Subagent groups: each subagent folder is a set, the group never is.
    for agent in ["reviewer", "planner"] {
        claude_folder(&root.join(format!("api/.claude/agent-memory/{agent}")));
        found(root.join(format!("api/.claude/agent-memory/{agent}")));
    }
    fs::create_dir_all(root.join("api/.claude/agent-memory-local/fresh")).expect("mkdir");
    found(root.join("api/.claude/agent-memory-local/fresh"));
    claude_folder(&root.join("tools/agent-memory/tester"));
    found(root.join("tools/agent-memory/tester"));
    fs::create_dir_all(root.join("tools/agent-memory/not-memory")).expect("mkdir");

    // Moved by autoMemoryDirectory: in a project's settings, and in the user's.
    let moved = home.path().join("elsewhere/project-memory");
    claude_folder(&moved);
    found(moved.clone());
    write(
        &root.join("moved/.claude/settings.json"),
        &format!("{{\"autoMemoryDirectory\": \"{}\"}}", moved.display()),
    );
    let user_moved = home.path().join("elsewhere/user-memory");
    write(&user_moved.join("feedback_x.md"), TOPIC);
    found(user_moved);
    write(
        &home.path().join(".claude/settings.json"),
        "{\"autoMemoryDirectory\": \"~/elsewhere/user-memory\"}",
    );
    // The default folder of a project, under the config folder.
    claude_folder(&home.path().join(".claude/projects/-home-dev-shop/memory"));
    found(home.path().join(".claude/projects/-home-dev-shop/memory"));

    // Never: dependencies, version control, build output, documentation.
    claude_folder(&root.join("app/node_modules/pkg/memory"));
    claude_folder(&root.join("app/.git/memory"));
    claude_folder(&root.join("app/target/debug/memory"));
    write(&root.join("app/docs/README.md"), "# Docs\n");
    write(
        &root.join("app/docs/guide.md"),
        "---\ntitle: Guide\n---\n\nText.\n",
    );
    // A loop through a link, and a link to a set: neither is followed.
    symlink(&root, root.join("app/loop")).expect("symlink");
    symlink(root.join("web/claude-memory"), root.join("lib/alias")).expect("symlink");

    let expected = expected
        .into_iter()
        .map(|p| fs::canonicalize(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .collect();
    Tree {
        home,
        root,
        expected,
    }
}

impl Tree {
    fn memwb(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_memwb"))
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("MEMWB_STATE_DIR", self.home.path().join("state"))
            .current_dir(self.home.path())
            .args(args)
            .output()
            .expect("memwb runs")
    }

    fn root(&self) -> &str {
        self.root.to_str().expect("utf-8 path")
    }
}

fn paths(rows: &[Value], key: &str) -> BTreeSet<PathBuf> {
    rows.iter()
        .map(|r| PathBuf::from(r[key].as_str().expect("path")))
        .collect()
}

#[test]
fn sets_finds_every_shape_and_nothing_else() {
    let tree = tree();
    let out = tree.memwb(&["sets", tree.root(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(paths(&rows, "path"), tree.expected);
    assert_eq!(rows.len(), tree.expected.len(), "each folder once");
    let row = |end: &str| {
        rows.iter()
            .find(|r| r["path"].as_str().is_some_and(|p| p.ends_with(end)))
            .expect("row")
    };
    assert_eq!(row("src/svc/.memory")["format"], "memory");
    // A folder without MEMORY.md says so; it has no index use to report.
    assert_eq!(row("web/claude-memory")["index"], Value::Null);
    assert_eq!(row("web/claude-memory")["records"], 1);
    assert_eq!(
        row("app/memory")["records"],
        2,
        "its topic subfolder is its own"
    );

    let text = tree.memwb(&["sets", tree.root()]);
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    let line = text
        .lines()
        .find(|l| l.contains("web/claude-memory"))
        .expect("row");
    assert!(line.contains("no MEMORY.md"), "{line}");
    assert!(!line.contains("index 0/200"), "{line}");
}

#[test]
fn check_all_checks_the_same_folders() {
    let tree = tree();
    let out = tree.memwb(&["check", "--all", tree.root(), "--json"]);
    let reports: Vec<Value> = serde_json::from_slice(&out.stdout).expect("json");
    let folders = paths(&reports, "folder");
    assert_eq!(folders, tree.expected);
}

#[test]
fn the_scan_is_bounded_in_depth_and_in_directories() {
    let tree = tree();
    let deep = tree.root.join("a/b/c/d/e/f/memory");
    claude_folder(&deep);
    let deep = fs::canonicalize(&deep).expect("deep");
    let roots = [tree.root.clone()];
    let found = |bounds: ScanBounds| {
        let found = discover_within(None, &roots, bounds, &mut |_| {});
        let paths: BTreeSet<PathBuf> = found.found.iter().map(|f| f.path.clone()).collect();
        (paths, found.cut_short)
    };
    let (all, cut) = found(ScanBounds::default());
    assert!(all.contains(&deep) && cut.is_none());
    let shallow = ScanBounds {
        max_depth: 4,
        ..ScanBounds::default()
    };
    let (some, _) = found(shallow);
    assert!(!some.contains(&deep), "below the depth bound");
    assert!(some.iter().any(|p| p.ends_with("app/memory")));
    let few = ScanBounds {
        max_dirs: 3,
        max_time: Duration::from_secs(60),
        ..ScanBounds::default()
    };
    let (_, cut) = found(few);
    assert!(
        cut.is_some_and(|why| why.contains("stopped after 3 directories")),
        "the bound is said"
    );
}
