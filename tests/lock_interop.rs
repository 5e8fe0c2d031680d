//! Interoperability with the real npm `proper-lockfile` (4.1.2), driven by
//! `tests/interop/lock.js` with the reference's options. `.ci/run` installs the package
//! (`npm ci --prefix tests/interop`); without `node`, or before that install, these tests print
//! why they skip, and fail instead with `MEMWB_REQUIRE_ALL=1` (which `.ci/run` sets).

use crate::common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use common::*;
use memwb::store::lock::StoreLock;
use memwb::store::{LockTiming, StoreError, StoreOptions};

fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

/// The interop script, or `None` (with the reason printed) when it cannot run here.
fn node() -> Option<PathBuf> {
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => {}
        _ => {
            skip(
                "`node` is not installed (install nodejs to run the proper-lockfile interop tests)",
            );
            return None;
        }
    }
    let dir = interop_dir();
    if !dir
        .join("node_modules/proper-lockfile/package.json")
        .is_file()
    {
        skip("run `npm ci --prefix tests/interop` to install proper-lockfile (.ci/run does)");
        return None;
    }
    Some(dir.join("lock.js"))
}

struct NodeLock {
    child: Child,
    out: BufReader<ChildStdout>,
}

impl NodeLock {
    fn spawn(script: &Path, args: &[&str]) -> Self {
        let mut child = Command::new("node")
            .arg(script)
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn node");
        let out = BufReader::new(child.stdout.take().expect("stdout"));
        Self { child, out }
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        self.out.read_line(&mut line).expect("read node output");
        line.trim_end().to_owned()
    }

    fn finish(mut self) -> (String, i32) {
        let rest = self.line();
        let status = self.child.wait().expect("wait node");
        (rest, status.code().unwrap_or(-1))
    }
}

