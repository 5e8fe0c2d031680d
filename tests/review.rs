//! The review gate: proposals, approve/reject, the journal, undo and crash recovery.

use crate::common;
use crate::common::cli::memwb;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use common::{names, open, record, workspace};
use memwb::formats::memory::journal::{approve, edit_records, journaled, reject, undo};
use memwb::review::journal::JournalRecord;
use memwb::review::proposal::{self, NewProposal};
use memwb::review::{EntryMeta, Journal, Op, Origin, Plan, ProposalStatus, ReviewError, State};
use memwb::store::{EntryState, FaultHook, IoHooks, IoOp, Record, Store, StoreOptions};

fn seed(store: &Store, names: &[&str]) {
    for name in names {
        journaled(store, Default::default(), None, |s| {
            s.extend(vec![record(name, &format!("about {name}"), "body")])
        })
        .expect("seed");
    }
}

fn consolidation(store: &Store, sources: &[&str], into: Record) -> proposal::Proposal {
    let plan = Plan::Consolidation {
        source_names: sources.iter().map(|s| s.to_string()).collect(),
        records: vec![into],
    };
    proposal::file(
        store,
        NewProposal {
            plan,
            origin: Origin::new("import"),
            seen: store.read().expect("read"),
            additions: Vec::new(),
            evidence: Some("the user said so".into()),
        },
    )
    .expect("file proposal")
}

#[test]
fn approve_applies_exactly_the_plan_and_journals_it() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["tabs-old", "tabs-new", "unrelated"]);
    let merged = record("tabs", "Indentation preference", "Use tabs.");
    let p = consolidation(&store, &["tabs-old", "tabs-new"], merged.clone());
    assert_eq!(p.state(&store.read().unwrap()), State::Ready);
    assert_eq!(p.base.len(), 2, "the sources' full content is kept");

    let (commit, entry) = approve(&store, &p.id).unwrap();
    assert_eq!(commit.added, ["tabs"]);
    assert_eq!(commit.removed, ["tabs-new", "tabs-old"]);
    assert_eq!(names(&store), ["unrelated", "tabs"]);
    assert_eq!(store.read().unwrap().get("tabs").unwrap().record, merged);

    let entry = entry.expect("journaled");
    assert_eq!(entry.op, Op::Approve);
    assert_eq!(
        entry.proposal.as_ref().map(|r| r.id.as_str()),
        Some(p.id.as_str())
    );
    assert_eq!(
        entry.proposal.as_ref().and_then(|r| r.evidence.as_deref()),
        Some("the user said so")
    );
    let before: Vec<&str> = entry
        .before
        .iter()
        .map(|r| r.record.name.as_str())
        .collect();
    assert_eq!(before, ["tabs-old", "tabs-new"]);
    assert_eq!(Journal::of(&store).entries().unwrap().last(), Some(&entry));

    let decided = proposal::load(&store, &p.id).unwrap();
    assert_eq!(decided.status, ProposalStatus::Approved);
    assert_eq!(decided.journal_entry, Some(entry.id));
    assert!(matches!(
        approve(&store, &p.id),
        Err(ReviewError::ProposalDecided { .. })
    ));
    assert_eq!(
        Journal::of(&store).entries().unwrap().len(),
        4,
        "a second approve has no effect"
    );
}

#[test]
fn stale_proposal_is_refused_with_what_changed_and_the_set_unchanged() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha", "beta"]);
    let p = consolidation(&store, &["alpha", "beta"], record("merged", "m", "m"));
    let alpha = store.read().unwrap().get("alpha").unwrap().record.clone();
    store
        .replace(&alpha, record("alpha", "edited meanwhile", "new body"))
        .unwrap();

    let state = p.state(&store.read().unwrap());
    assert_eq!(
        state,
        State::Stale(vec!["source \"alpha\" was changed".into()])
    );
    let before = common::snapshot(dir.path());
    let err = approve(&store, &p.id).unwrap_err();
    assert!(
        matches!(&err, ReviewError::ProposalStale { detail, .. } if detail.contains("\"alpha\" was changed")),
        "{err}"
    );
    assert_eq!(common::snapshot(dir.path()), before);
    assert_eq!(
        proposal::load(&store, &p.id).unwrap().status,
        ProposalStatus::Pending
    );
}

#[test]
fn extraction_proposal_goes_stale_when_a_name_is_taken() {
    let dir = workspace();
    let store = open(dir.path());
    let p = proposal::file(
        &store,
        NewProposal {
            plan: Plan::Extraction(vec![record("fresh", "f", "f")]),
            origin: Origin::new("agent"),
            seen: store.read().unwrap(),
            additions: Vec::new(),
            evidence: None,
        },
    )
    .unwrap();
    store
        .extend(vec![record("fresh", "someone else", "x")])
        .unwrap();
    assert_eq!(
        p.state(&store.read().unwrap()),
        State::Stale(vec!["name \"fresh\" is now taken".into()])
    );
    assert!(matches!(
        approve(&store, &p.id),
        Err(ReviewError::ProposalStale { .. })
    ));
}

