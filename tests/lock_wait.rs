//! A writer waiting for a lock another process holds says so after a second, on stderr, only
//! when stderr is a terminal: `waiting for the lock on .memory (held since 12:03:04, 2 s ago)...`.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use memwb::store::{LockTiming, LockWait, Store, StoreOptions};
use portable_pty::CommandBuilder;

/// A `.lock` held by "another process": a fresh directory (not stale for 30 s).
fn hold_lock(dir: &Path) {
    std::fs::create_dir_all(dir.join(".memory/.lock")).expect("lock");
}

const ADD: [&str; 11] = [
    "--lock-timeout",
    "3",
    "add",
    "--name",
    "blocked",
    "--type",
    "user",
    "--description",
    "d",
    "--body",
    "b",
];

#[test]
fn a_waiting_writer_says_who_holds_the_lock_on_a_terminal() {
    let dir = tempfile::tempdir().expect("dir");
    hold_lock(dir.path());
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_memwb"));
    cmd.arg("-C");
    cmd.arg(dir.path());
    cmd.args(ADD);
    let seen = common::on_terminal_until(cmd, "gave up");
    let notice = seen
        .lines()
        .find(|l| l.starts_with("waiting for the lock on .memory (held since "))
        .unwrap_or_else(|| panic!("no notice in {seen:?}"));
    // "(held since HH:MM:SS, N s ago)..."
    let rest = &notice["waiting for the lock on .memory (held since ".len()..];
    let (clock, ago) = rest.split_once(", ").expect("clock, ago");
    assert_eq!(clock.len(), 8, "{notice}");
    assert!(clock.chars().filter(|c| *c == ':').count() == 2, "{notice}");
    assert!(
        ago.ends_with(" s ago)...\r") || ago.ends_with(" s ago)..."),
        "{notice:?}"
    );
    assert_eq!(
        seen.matches("waiting for the lock").count(),
        1,
        "said once: {seen}"
    );
}

#[test]
fn a_waiting_writer_is_quiet_when_stderr_is_not_a_terminal() {
    let dir = tempfile::tempdir().expect("dir");
    hold_lock(dir.path());
    let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .arg("-C")
        .arg(dir.path())
        .args(ADD)
        .stdin(Stdio::null())
        .output()
        .expect("memwb runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("gave up"), "{err}");
    assert!(!err.contains("waiting for the lock"), "{err}");
}

#[test]
fn the_wait_notice_comes_once_after_a_second_with_the_holders_time() {
    let dir = tempfile::tempdir().expect("dir");
    hold_lock(dir.path());
    let held =
        memwb::store::lock::observe(&dir.path().join(".memory"), LockTiming::default().stale);
    let memwb::store::LockState::Held { mtime_ms } = held else {
        panic!("{held:?}");
    };
    let seen: Arc<Mutex<Vec<LockWait>>> = Arc::default();
    let noted = seen.clone();
    let store = Store::open(
        dir.path(),
        StoreOptions {
            lock: LockTiming {
                timeout: Duration::from_millis(1500),
                ..LockTiming::default()
            },
            on_lock_wait: Some(Arc::new(move |wait| noted.lock().unwrap().push(wait))),
            ..StoreOptions::default()
        },
    )
    .expect("open");
    let err = store.lock_for_write().err().expect("the lock is held");
    assert!(err.to_string().contains("gave up"), "{err}");
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].held_since_ms, mtime_ms);
    assert!(seen[0].waited >= Duration::from_secs(1), "{seen:?}");
}
