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
use memwb::formats::memory::journal::journaled;
use memwb::review::proposal::{self, NewProposal};
use memwb::review::{Journal, Origin, Plan, ReviewError};
use memwb::store::{FaultHook, IoHooks, IoOp, Store, StoreOptions};
use serde_json::Value;

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

fn mkfifo(path: &Path) {
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .expect("mkfifo");
}

fn file_proposal(store: &Store) -> proposal::Proposal {
    let plan = Plan::Consolidation {
        source_names: vec!["alpha".into(), "beta".into()],
        records: vec![record("ab", "merged", "m")],
    };
    proposal::file(
        store,
        NewProposal {
            plan,
            origin: Origin::new("import"),
            seen: store.read().expect("read"),
            additions: Vec::new(),
            evidence: None,
        },
    )
    .expect("file proposal")
}

#[test]
fn a_journal_linked_outside_the_workspace_is_refused_and_reported() {
    let dir = seeded(&["alpha"]);
    let outside = workspace();
    let target = outside.path().join("victim.txt");
    std::fs::write(&target, "precious\n").unwrap();
    std::fs::remove_file(journal_path(dir.path())).unwrap();
    std::os::unix::fs::symlink(&target, journal_path(dir.path())).unwrap();

    let out = add(dir.path(), "beta");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
    assert_eq!(names(&open(dir.path())), ["alpha"], "nothing was committed");
    assert!(has_finding(
        dir.path(),
        "state-escapes",
        ".memwb/journal.jsonl"
    ));
    let log = memwb(dir.path(), &["log"]);
    assert_eq!(log.status.code(), Some(2));
    assert!(stderr(&log).contains("symbolic link"), "{}", stderr(&log));
}

#[test]
fn a_memwb_dir_linked_outside_the_workspace_is_refused_and_reported() {
    let dir = seeded(&["alpha"]);
    let outside = workspace();
    std::fs::write(outside.path().join("journal.jsonl"), "").unwrap();
    std::fs::remove_dir_all(memwb_dir(dir.path())).unwrap();
    std::os::unix::fs::symlink(outside.path(), memwb_dir(dir.path())).unwrap();

    let out = add(dir.path(), "beta");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(outside.path().join("journal.jsonl")).unwrap(),
        b"",
        "nothing appended outside"
    );
    assert_eq!(
        std::fs::read_dir(outside.path()).unwrap().count(),
        1,
        "no file created outside"
    );
    assert_eq!(names(&open(dir.path())), ["alpha"]);
    assert!(has_finding(dir.path(), "state-escapes", ".memwb"));
}

#[test]
fn a_proposal_linked_outside_the_workspace_is_refused_and_reported() {
    let dir = seeded(&["alpha", "beta"]);
    let store = open(dir.path());
    let p = file_proposal(&store);
    let path = memwb_dir(dir.path()).join(format!("proposals/{}.json", p.id));
    let outside = workspace();
    let target = outside.path().join("elsewhere.json");
    std::fs::copy(&path, &target).unwrap();
    let before = std::fs::read(&target).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(&target, &path).unwrap();

    let approve = memwb(dir.path(), &["approve", &p.id]);
    assert_eq!(approve.status.code(), Some(2));
    assert!(
        stderr(&approve).contains("symbolic link"),
        "{}",
        stderr(&approve)
    );
    let reject = memwb(dir.path(), &["reject", &p.id]);
    assert_eq!(reject.status.code(), Some(2));
    assert_eq!(std::fs::read(&target).unwrap(), before, "not rewritten");
    assert_eq!(names(&open(dir.path())), ["alpha", "beta"]);
    let file = format!(".memwb/proposals/{}.json", p.id);
    assert!(has_finding(dir.path(), "state-escapes", &file));
    let listed = memwb(dir.path(), &["proposals"]);
    assert!(listed.status.success());
    assert!(
        stdout(&listed).contains("corrupt") && stdout(&listed).contains("symbolic link"),
        "{}",
        stdout(&listed)
    );
}