#[test]
fn reject_closes_once() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha", "beta"]);
    let p = consolidation(&store, &["alpha"], record("gamma", "g", "g"));
    let before = common::snapshot(dir.path());
    let entry = reject(&store, &p.id, Some("not a duplicate".into())).unwrap();
    assert_eq!(entry.op, Op::Reject);
    assert_eq!(entry.reason.as_deref(), Some("not a duplicate"));
    assert_eq!(common::snapshot(dir.path()), before);
    let closed = proposal::load(&store, &p.id).unwrap();
    assert_eq!(
        (closed.status, closed.reason.as_deref()),
        (ProposalStatus::Rejected, Some("not a duplicate"))
    );
    assert!(matches!(
        reject(&store, &p.id, None),
        Err(ReviewError::ProposalDecided { .. })
    ));
    assert!(matches!(
        approve(&store, &p.id),
        Err(ReviewError::ProposalDecided { .. })
    ));
}

#[test]
fn undo_restores_the_records_exactly_and_an_undo_can_be_undone() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha", "beta", "gamma"]);
    let original: Vec<Record> = store.records().unwrap();
    let p = consolidation(
        &store,
        &["alpha", "beta"],
        record("ab", "merged", "merged body"),
    );
    let (_, entry) = approve(&store, &p.id).unwrap();
    let entry = entry.unwrap();

    let (_, undone) = undo(&store, &entry).unwrap();
    let undone = undone.unwrap();
    assert_eq!(undone.op, Op::Undo);
    assert_eq!(undone.undoes, Some(entry.id));
    let mut now = store.records().unwrap();
    let mut expected = original.clone();
    now.sort_by(|a, b| a.name().cmp(b.name()));
    expected.sort_by(|a, b| a.name().cmp(b.name()));
    assert_eq!(now, expected, "every field of every record is back");

    undo(&store, &undone).unwrap();
    assert_eq!(names(&store), ["gamma", "ab"]);
}

#[test]
fn undo_is_refused_when_the_records_changed_since() {
    let dir = workspace();
    let store = open(dir.path());
    let (_, entry) = journaled(&store, Default::default(), None, |s| {
        s.extend(vec![record("alpha", "a", "a")])
    })
    .unwrap();
    let alpha = store.read().unwrap().get("alpha").unwrap().record.clone();
    store
        .replace(&alpha, record("alpha", "changed", "a"))
        .unwrap();
    let err = undo(&store, &entry.unwrap()).unwrap_err();
    assert!(
        err.to_string().contains("cannot undo entry 1") && err.to_string().contains("changed"),
        "{err}"
    );
    assert_eq!(names(&store), ["alpha"]);
}

