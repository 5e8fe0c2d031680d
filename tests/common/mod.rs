//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod chat_server;
pub mod claude;
// These run the `memwb` binary, which exists only with the `cli` feature.
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod formats;
pub mod scripted;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use memwb::store::{FaultHook, IoOp, MemoryType, Record, Store, StoreOptions};

/// Skips the calling test (the caller returns) with its reason printed past the harness's
/// output capture, so that a plain `cargo test` shows it. With `MEMWB_REQUIRE_ALL=1`, as
/// `.ci/run` sets, a skip fails the test instead.
pub fn skip(reason: &str) {
    use std::io::Write;
    assert!(
        std::env::var_os("MEMWB_REQUIRE_ALL").is_none_or(|v| v != "1"),
        "MEMWB_REQUIRE_ALL=1, but this test would skip: {reason}"
    );
    let _ = writeln!(std::io::stderr(), "skipping: {reason}");
}

/// The name the test harness knows a test of this binary by (its module path without the
/// binary's crate name), to run that one test again in a child process with `--exact`:
/// `libtest_name(module_path!(), "a_test")`.
pub fn libtest_name(module_path: &str, test: &str) -> String {
    match module_path.split_once("::") {
        Some((_crate, module)) => format!("{module}::{test}"),
        None => test.to_owned(),
    }
}

pub fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path)
}

/// A fresh workspace in a temporary directory.
pub fn workspace() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// A copy of a fixture store (e.g. `stores/basic`) in a fresh workspace.
pub fn copy_fixture_store(name: &str) -> tempfile::TempDir {
    let dir = workspace();
    let from = fixture(name).join(".memory");
    let to = dir.path().join(".memory");
    std::fs::create_dir(&to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("fixture") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
    dir
}

pub fn open(dir: &Path) -> Store {
    Store::open(dir, StoreOptions::default()).expect("open")
}

pub fn record(name: &str, description: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, description, body).expect("valid record")
}

pub fn names(store: &Store) -> Vec<String> {
    store
        .records()
        .expect("readable")
        .iter()
        .map(|r| r.name().to_owned())
        .collect()
}

/// Every file directly in `.memory` (not memwb's `.memwb/` folder), sorted, with its bytes:
/// to assert that the set's files did not change.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let root = dir.join(".memory");
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .map(|e| e.expect("entry"))
        .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
        .map(|e| {
            (
                e.file_name().into_string().expect("utf-8"),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    files.sort();
    files
}

pub fn open_with(dir: &Path, options: StoreOptions) -> Store {
    Store::open(dir, options).expect("open")
}

pub fn typed(name: &str, kind: MemoryType, description: &str, body: &str) -> Record {
    Record::new(name, kind, description, body).expect("valid record")
}

/// An id source that hands out the given ids in order, then fresh UUIDs.
pub fn ids(list: &[&str]) -> memwb::store::IdSource {
    let queue = std::sync::Mutex::new(
        list.iter()
            .map(|s| s.to_string())
            .collect::<std::collections::VecDeque<_>>(),
    );
    std::sync::Arc::new(move || {
        queue
            .lock()
            .expect("id queue")
            .pop_front()
            .unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string())
    })
}

/// Names of the entries of `.memory` that are neither files nor the lock (should be none).
pub fn lock_held(dir: &Path) -> bool {
    dir.join(".memory/.lock").exists()
}

/// Fails the `n`-th step (0-based) that passes through the hooks, and records every step.
#[derive(Default)]
pub struct FailAt {
    pub n: usize,
    pub seen: std::sync::Mutex<Vec<(IoOp, PathBuf)>>,
}

impl FailAt {
    pub fn new(n: usize) -> std::sync::Arc<Self> {
        std::sync::Arc::new(Self {
            n,
            ..Self::default()
        })
    }

    pub fn steps(&self) -> Vec<(IoOp, PathBuf)> {
        self.seen.lock().expect("steps").clone()
    }

    /// The step that failed, if the run got that far.
    pub fn failed(&self) -> Option<(IoOp, PathBuf)> {
        self.steps().get(self.n).cloned()
    }
}

impl FaultHook for FailAt {
    fn before(&self, op: IoOp, path: &Path) -> std::io::Result<()> {
        let mut seen = self.seen.lock().expect("steps");
        seen.push((op, path.to_owned()));
        if seen.len() - 1 == self.n {
            return Err(std::io::Error::other(format!(
                "injected failure at step {} ({op:?})",
                self.n
            )));
        }
        Ok(())
    }
}

/// A short description of how two snapshots differ (names only), for assertion messages.
pub fn snapshot_diff(before: &[(String, Vec<u8>)], after: &[(String, Vec<u8>)]) -> String {
    let mut out = Vec::new();
    for (name, bytes) in after {
        match before.iter().find(|(n, _)| n == name) {
            None => out.push(format!("+{name}")),
            Some((_, old)) if old != bytes => out.push(format!("~{name}")),
            Some(_) => {}
        }
    }
    for (name, _) in before {
        if !after.iter().any(|(n, _)| n == name) {
            out.push(format!("-{name}"));
        }
    }
    out.join(" ")
}

/// Asserts that the folder is byte for byte `before`, naming the differing files if not.
#[track_caller]
pub fn assert_unchanged(dir: &Path, before: &[(String, Vec<u8>)], context: &str) {
    let after = snapshot(dir);
    assert!(
        after == before,
        "{context}: the folder changed: {}",
        snapshot_diff(before, &after)
    );
}

/// Copies a directory tree (files and folders only), for fixtures such as `fixtures/claude`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read fixture") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The Claude Code fixture's project memory folder, relative to a home made by `claude_home`.
pub const CLAUDE_MEMORY: &str = "config/projects/-home-dev-shop/memory";

/// A PID above Linux's largest `pid_max`, so no process has it: a consolidation lock naming
/// it says no consolidation is running.
pub const DEAD_PID: &str = "4194305";

/// A temporary home holding a copy of tests/fixtures/claude's `config/` (a Claude Code
/// configuration folder with its projects' memory); the shop folder (`CLAUDE_MEMORY`) has no
/// consolidation running.
pub fn claude_home() -> tempfile::TempDir {
    let home = workspace();
    copy_dir(&fixture("claude/config"), &home.path().join("config"));
    std::fs::write(
        home.path().join(CLAUDE_MEMORY).join(".consolidate-lock"),
        DEAD_PID,
    )
    .expect("lock");
    home
}

/// A copy of the Claude Code fixture folder (tests/fixtures/claude's project memory) at
/// `dir/memory`, with no consolidation running; its real path.
pub fn claude_memory_copy(dir: &Path) -> PathBuf {
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claude/config/projects/-home-dev-shop/memory"),
        &dir.join("memory"),
    );
    std::fs::write(dir.join("memory/.consolidate-lock"), DEAD_PID).expect("lock");
    dir.join("memory").canonicalize().expect("real path")
}

