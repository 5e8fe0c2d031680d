//! A writer stalled past the stale time (a suspended laptop, SIGSTOP, a long pause) while
//! another breaks its lock and commits: no acknowledged commit may be lost. The stalled
//! process stops itself at its n-th commit step (`MEMWB_STOP_AT`, the fault-injection feature); the test waits
//! for it to be stopped (waitpid with WUNTRACED, no sleep), ages its lock past the stale limit,
//! runs a second writer to completion, resumes the first and checks the set.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use common::cli::{add, memwb};
use rustix::process::{Pid, Signal, WaitOptions};

const MEMWB: &str = env!("CARGO_BIN_EXE_memwb");

enum Waited {
    Stopped,
    Exited(i32),
}

/// waitpid(2) on our child: `stopped` also returns when it stops.
fn wait_pid(pid: Pid, stopped: bool) -> Waited {
    let flags = if stopped {
        WaitOptions::UNTRACED
    } else {
        WaitOptions::empty()
    };
    let status = loop {
        match rustix::process::waitpid(Some(pid), flags) {
            Ok(Some((_, status))) => break status,
            Ok(None) => continue,
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => panic!("waitpid: {e}"),
        }
    };
    if status.stopped() {
        Waited::Stopped
    } else if let Some(code) = status.exit_status() {
        Waited::Exited(code)
    } else {
        panic!("memwb died of signal {:?}", status.terminating_signal())
    }
}

/// Sets the lock's mtime 31 s back: the stale limit (30 s) has passed for every other writer.
fn age_lock(ws: &Path) {
    let lock = ws.join(".memory/.lock");
    if lock.is_dir() {
        let old = SystemTime::now() - Duration::from_secs(31);
        std::fs::File::open(&lock)
            .expect("open lock")
            .set_times(
                std::fs::FileTimes::new()
                    .set_accessed(old)
                    .set_modified(old),
            )
            .expect("age lock");
    }
}

struct Stalled {
    pid: Pid,
    stderr: tempfile::NamedTempFile,
}

/// Starts `memwb add --name first` with `env` set; `None` if it finished without stopping.
fn start_first(ws: &Path, env: (&str, &str)) -> Option<Stalled> {
    let stderr = tempfile::NamedTempFile::new().expect("temp");
    // Reaped by `wait_pid`, not through `Child`.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(MEMWB)
        .arg("-C")
        .arg(ws)
        .args([
            "add",
            "--name",
            "first",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ])
        .env(env.0, env.1)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr.reopen().expect("reopen"))
        .spawn()
        .expect("spawn");
    let pid = Pid::from_raw(child.id() as i32).expect("a child's pid");
    match wait_pid(pid, true) {
        Waited::Stopped => Some(Stalled { pid, stderr }),
        Waited::Exited(code) => {
            assert_eq!(code, 0, "the unstopped run failed");
            None
        }
    }
}

/// Resumes the stalled writer and waits for it: its exit code and standard error.
fn resume(stalled: Stalled) -> (i32, String) {
    rustix::process::kill_process(stalled.pid, Signal::CONT).expect("SIGCONT");
    let Waited::Exited(code) = wait_pid(stalled.pid, false) else {
        unreachable!("waited without WUNTRACED");
    };
    let err = std::fs::read_to_string(stalled.stderr.path()).expect("stderr");
    (code, err)
}

fn names(ws: &Path) -> Vec<String> {
    common::names(&common::open(ws))
}

#[test]
fn a_writer_stalled_at_any_step_never_overwrites_a_newer_commit() {
    if !cfg!(feature = "fault-injection") {
        common::skip(
            "MEMWB_STOP_AT exists only with the fault-injection feature (cargo test turns it on)",
        );
        return;
    }
    let mut refused = 0;
    for n in 0.. {
        assert!(n < 100, "the writer never ran to its end");
        let ws = common::workspace();
        add(ws.path(), "alpha", "alpha", "a");
        let Some(stalled) = start_first(ws.path(), ("MEMWB_STOP_AT", &n.to_string())) else {
            assert_eq!(names(ws.path()), ["alpha", "first"]);
            break;
        };
        age_lock(ws.path());
        let second = memwb(
            ws.path(),
            &[
                "add",
                "--name",
                "second",
                "--type",
                "user",
                "--description",
                "d",
                "--body",
                "b",
            ],
        );
        assert_eq!(
            second.status.code(),
            Some(0),
            "step {n}: the second writer failed: {}",
            String::from_utf8_lossy(&second.stderr)
        );
        let (code, err) = resume(stalled);
        let now = names(ws.path());
        assert!(
            now.contains(&"second".to_owned()),
            "step {n}: the acknowledged second commit was lost: {now:?} (first said {code}: {err})"
        );
        match code {
            0 => assert!(now.contains(&"first".to_owned()), "step {n}: {now:?}"),
            2 => {
                assert!(err.contains("was compromised"), "step {n}: {err}");
                assert!(!now.contains(&"first".to_owned()), "step {n}: {now:?}");
                refused += 1;
            }
            other => panic!("step {n}: exit {other}: {err}"),
        }
        assert!(!common::lock_held(ws.path()), "step {n}: lock left");
        assert!(
            common::open(ws.path()).inspect().is_readable(),
            "step {n}: the set does not read"
        );
    }
    assert!(refused > 0, "no step stalled the writer before its commit");
}

/// Stalled after its last check and before the commit rename itself (no check can close that
/// window), the writer commits over the other's, but says the commit may conflict, exits 1 and
/// journals it so.
#[test]
fn a_lock_lost_during_the_commit_rename_is_reported_and_journaled() {
    if !cfg!(feature = "fault-injection") {
        common::skip(
            "MEMWB_STOP_AFTER_CHECK exists only with the fault-injection feature (cargo test turns it on)",
        );
        return;
    }
    let ws = common::workspace();
    add(ws.path(), "alpha", "alpha", "a");
    let stalled = start_first(ws.path(), ("MEMWB_STOP_AFTER_CHECK", "1"))
        .expect("stops before the commit rename");
    age_lock(ws.path());
    let second = memwb(
        ws.path(),
        &[
            "add",
            "--name",
            "second",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
    );
    assert_eq!(second.status.code(), Some(0));
    let (code, err) = resume(stalled);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("warning: written, but possibly conflicting"),
        "{err}"
    );
    assert!(names(ws.path()).contains(&"first".to_owned()));
    let log =
        std::fs::read_to_string(ws.path().join(".memory/.memwb/journal.jsonl")).expect("journal");
    // The committed entry (an intent marked committed) for "first".
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let committed: Vec<u64> = lines
        .iter()
        .filter_map(|l| l["committed"].as_u64())
        .collect();
    let first = lines
        .iter()
        .map(|l| &l["intent"]["entry"])
        .find(|e| {
            e["after"][0]["name"] == "first"
                && e["id"].as_u64().is_some_and(|id| committed.contains(&id))
                && !e["conflict"].is_null()
        })
        .unwrap_or_else(|| panic!("no committed conflicting entry for first in {log}"));
    let mut unique = committed.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        committed.len(),
        "two committed entries share an id: {log}"
    );
    assert!(
        first["conflict"]
            .as_str()
            .is_some_and(|c| c.contains("lock was lost")),
        "{first}"
    );
}