#[test]
fn fifos_in_place_of_the_journal_or_a_proposal_never_hang() {
    let dir = seeded(&["alpha", "beta"]);
    let p = file_proposal(&open(dir.path()));
    let proposal_path = memwb_dir(dir.path()).join(format!("proposals/{}.json", p.id));
    std::fs::remove_file(&proposal_path).unwrap();
    mkfifo(&proposal_path);
    let listed = memwb(dir.path(), &["proposals", "--json"]);
    assert!(listed.status.success(), "{}", stderr(&listed));
    assert!(
        stdout(&listed).contains("\"corrupt\""),
        "{}",
        stdout(&listed)
    );
    let approve = memwb(dir.path(), &["approve", &p.id]);
    assert_eq!(approve.status.code(), Some(2));
    assert!(
        stderr(&approve).contains("not a regular file"),
        "{}",
        stderr(&approve)
    );
    let file = format!(".memwb/proposals/{}.json", p.id);
    assert!(has_finding(dir.path(), "not-a-file", &file));

    std::fs::remove_file(journal_path(dir.path())).unwrap();
    mkfifo(&journal_path(dir.path()));
    let out = add(dir.path(), "gamma");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
    assert_eq!(names(&open(dir.path())), ["alpha", "beta"]);
    for args in [&["log"][..], &["undo"], &["proposals"]] {
        let out = memwb(dir.path(), args);
        assert!(
            !out.status.success() || args == ["proposals"],
            "{args:?}: {}",
            stdout(&out)
        );
    }
    assert!(has_finding(
        dir.path(),
        "not-a-file",
        ".memwb/journal.jsonl"
    ));
}

#[test]
fn memwb_state_that_is_not_a_directory_or_has_leftovers_is_reported() {
    let dir = seeded(&["alpha", "beta"]);
    let p = file_proposal(&open(dir.path()));
    std::fs::write(memwb_dir(dir.path()).join(".0123abcd.tmp"), "half").unwrap();
    // memwb's own folders (here the evaluation's reply cache) are not findings.
    std::fs::create_dir(memwb_dir(dir.path()).join("eval-cache")).unwrap();
    let proposal_path = memwb_dir(dir.path()).join(format!("proposals/{}.json", p.id));
    std::fs::write(&proposal_path, "{ not json").unwrap();
    let found = findings(dir.path());
    assert!(
        found.contains(&("temp-file".into(), ".memwb/.0123abcd.tmp".into())),
        "{found:?}"
    );
    let file = format!(".memwb/proposals/{}.json", p.id);
    assert!(
        found.contains(&("proposal-corrupt".into(), file.clone())),
        "{found:?}"
    );
    assert_eq!(found.len(), 2, "{found:?}");
    let listed = memwb(dir.path(), &["proposals"]);
    assert!(
        stdout(&listed).contains(&format!("{}.json  corrupt", p.id)),
        "{}",
        stdout(&listed)
    );

    std::fs::remove_dir_all(memwb_dir(dir.path()).join("proposals")).unwrap();
    std::fs::write(memwb_dir(dir.path()).join("proposals"), "a file").unwrap();
    assert!(has_finding(
        dir.path(),
        "state-not-a-directory",
        ".memwb/proposals"
    ));

    std::fs::remove_dir_all(memwb_dir(dir.path())).unwrap();
    std::fs::write(memwb_dir(dir.path()), "a file").unwrap();
    assert!(has_finding(dir.path(), "state-not-a-directory", ".memwb"));
    let out = add(dir.path(), "gamma");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a directory"), "{}", stderr(&out));
    assert_eq!(names(&open(dir.path())), ["alpha", "beta"]);
}

#[test]
fn a_mark_that_cannot_be_written_after_the_commit_is_an_exit_1_warning_and_a_finding() {
    let dir = seeded(&["alpha"]);
    let out = memwb_env(
        dir.path(),
        &add_args("beta"),
        &[("MEMWB_TEST_FAIL_JOURNAL_MARK", "1")],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("warning: written, but not journaled: entry #2 (add)"),
        "{}",
        stderr(&out)
    );
    assert_eq!(names(&open(dir.path())), ["alpha", "beta"], "committed");
    assert!(has_finding(
        dir.path(),
        "journal-pending",
        ".memwb/journal.jsonl"
    ));
    assert_ok(&add(dir.path(), "gamma"));
    let store = open(dir.path());
    let entries = Journal::of(&store).entries().unwrap();
    let ids: Vec<u64> = entries.iter().map(|e| e.id).collect();
    assert_eq!(ids, [1, 2, 3], "the pending entry was recorded, once");
    assert_eq!(entries[1].after[0].record.name, "beta");
    assert!(
        !findings(dir.path())
            .iter()
            .any(|(c, _)| c == "journal-pending")
    );
}

/// Fails every journal mark, records every step.
#[derive(Default)]
struct Steps {
    fail_mark: bool,
    seen: Mutex<Vec<IoOp>>,
}

impl FaultHook for Steps {
    fn before(&self, op: IoOp, _: &Path) -> std::io::Result<()> {
        self.seen.lock().unwrap().push(op);
        if self.fail_mark && op == IoOp::JournalMark {
            return Err(std::io::Error::other("disk full"));
        }
        Ok(())
    }
}

