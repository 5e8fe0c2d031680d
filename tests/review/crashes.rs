//! Concurrency and crashes: one effect of concurrent approvals, SIGKILL and panics around the
//! commit point.

use super::*;

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
    assert_eq!(
        listed[0]["memories"]["removed"],
        serde_json::json!(["one", "two"])
    );
    assert_eq!(listed[0]["memories"]["added"], serde_json::json!(["both"]));
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
        log[2]["memories"]["removed"].as_array().unwrap().len() == 2
            && log[2]["memories"]["added"][0] == "both"
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
    assert_eq!(entries[0]["memories"]["added"][0], "survivor");
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