/// Every regular file under `dir` (recursively), by its path relative to `dir`, with its
/// bytes: to assert that a folder did not change, or which of its files did.
pub fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).min_depth(1) {
        let entry = entry.expect("walk");
        if entry.file_type().is_file() {
            let name = entry
                .path()
                .strip_prefix(dir)
                .expect("inside")
                .display()
                .to_string();
            out.insert(name, std::fs::read(entry.path()).expect("read"));
        }
    }
    out
}

/// Copies the directory `from` into `to` (created), files with their permissions and
/// directories with theirs; anything else (a link, a FIFO) is a test's mistake.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        let kind = entry.file_type();
        if kind.is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).expect("copy");
        } else {
            panic!("not a file or directory: {}", entry.path().display());
        }
    }
    // Directories last: one made read-only would refuse what is copied into it.
    for entry in walkdir::WalkDir::new(from).contents_first(true) {
        let entry = entry.expect("walk");
        if entry.file_type().is_dir() {
            let target = to.join(entry.path().strip_prefix(from).expect("inside"));
            let permissions = entry.metadata().expect("metadata").permissions();
            std::fs::set_permissions(&target, permissions).expect("permissions");
        }
    }
}

/// Removes everything inside `dir`, keeping `dir` itself.
pub fn empty_dir(dir: &Path) {
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() && !path.is_symlink() {
            std::fs::remove_dir_all(&path).expect("remove dir");
        } else {
            std::fs::remove_file(&path).expect("remove file");
        }
    }
}

/// Runs `command` on a pseudo-terminal (so its stderr is a terminal) and returns what it
/// printed, once the output contains `until`, or after 30 s without new output; the process is
/// then ended.
pub fn on_terminal_until(command: portable_pty::CommandBuilder, until: &str) -> String {
    use std::io::Read;
    let pair = portable_pty::native_pty_system()
        .openpty(portable_pty::PtySize {
            rows: 24,
            cols: 200,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("openpty");
    let mut child = pair.slave.spawn_command(command).expect("spawn");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("reader");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
            let _ = tx.send(String::from_utf8_lossy(&all).into_owned());
        }
    });
    let mut seen = String::new();
    while !seen.contains(until) {
        match rx.recv_timeout(std::time::Duration::from_secs(30)) {
            Ok(text) => seen = text,
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    seen
}