fn hooked(dir: &Path, steps: &Arc<Steps>) -> Store {
    Store::open(
        dir,
        StoreOptions {
            hooks: IoHooks::new(steps.clone()),
            ..StoreOptions::default()
        },
    )
    .unwrap()
}

#[test]
fn a_failing_mark_hook_reports_not_journaled_and_recovery_records_the_entry() {
    let dir = seeded(&["alpha"]);
    let steps = Arc::new(Steps {
        fail_mark: true,
        ..Steps::default()
    });
    let store = hooked(dir.path(), &steps);
    let err = journaled(&store, Default::default(), None, |s| {
        s.extend(vec![record("beta", "d", "b")])
    })
    .unwrap_err();
    assert!(matches!(err, ReviewError::NotJournaled { .. }), "{err}");
    assert!(err.to_string().contains("disk full"), "{err}");
    let plain = open(dir.path());
    assert!(Journal::of(&plain).has_pending());
    {
        let _lock = plain.lock_for_write().unwrap();
        Journal::of(&plain).recover(&plain).unwrap();
    }
    assert!(!Journal::of(&plain).has_pending());
    let names: Vec<String> = Journal::of(&plain)
        .entries()
        .unwrap()
        .iter()
        .flat_map(|e| e.after.iter().map(|r| r.record.name.clone()))
        .collect();
    assert_eq!(names, ["alpha", "beta"]);
}

#[test]
fn the_journal_adds_one_fsync_to_a_commit() {
    let dir = seeded(&["alpha", "beta"]);
    let steps = Arc::new(Steps::default());
    let store = hooked(dir.path(), &steps);
    journaled(&store, Default::default(), None, |s| {
        s.extend(vec![record("gamma", "d", "b")])
    })
    .unwrap();
    let seen = steps.seen.lock().unwrap().clone();
    // The steps that fsync: the record, the two temp files, the directory once after the
    // commit rename, and the journal intent (issue 23: five, the directory's sync before the
    // index was the sixth). The mark after the commit point is not synced.
    let syncs = seen
        .iter()
        .filter(|op| {
            matches!(
                op,
                IoOp::SyncRecord | IoOp::SyncTemp | IoOp::SyncDir | IoOp::JournalIntent
            )
        })
        .count();
    assert_eq!(syncs, 5, "{seen:?}");
    let dir_syncs: Vec<usize> = seen
        .iter()
        .enumerate()
        .filter(|(_, op)| **op == IoOp::SyncDir)
        .map(|(at, _)| at)
        .collect();
    let last_rename = seen.iter().rposition(|op| *op == IoOp::Rename);
    assert_eq!(dir_syncs.len(), 1, "{seen:?}");
    assert!(
        Some(dir_syncs[0]) > last_rename,
        "the directory is synced once, after the commit rename: {seen:?}"
    );
    assert_eq!(
        seen.iter()
            .filter(|op| matches!(op, IoOp::JournalIntent | IoOp::JournalMark))
            .count(),
        2,
        "{seen:?}"
    );
    let intent = seen.iter().position(|op| *op == IoOp::JournalIntent);
    let first_write = seen.iter().position(|op| *op == IoOp::CreateRecord);
    let mark = seen.iter().position(|op| *op == IoOp::JournalMark);
    let last_rename = seen.iter().rposition(|op| *op == IoOp::Rename);
    assert!(intent < first_write, "the intent comes first: {seen:?}");
    assert!(mark > last_rename, "the mark follows the commit: {seen:?}");
}

#[test]
fn a_torn_last_line_is_moved_aside_and_reported() {
    let dir = seeded(&["alpha"]);
    let journal = journal_path(dir.path());
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("{\"intent\":{\"entry\":{\"id\":2"); // a crash in the middle of an append
    std::fs::write(&journal, &text).unwrap();
    assert!(has_finding(
        dir.path(),
        "journal-torn",
        ".memwb/journal.jsonl"
    ));
    assert_ok(&add(dir.path(), "beta"));
    let aside: Vec<String> = std::fs::read_dir(memwb_dir(dir.path()))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("journal.torn."))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    let moved = std::fs::read_to_string(memwb_dir(dir.path()).join(&aside[0])).unwrap();
    assert_eq!(moved, "{\"intent\":{\"entry\":{\"id\":2");
    let found = findings(dir.path());
    assert!(
        found.contains(&("journal-set-aside".into(), format!(".memwb/{}", aside[0]))),
        "{found:?}"
    );
    assert!(!found.iter().any(|(c, _)| c == "journal-torn"), "{found:?}");
    let ids: Vec<u64> = Journal::of(&open(dir.path()))
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, [1, 2]);
}

