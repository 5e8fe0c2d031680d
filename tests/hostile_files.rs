//! Non-regular files where memwb expects a file: a FIFO in place of a record, the manifest or
//! MEMORY.md, and `/dev/zero` or a FIFO given as an input file. Each command must refuse at
//! once with a clear error (nothing hangs, nothing is read past its limit, the lock is
//! released). Every run has a deadline: a hang fails the test instead of hanging CI.

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{lock_held, workspace};

/// Far above what any of these commands takes; reached only by a hang.
const DEADLINE: Duration = Duration::from_secs(20);

/// Runs `memwb -C dir args...` with `stdin` as its standard input, killing it (and failing
/// the test) if it has not finished by the deadline.
fn memwb_in(dir: &Path, args: &[&str], stdin: Stdio) -> Output {
    let child = common::cli::command(dir)
        .args(args)
        .env("MEMWB_LOCK_TIMEOUT", "5")
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn memwb");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(DEADLINE) {
        Ok(out) => out.expect("memwb runs"),
        Err(_) => {
            // The child we spawned and have not reaped, so the pid is still its own.
            if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
            panic!("memwb {args:?} hung past {DEADLINE:?}");
        }
    }
}

fn memwb(dir: &Path, args: &[&str]) -> Output {
    memwb_in(dir, args, Stdio::null())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn mkfifo(path: &Path) {
    use rustix::fs::{CWD, FileType, Mode, mknodat};
    mknodat(CWD, path, FileType::Fifo, Mode::from_raw_mode(0o644), 0).expect("mkfifo");
}

fn add(dir: &Path, name: &str) {
    let out = memwb(
        dir,
        &[
            "add",
            "--name",
            name,
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

fn listed_file(dir: &Path, name: &str) -> String {
    let out = memwb(dir, &["ls", "--json"]);
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("json");
    rows.iter()
        .find(|r| r["name"] == name)
        .and_then(|r| r["file"].as_str())
        .expect("listed")
        .to_owned()
}

fn check_json(dir: &Path) -> serde_json::Value {
    let out = memwb(dir, &["check", "--json"]);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "check --json: {e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            stderr(&out)
        )
    })
}

fn finding_codes(check: &serde_json::Value) -> Vec<(String, String)> {
    common::cli::finding_files(check)
}

#[test]
fn a_fifo_in_place_of_a_record_is_refused_and_reported() {
    let ws = workspace();
    add(ws.path(), "alpha");
    add(ws.path(), "beta");
    let file = listed_file(ws.path(), "beta");
    let path = ws.path().join(".memory").join(&file);
    std::fs::remove_file(&path).expect("rm");
    mkfifo(&path);

    for args in [
        &["ls"][..],
        &["show", "alpha"],
        &["index"],
        &[
            "add",
            "--name",
            "gamma",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
        &["set", "alpha", "--description", "x"],
    ] {
        let out = memwb(ws.path(), args);
        assert_ne!(out.status.code(), Some(0), "{args:?} succeeded");
        assert!(
            stderr(&out).contains("not a regular file (it is a FIFO)"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(!lock_held(ws.path()), "{args:?} left the lock");
    }
    let check = check_json(ws.path());
    assert!(
        finding_codes(&check).contains(&("not-a-file".to_owned(), file.clone())),
        "{check}"
    );
    // The way out works: drop the entry.
    let out = memwb(ws.path(), &["repair", &file, "--drop"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = memwb(ws.path(), &["ls"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_fifo_in_place_of_the_manifest_or_the_index_is_refused_and_reported() {
    for target in ["manifest.json", "MEMORY.md"] {
        let ws = workspace();
        add(ws.path(), "alpha");
        let path = ws.path().join(".memory").join(target);
        std::fs::remove_file(&path).expect("rm");
        mkfifo(&path);
        let check = check_json(ws.path());
        assert!(
            finding_codes(&check).contains(&("not-a-file".to_owned(), target.to_owned())),
            "{target}: {check}"
        );
        let out = memwb(
            ws.path(),
            &[
                "add",
                "--name",
                "gamma",
                "--type",
                "user",
                "--description",
                "d",
                "--body",
                "b",
            ],
        );
        assert_ne!(out.status.code(), Some(0), "{target}: add succeeded");
        assert!(
            stderr(&out).contains("not a regular file (it is a FIFO)"),
            "{target}: {}",
            stderr(&out)
        );
        assert!(!lock_held(ws.path()), "{target}: the lock was left");
        assert!(
            std::fs::symlink_metadata(&path)
                .expect("still there")
                .file_type()
                .is_fifo(),
            "{target} was replaced"
        );
    }
}

use std::os::unix::fs::FileTypeExt;

/// Every command that reads an input file, with that file being `/dev/zero` or a FIFO no one
/// writes to, and with standard input being `/dev/zero`.
#[test]
fn input_files_that_are_devices_or_fifos_are_refused() {
    let ws = workspace();
    add(ws.path(), "alpha");
    let fifo = ws.path().join("input.fifo");
    mkfifo(&fifo);
    let fifo = fifo.to_str().expect("utf-8").to_owned();
    let file = listed_file(ws.path(), "alpha");
    for input in ["/dev/zero", fifo.as_str()] {
        let kind = if input == "/dev/zero" {
            "character device"
        } else {
            "FIFO"
        };
        for args in [
            vec![
                "add",
                "--name",
                "b",
                "--type",
                "user",
                "--description",
                "d",
                "--body-file",
                input,
            ],
            vec!["set", "alpha", "--body-file", input],
            vec!["add", "--json", input],
            vec!["consolidate", "--plan", input],
            vec!["repair", &file, "--from", input],
            vec!["propose", "import", input],
        ] {
            let out = memwb(ws.path(), &args);
            assert_ne!(out.status.code(), Some(0), "{args:?} succeeded");
            assert!(
                stderr(&out).contains(&format!("not a regular file (it is a {kind})")),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
    // Standard input that never ends is read only up to its limit.
    for args in [
        vec![
            "add",
            "--name",
            "b",
            "--type",
            "user",
            "--description",
            "d",
            "--body-file",
            "-",
        ],
        vec!["add", "--json", "-"],
    ] {
        let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
        let out = memwb_in(ws.path(), &args, Stdio::from(zero));
        assert_ne!(out.status.code(), Some(0), "{args:?} succeeded");
        assert!(
            stderr(&out).contains("standard input is larger than"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = memwb(ws.path(), &["ls", "--json"]);
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(rows.len(), 1, "nothing was added");
    let _ = std::io::stdout().flush();
}

/// A record file far over its budget is refused as too large without being read whole.
#[test]
fn an_oversized_record_is_reported_with_the_budget_error() {
    let ws = workspace();
    add(ws.path(), "alpha");
    let file = listed_file(ws.path(), "alpha");
    let path = ws.path().join(".memory").join(&file);
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .expect("open");
    f.set_len(64 << 20).expect("sparse 64 MiB");
    let out = memwb(ws.path(), &["ls"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("must not exceed 4096 UTF-8 bytes (it has 67108864)"),
        "{}",
        stderr(&out)
    );
    let check = check_json(ws.path());
    assert!(
        finding_codes(&check).contains(&("record-invalid".to_owned(), file)),
        "{check}"
    );
}
