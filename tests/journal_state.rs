//! memwb's own state under `.memory/.memwb` against a hostile folder: links and FIFOs in place
//! of the journal and proposals, journal damage, a mark that cannot be written, journals of the
//! previous layout, and what the journal costs a commit in fsyncs.

use crate::common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{names, open, record, workspace};
use memwb::formats::memory::journal::NewProposal;
use memwb::formats::memory::journal::journaled;
use memwb::review::proposal;
use memwb::review::{Journal, Origin, ReviewError};
use memwb::session::Plan;
use memwb::store::{FaultHook, IoHooks, IoOp, Store, StoreOptions};
use serde_json::Value;

mod commit;
mod damage;
mod links;

/// Runs memwb with a generous deadline: a command that blocks on a FIFO fails the test
/// instead of hanging it.
fn memwb_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let child = common::cli::command(dir)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("memwb runs");
    let pid = rustix::process::Pid::from_child(&child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => out.expect("output"),
        Err(_) => {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            panic!("memwb {args:?} hung");
        }
    }
}

fn memwb(dir: &Path, args: &[&str]) -> Output {
    memwb_env(dir, args, &[])
}

fn add_args(name: &str) -> Vec<&str> {
    vec![
        "add",
        "--name",
        name,
        "--type",
        "user",
        "--description",
        "d",
        "--body",
        "b",
    ]
}

fn add(dir: &Path, name: &str) -> Output {
    memwb(dir, &add_args(name))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_ok(out: &Output) {
    assert!(out.status.success(), "{}", stderr(out));
}

/// `check --json`'s findings as (code, file).
fn findings(dir: &Path) -> Vec<(String, String)> {
    let out = memwb(dir, &["check", "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("check --json");
    common::cli::finding_files(&report)
}

fn has_finding(dir: &Path, code: &str, file: &str) -> bool {
    findings(dir).iter().any(|(c, f)| c == code && f == file)
}

fn memwb_dir(dir: &Path) -> PathBuf {
    dir.join(".memory/.memwb")
}

fn journal_path(dir: &Path) -> PathBuf {
    memwb_dir(dir).join("journal.jsonl")
}

fn seeded(names: &[&str]) -> tempfile::TempDir {
    let dir = workspace();
    for name in names {
        assert_ok(&add(dir.path(), name));
    }
    dir
}