#[test]
fn damaged_lines_are_reported_skipped_and_repaired() {
    let dir = seeded(&["alpha", "beta"]);
    let journal = journal_path(dir.path());
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(2, "not json");
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();

    let out = memwb(dir.path(), &["check", "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let damaged: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "journal-damaged")
        .collect();
    assert_eq!(damaged.len(), 1, "{report}");
    assert!(
        damaged[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 3:"),
        "{report}"
    );
    let log = memwb(dir.path(), &["log", "--json"]);
    assert!(log.status.success(), "{}", stderr(&log));
    assert!(
        stderr(&log).contains("warning:") && stderr(&log).contains("skipping line 3"),
        "{}",
        stderr(&log)
    );
    let entries: Value = serde_json::from_slice(&log.stdout).unwrap();
    assert_eq!(entries.as_array().unwrap().len(), 2, "both entries shown");
    assert_ok(&add(dir.path(), "gamma"));

    // A damaged last line stops writers (its id cannot be known) until it is moved aside.
    let mut text = std::fs::read_to_string(&journal).unwrap();
    text.push_str("{\"committed\":\"x\"}\n");
    std::fs::write(&journal, text).unwrap();
    let out = add(dir.path(), "delta");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("memwb repair --journal"),
        "{}",
        stderr(&out)
    );
    let repair = memwb(dir.path(), &["repair", "--journal"]);
    assert_ok(&repair);
    assert!(
        stdout(&repair).contains("damaged lines 3, "),
        "{}",
        stdout(&repair)
    );
    assert_ok(&add(dir.path(), "delta"));
    let found = findings(dir.path());
    assert!(
        !found.iter().any(|(c, _)| c == "journal-damaged"),
        "{found:?}"
    );
    assert!(
        found.iter().any(|(c, _)| c == "journal-set-aside"),
        "{found:?}"
    );
    let ids: Vec<u64> = Journal::of(&open(dir.path()))
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    let again = memwb(dir.path(), &["repair", "--journal"]);
    assert!(
        stdout(&again).contains("no damaged lines"),
        "{}",
        stdout(&again)
    );
}

#[test]
fn journals_of_the_previous_layout_still_load_and_finish() {
    let dir = seeded(&["alpha", "beta"]);
    let store = open(dir.path());
    let entries = Journal::of(&store).entries().unwrap();
    // The previous layout: one bare entry per line, and an interrupted commit's intent in
    // journal.pending.json (here the commit of "gamma", which happened).
    let legacy: String = entries
        .iter()
        .map(|e| serde_json::to_string(e).unwrap() + "\n")
        .collect();
    std::fs::write(journal_path(dir.path()), legacy).unwrap();
    let before_gamma = store.read().unwrap().files();
    // Committed without a journal observer, as a crash right after the commit would leave it.
    store.extend(vec![record("gamma", "d", "b")]).unwrap();
    let mut pending_entry = serde_json::to_value(&entries[1]).unwrap();
    pending_entry["id"] = 3.into();
    pending_entry["after"][0]["name"] = "gamma".into();
    let after_gamma = store.read().unwrap().files();
    pending_entry["after"][0]["file"] = after_gamma[2].clone().into();
    let pending = serde_json::json!({
        "entry": pending_entry,
        "expect": {"kind": "manifest", "before": before_gamma, "after": after_gamma},
        "decision": null,
    });
    std::fs::write(
        memwb_dir(dir.path()).join("journal.pending.json"),
        serde_json::to_vec(&pending).unwrap(),
    )
    .unwrap();
    assert!(Journal::of(&store).has_pending());

    let log = memwb(dir.path(), &["log", "--json"]);
    assert_ok(&log);
    let shown: Value = serde_json::from_slice(&log.stdout).unwrap();
    let ids: Vec<u64> = shown
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, [1, 2, 3], "the legacy intent was finished");
    assert!(!memwb_dir(dir.path()).join("journal.pending.json").exists());
    assert_ok(&add(dir.path(), "delta"));
    let ids: Vec<u64> = Journal::of(&store)
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, [1, 2, 3, 4]);
    let mut raw = String::new();
    std::fs::File::open(journal_path(dir.path()))
        .unwrap()
        .read_to_string(&mut raw)
        .unwrap();
    assert!(
        raw.lines().next().unwrap().starts_with("{\"id\":1"),
        "old lines kept as they were"
    );
}