impl Drop for NodeLock {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn node_try(script: &Path, ws: &Path) -> String {
    let out = Command::new("node")
        .arg(script)
        .arg("try")
        .arg(ws)
        .output()
        .expect("node try");
    assert!(
        out.status.success(),
        "node try failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn set_mtime_ago(dir: &Path, ago: Duration) {
    let old = SystemTime::now() - ago;
    std::fs::File::open(dir)
        .expect("open lock dir")
        .set_times(
            std::fs::FileTimes::new()
                .set_accessed(old)
                .set_modified(old),
        )
        .expect("set mtime");
}

#[test]
fn memwb_waits_for_a_node_holder_then_commits() {
    let Some(script) = node() else { return };
    let dir = copy_fixture_store("stores/basic");
    let ws = dir.path().to_str().expect("utf-8 path");
    let mut holder = NodeLock::spawn(&script, &["hold", ws, "1000"]);
    assert_eq!(holder.line(), "locked");
    let seen_locked = Instant::now();
    assert!(lock_held(dir.path()), "proper-lockfile made .memory/.lock");
    let store = open(dir.path());
    store
        .extend(vec![record("after-node", "d", "b")])
        .expect("commit after node released");
    let waited = seen_locked.elapsed();
    assert!(
        waited >= Duration::from_millis(700),
        "did not wait for node's lock: {waited:?}"
    );
    let (released, code) = holder.finish();
    assert_eq!(
        (released.as_str(), code),
        ("released", 0),
        "node's lock was disturbed"
    );
    assert!(names(&store).contains(&"after-node".to_owned()));
    assert!(!lock_held(dir.path()));
}

#[test]
fn node_gets_elocked_while_memwb_holds_the_lock() {
    let Some(script) = node() else { return };
    let dir = copy_fixture_store("stores/basic");
    let store = open(dir.path());
    let held = StoreLock::acquire(store.root(), LockTiming::default()).expect("lock");
    assert_eq!(node_try(&script, dir.path()), "ELOCKED");
    assert!(lock_held(dir.path()), "node must not break a fresh lock");
    held.verify().expect("still ours");
    drop(held);
    assert!(!lock_held(dir.path()));
    assert_eq!(node_try(&script, dir.path()), "acquired");
    assert!(!lock_held(dir.path()));
}

#[test]
fn memwb_refreshes_its_lock_so_node_never_sees_it_stale() {
    let Some(script) = node() else { return };
    let dir = copy_fixture_store("stores/basic");
    let store = open(dir.path());
    let timing = LockTiming {
        update: Duration::from_millis(200),
        ..LockTiming::default()
    };
    let held = StoreLock::acquire(store.root(), timing).expect("lock");
    let lock_dir = store.root().join(".lock");
    let first = std::fs::metadata(&lock_dir)
        .and_then(|m| m.modified())
        .expect("mtime");
    // Ages the lock on purpose: more than three refresh periods pass, so an mtime that did
    // not move means the refresh thread did not run.
    thread::sleep(Duration::from_millis(700));
    let later = std::fs::metadata(&lock_dir)
        .and_then(|m| m.modified())
        .expect("mtime");
    assert!(later > first, "mtime was not refreshed");
    assert_eq!(node_try(&script, dir.path()), "ELOCKED");
    held.verify().expect("still ours after refreshes");
}

#[test]
fn memwb_breaks_a_stale_lock_left_by_a_killed_node_process() {
    let Some(script) = node() else { return };
    let dir = copy_fixture_store("stores/basic");
    let ws = dir.path().to_str().expect("utf-8 path");
    let mut holder = NodeLock::spawn(&script, &["hang", ws]);
    assert_eq!(holder.line(), "locked");
    holder.child.kill().expect("SIGKILL node");
    holder.child.wait().expect("reap");
    let lock_dir = dir.path().join(".memory/.lock");
    assert!(lock_dir.is_dir(), "a SIGKILLed node leaves its lock behind");
    // Not yet stale: memwb waits (and gives up after its timeout) without touching it.
    let impatient = open_with(
        dir.path(),
        StoreOptions {
            lock: LockTiming {
                timeout: Duration::from_millis(200),
                ..LockTiming::default()
            },
            ..StoreOptions::default()
        },
    );
    let err = impatient
        .extend(vec![record("too-early", "d", "b")])
        .expect_err("fresh lock");
    assert!(matches!(err, StoreError::LockTimeout { .. }), "{err}");
    assert!(lock_dir.is_dir());
    // Thirty seconds later (simulated): broken and taken at once.
    set_mtime_ago(&lock_dir, Duration::from_secs(31));
    let started = Instant::now();
    open(dir.path())
        .extend(vec![record("after-crash", "d", "b")])
        .expect("stale lock broken");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(names(&open(dir.path())).contains(&"after-crash".to_owned()));
    assert!(!lock_dir.exists());
}

#[test]
fn node_breaks_a_stale_lock_left_by_memwb() {
    let Some(script) = node() else { return };
    let dir = copy_fixture_store("stores/basic");
    let lock_dir = dir.path().join(".memory/.lock");
    // What a killed memwb leaves: the empty directory, no longer refreshed.
    std::fs::create_dir(&lock_dir).expect("lock dir");
    set_mtime_ago(&lock_dir, Duration::from_secs(29));
    assert_eq!(
        node_try(&script, dir.path()),
        "ELOCKED",
        "29 s old is still fresh"
    );
    set_mtime_ago(&lock_dir, Duration::from_secs(31));
    assert_eq!(node_try(&script, dir.path()), "acquired");
    assert!(!lock_dir.exists());
}

#[test]
fn node_and_memwb_writers_interleave_without_losing_anything() {
    let Some(script) = node() else { return };
    let dir = copy_fixture_store("stores/basic");
    let ws = dir.path().to_str().expect("utf-8 path").to_owned();
    // Node repeatedly takes the lock for short spells while memwb commits ten records.
    let script2 = script.clone();
    let node_side = thread::spawn(move || {
        for _ in 0..5 {
            let mut holder = NodeLock::spawn(&script2, &["hold", &ws, "50"]);
            let first = holder.line();
            let (last, code) = holder.finish();
            assert_eq!(
                (first.as_str(), last.as_str(), code),
                ("locked", "released", 0)
            );
        }
    });
    let store = open(dir.path());
    for i in 0..10 {
        store
            .extend(vec![record(&format!("interleaved-{i}"), "d", "b")])
            .expect("extend");
    }
    node_side.join().expect("node side");
    assert_eq!(names(&store).len(), 16);
    assert!(open(dir.path()).inspect().findings().is_empty());
}

/// Runs one interop test of this very binary with no `node` on `PATH`.
fn without_node(require_all: bool) -> std::process::Output {
    let empty = workspace();
    let mut command = Command::new(std::env::current_exe().expect("this test binary"));
    command
        .arg(common::libtest_name(
            module_path!(),
            "node_gets_elocked_while_memwb_holds_the_lock",
        ))
        .arg("--exact")
        .env("PATH", empty.path())
        .env_remove("MEMWB_REQUIRE_ALL");
    if require_all {
        command.env("MEMWB_REQUIRE_ALL", "1");
    }
    command.output().expect("run the test binary")
}

#[test]
fn without_node_a_plain_run_prints_the_skip_and_a_required_run_fails() {
    let plain = without_node(false);
    let stderr = String::from_utf8_lossy(&plain.stderr);
    assert!(plain.status.success(), "{stderr}");
    assert!(
        stderr.contains("skipping: `node` is not installed"),
        "the skip is visible: {stderr}"
    );
    let required = without_node(true);
    let stdout = String::from_utf8_lossy(&required.stdout);
    assert!(
        !required.status.success(),
        "a required skip fails: {stdout}"
    );
    assert!(
        stdout.contains("MEMWB_REQUIRE_ALL=1, but this test would skip"),
        "{stdout}"
    );
}