#[test]
fn cli_review_loop_and_concurrent_approve_have_one_effect() {
    let dir = workspace();
    for name in ["one", "two"] {
        let out = memwb(
            dir.path(),
            &[
                "add",
                "--name",
                name,
                "--type",
                "user",
                "--description",
                name,
                "--body",
                "b",
            ],
        );
        assert!(out.status.success());
    }
    let reply = dir.path().join("reply.json");
    std::fs::write(
        &reply,
        r#"{"source_names":["one","two"],"records":[{"name":"both","type":"user","description":"d","body":"b"}]}"#,
    )
    .unwrap();
    let out = memwb(dir.path(), &["propose", "import", reply.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let id = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let listed: serde_json::Value =
        serde_json::from_slice(&memwb(dir.path(), &["proposals", "--json"]).stdout).unwrap();
    assert_eq!(listed[0]["id"], id.as_str());
    assert_eq!(listed[0]["state"], "ready");
    assert_eq!(listed[0]["kind"], "consolidation");
    assert_eq!(listed[0]["source_names"], serde_json::json!(["one", "two"]));
    assert_eq!(listed[0]["records"][0]["name"], "both");
    assert_eq!(listed[0]["origin"]["source"], "import");
    assert!(listed[0]["created_at"].as_i64().unwrap() > 0);

    let bin = env!("CARGO_BIN_EXE_memwb");
    let spawn = || {
        Command::new(bin)
            .arg("-C")
            .arg(dir.path())
            .args(["approve", &id])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let outputs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    let mut codes = outputs.each_ref().map(|o| o.status.code());
    codes.sort();
    assert_eq!(
        codes,
        [Some(0), Some(2)],
        "exactly one approve takes effect"
    );
    let loser = outputs.iter().find(|o| !o.status.success()).unwrap();
    let err = String::from_utf8_lossy(&loser.stderr);
    assert!(
        err.contains(&format!("proposal {id} was already approved")),
        "{err}"
    );
    let log: serde_json::Value =
        serde_json::from_slice(&memwb(dir.path(), &["log", "--json"]).stdout).unwrap();
    let ops: Vec<&str> = log
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["op"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["add", "add", "approve"]);
    assert!(
        log[2]["before"].as_array().unwrap().len() == 2 && log[2]["after"][0]["name"] == "both"
    );
    assert!(log[2]["at"].as_i64().is_some() && log[2]["id"] == 3);

    let out = memwb(dir.path(), &["undo"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: serde_json::Value =
        serde_json::from_slice(&memwb(dir.path(), &["ls", "--json"]).stdout).unwrap();
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["one", "two"]);
}

fn age_lock(dir: &Path) {
    let lock = dir.join(".memory/.lock");
    if lock.exists() {
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
        std::fs::File::open(&lock)
            .and_then(|f| f.set_times(std::fs::FileTimes::new().set_modified(old)))
            .unwrap();
    }
}

#[test]
fn sigkill_between_commit_and_journal_append_is_recovered_once() {
    let dir = workspace();
    let out = Command::new(env!("CARGO_BIN_EXE_memwb"))
        .arg("-C")
        .arg(dir.path())
        .args([
            "add",
            "--name",
            "survivor",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ])
        .env("MEMWB_TEST_KILL_AFTER_COMMIT", "1")
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(out.status.signal(), Some(9), "the process was killed");
    let store = open(dir.path());
    assert_eq!(names(&store), ["survivor"], "the commit happened");
    assert!(
        Journal::of(&store).entries().unwrap().is_empty(),
        "the entry was not appended"
    );
    assert!(Journal::of(&store).has_pending());

    age_lock(dir.path());
    let log = memwb(dir.path(), &["log", "--json"]);
    assert!(
        log.status.success(),
        "{}",
        String::from_utf8_lossy(&log.stderr)
    );
    let entries: serde_json::Value = serde_json::from_slice(&log.stdout).unwrap();
    assert_eq!(entries.as_array().unwrap().len(), 1);
    assert_eq!(entries[0]["after"][0]["name"], "survivor");
    assert!(!Journal::of(&store).has_pending());
    let again: serde_json::Value =
        serde_json::from_slice(&memwb(dir.path(), &["log", "--json"]).stdout).unwrap();
    assert_eq!(again.as_array().unwrap().len(), 1, "recovered exactly once");
    let add = memwb(
        dir.path(),
        &[
            "add",
            "--name",
            "next",
            "--type",
            "user",
            "--description",
            "d",
            "--body",
            "b",
        ],
    );
    assert!(add.status.success());
    let ids: Vec<u64> = Journal::of(&store)
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, [1, 2]);
}

struct PanicAt(IoOp);

impl FaultHook for PanicAt {
    fn before(&self, op: IoOp, _: &Path) -> std::io::Result<()> {
        if op == self.0 {
            panic!("simulated crash before the commit point");
        }
        Ok(())
    }
}

#[test]
fn crash_before_the_commit_point_invents_no_entry() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha"]);
    let crashing = Store::open(
        dir.path(),
        StoreOptions {
            hooks: IoHooks::new(Arc::new(PanicAt(IoOp::Rename))),
            ..StoreOptions::default()
        },
    )
    .unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = journaled(&crashing, Default::default(), None, |s| {
            s.extend(vec![record("ghost", "g", "g")])
        });
    }));
    assert!(result.is_err());
    assert!(
        Journal::of(&store).has_pending(),
        "the intent was left by the crash"
    );
    seed(&store, &["beta"]);
    let ops: Vec<Vec<String>> = Journal::of(&store)
        .entries()
        .unwrap()
        .iter()
        .map(|e| {
            e.after
                .iter()
                .map(|r: &JournalRecord| r.record.name.clone())
                .collect()
        })
        .collect();
    assert_eq!(
        ops,
        [vec!["alpha".to_owned()], vec!["beta".to_owned()]],
        "no entry for the uncommitted ghost"
    );
    assert!(!Journal::of(&store).has_pending());
    assert!(
        store
            .inspect()
            .entries
            .iter()
            .all(|e| matches!(e.state, EntryState::Valid(_)))
    );
}

#[test]
fn editing_a_proposal_is_based_on_the_version_the_reviewer_opened() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha", "beta"]);
    let p = consolidation(
        &store,
        &["alpha", "beta"],
        record("merged", "first draft", "b"),
    );
    let opened = p.plan().unwrap().records().to_vec();
    let mine = record("merged", "my edit", "b");
    let theirs = record("merged", "their edit", "b");
    edit_records(&store, &p.id, &opened, vec![theirs.clone()]).unwrap();
    let err = edit_records(&store, &p.id, &opened, vec![mine]).unwrap_err();
    assert!(
        matches!(&err, ReviewError::ProposalEdited { id } if *id == p.id),
        "{err}"
    );
    assert_eq!(
        proposal::load(&store, &p.id)
            .unwrap()
            .plan()
            .unwrap()
            .records(),
        [theirs]
    );
    let invalid = edit_records(
        &store,
        &p.id,
        &[record("merged", "their edit", "b")],
        Vec::new(),
    );
    assert!(
        matches!(invalid, Err(ReviewError::PlanInvalid { .. })),
        "an empty plan is refused"
    );
}

#[test]
fn a_torn_last_journal_line_is_set_aside_and_a_corrupt_one_is_reported() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha"]);
    let path = Journal::of(&store).path();
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"id\":2,\"at\":"); // a crash in the middle of an append
    std::fs::write(&path, &text).unwrap();
    assert_eq!(Journal::of(&store).entries().unwrap().len(), 1);
    seed(&store, &["beta"]);
    let ids: Vec<u64> = Journal::of(&store)
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, [1, 2], "the torn line was cut before the next append");

    let mut text = std::fs::read_to_string(&path).unwrap();
    text.insert_str(0, "not json\n");
    std::fs::write(&path, text).unwrap();
    let out = memwb(dir.path(), &["log"]);
    assert_eq!(out.status.code(), Some(0), "a damaged line is skipped");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("journal") && err.contains("line 1"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
}

#[test]
fn a_drop_repair_that_crashed_before_its_commit_invents_no_entry() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["good", "bad"]);
    let bad_file = store.read().unwrap().entries[1].file.clone();
    std::fs::write(store.root().join(&bad_file), "not a record").unwrap();
    let seen = store.entry_bytes(&bad_file);
    let crashing = Store::open(
        dir.path(),
        StoreOptions {
            hooks: IoHooks::new(Arc::new(PanicAt(IoOp::Rename))),
            ..StoreOptions::default()
        },
    )
    .unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let meta = EntryMeta {
            op: Some(Op::Repair),
            ..EntryMeta::default()
        };
        let _ = journaled(&crashing, meta, None, |s| {
            s.repair_entry(&bad_file, seen.as_deref(), None)
        });
    }));
    assert!(result.is_err());
    assert!(Journal::of(&store).has_pending());
    {
        let _lock = store.lock_for_write().unwrap();
        Journal::of(&store).recover(&store).unwrap();
    }
    assert!(!Journal::of(&store).has_pending());
    assert_eq!(
        Journal::of(&store).entries().unwrap().len(),
        2,
        "only the two seeds"
    );
    assert!(
        store.inspect().entries.iter().any(|e| e.file == bad_file),
        "still listed"
    );
}

#[test]
fn a_proposal_whose_id_does_not_match_its_file_is_refused() {
    let dir = workspace();
    let store = open(dir.path());
    seed(&store, &["alpha", "beta"]);
    let p = consolidation(&store, &["alpha", "beta"], record("ab", "m", "m"));
    let path = store
        .root()
        .join(".memwb/proposals")
        .join(format!("{}.json", p.id));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace(&p.id, r"\u001b]0;pwned\u0007")).unwrap();
    let err = proposal::load(&store, &p.id).unwrap_err();
    assert!(
        err.to_string().contains("does not match its file name"),
        "{err}"
    );
    let out = memwb(dir.path(), &["proposals"]);
    assert!(out.status.success());
    assert!(
        !out.stdout.contains(&0x1b),
        "nothing of it reaches the terminal"
    );
}

#[test]
fn ids_continue_from_the_last_line_of_a_journal_of_long_entries() {
    let dir = workspace();
    let store = open(dir.path());
    let body = "x".repeat(3000);
    for i in 0..12 {
        journaled(&store, Default::default(), None, |s| {
            s.extend(vec![record(&format!("long-{i}"), "d", &body)])
        })
        .unwrap();
    }
    let path = Journal::of(&store).path();
    assert!(
        std::fs::metadata(&path).unwrap().len() > 3 * 8192,
        "longer than a few chunks"
    );
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&"{\"torn\":".repeat(5000)); // a torn line longer than a chunk
    std::fs::write(&path, text).unwrap();
    seed(&store, &["after"]);
    let ids: Vec<u64> = Journal::of(&store)
        .entries()
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, (1..=13).collect::<Vec<_>>());
}
