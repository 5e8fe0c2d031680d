//! Writers together: serialized commits, stale and fresh locks, consolidation against other
//! writers.

use super::*;

#[test]
fn concurrent_writers_are_serialized() {
    let dir = copy_fixture_store("stores/basic");
    let path = dir.path().to_owned();
    let writers: Vec<_> = (0..8)
        .map(|i| {
            let path = path.clone();
            thread::spawn(move || {
                // Each writer has its own handle, as separate agents in one process would.
                let store = open(&path);
                for j in 0..5 {
                    store
                        .extend(vec![record(&format!("writer-{i}-{j}"), "d", "b")])
                        .expect("extend");
                }
            })
        })
        .collect();
    for w in writers {
        w.join().expect("writer");
    }
    let mut got = names(&open(&path));
    assert_eq!(got.len(), 6 + 40, "{got:?}");
    got.sort();
    got.dedup();
    assert_eq!(got.len(), 46);
    let report = open(&path).inspect();
    assert!(report.findings().is_empty(), "{:?}", report.findings());
    assert!(!lock_held(&path));
}

fn make_stale_lock(dir: &Path, age: Duration) {
    let lock = dir.join(".memory/.lock");
    fs::create_dir(&lock).expect("lock dir");
    let old = SystemTime::now() - age;
    fs::File::open(&lock)
        .expect("open lock dir")
        .set_times(fs::FileTimes::new().set_accessed(old).set_modified(old))
        .expect("set mtime");
}

#[test]
fn eight_writers_recover_the_same_stale_lock_at_once() {
    let dir = copy_fixture_store("stores/basic");
    make_stale_lock(dir.path(), Duration::from_secs(31));
    let path = dir.path().to_owned();
    let start = Arc::new(std::sync::Barrier::new(8));
    let began = Instant::now();
    let writers: Vec<_> = (0..8)
        .map(|i| {
            let (path, start) = (path.clone(), start.clone());
            thread::spawn(move || {
                let store = open(&path);
                start.wait();
                store.extend(vec![record(&format!("recovered-{i}"), "d", "b")])
            })
        })
        .collect();
    for w in writers {
        w.join()
            .expect("writer")
            .expect("extend after breaking the stale lock");
    }
    assert!(
        began.elapsed() < Duration::from_secs(10),
        "the stale lock was waited out, not broken"
    );
    let got = names(&open(&path));
    for i in 0..8 {
        assert!(
            got.contains(&format!("recovered-{i}")),
            "recovered-{i} lost: {got:?}"
        );
    }
    assert_eq!(got.len(), 14);
    assert!(!lock_held(&path));
}

#[test]
fn a_fresh_lock_is_waited_for_and_a_future_mtime_counts_as_fresh() {
    let dir = copy_fixture_store("stores/basic");
    let lock = dir.path().join(".memory/.lock");
    fs::create_dir(&lock).expect("lock");
    let future = SystemTime::now() + Duration::from_secs(3600);
    fs::File::open(&lock)
        .expect("open")
        .set_times(fs::FileTimes::new().set_modified(future))
        .expect("mtime");
    let timing = memwb::store::LockTiming {
        timeout: Duration::from_millis(300),
        ..Default::default()
    };
    let store = open_with(
        dir.path(),
        StoreOptions {
            lock: timing,
            ..StoreOptions::default()
        },
    );
    let before = snapshot(dir.path());
    let err = store.extend(vec![record("x", "d", "b")]).expect_err("held");
    assert!(matches!(err, StoreError::LockTimeout { .. }), "{err}");
    assert!(err.is_transient());
    assert!(lock.is_dir(), "someone else's lock is never removed");
    assert_unchanged(dir.path(), &before, "lock held");
}

#[test]
fn consolidation_replaces_only_the_named_sources() {
    let dir = copy_fixture_store("stores/basic");
    let store = open(dir.path());
    let before = store.read().expect("readable");
    let base: Vec<Record> = before.records().cloned().collect();
    let kept_files: Vec<String> = before
        .entries
        .iter()
        .filter(|e| !["user-preference-tabs", "review-feedback"].contains(&e.record.name()))
        .map(|e| e.file.clone())
        .collect();
    let commit = store
        .apply_consolidation(
            &base,
            vec![
                record("extracted-kept", "K", "k"),
                record("extracted-merged", "M", "m"),
            ],
            &[
                "user-preference-tabs".into(),
                "review-feedback".into(),
                "extracted-merged".into(),
            ],
            vec![typed(
                "code-style",
                MemoryType::Feedback,
                "Style",
                "Tabs, small PRs.",
            )],
        )
        .expect("consolidation");
    assert_eq!(
        names(&store),
        [
            "project-database-rule",
            "windows-examples",
            "user-language",
            "ci-reference",
            "extracted-kept",
            "code-style"
        ]
    );
    assert_eq!(commit.removed, ["review-feedback", "user-preference-tabs"]);
    assert_eq!(commit.added, ["code-style", "extracted-kept"]);
    let after = store.read().expect("readable");
    // Kept records keep their files (not rewritten); replaced files are gone.
    assert_eq!(after.files()[..4], kept_files[..]);
    for old in &before.entries {
        let exists = dir.path().join(".memory").join(&old.file).exists();
        assert_eq!(exists, kept_files.contains(&old.file), "{}", old.file);
    }
    assert!(open(dir.path()).inspect().findings().is_empty());
}

#[test]
fn consolidation_plan_is_validated() {
    let dir = copy_fixture_store("stores/basic");
    let store = open(dir.path());
    let base = store.records().expect("readable");
    let before = snapshot(dir.path());
    let r = || vec![record("merged", "M", "m")];
    for (sources, replacements) in [
        (vec![], r()),
        (vec!["review-feedback".to_owned()], vec![]),
        (
            vec!["review-feedback".into(), "review-feedback".into()],
            r(),
        ),
        (vec!["not-a-candidate".into()], r()),
    ] {
        let err = store
            .apply_consolidation(&base, vec![], &sources, replacements)
            .expect_err("invalid");
        assert!(matches!(err, StoreError::InvalidPlan { .. }), "{err}");
    }
    // A replacement whose name collides with a kept record.
    let err = store
        .apply_consolidation(
            &base,
            vec![],
            &["review-feedback".into()],
            vec![record("ci-reference", "x", "y")],
        )
        .expect_err("duplicate");
    assert!(matches!(err, StoreError::DuplicateName { .. }), "{err}");
    assert_unchanged(dir.path(), &before, "invalid plans");
}

#[test]
fn duplicate_names_fail_the_whole_batch() {
    let dir = copy_fixture_store("stores/basic");
    let store = open(dir.path());
    let before = snapshot(dir.path());
    let err = store
        .extend(vec![
            record("brand-new", "d", "b"),
            record("ci-reference", "d", "b"),
        ])
        .expect_err("already in the set");
    assert!(
        matches!(err, StoreError::DuplicateName { ref name } if name == "ci-reference"),
        "{err}"
    );
    let err = store
        .extend(vec![record("twice", "d", "b"), record("twice", "d", "c")])
        .expect_err("twice in the batch");
    assert!(
        matches!(err, StoreError::DuplicateInBatch { ref name } if name == "twice"),
        "{err}"
    );
    assert_unchanged(dir.path(), &before, "duplicates");
    // An empty batch is a no-op that does not even create `.memory`.
    let empty = workspace();
    assert!(open(empty.path()).extend(vec![]).expect("no-op").is_empty());
    assert!(!empty.path().join(".memory").exists());
}

/// Simulates another process committing a record by hand while it holds the lock.
fn commit_by_hand(dir: &Path, rec: &Record, file: &str) {
    let root = dir.join(".memory");
    fs::write(root.join(file), rec.to_file_text()).expect("record");
    let manifest = fs::read_to_string(root.join("manifest.json")).expect("manifest");
    let mut value: serde_json::Value = serde_json::from_str(&manifest).expect("json");
    value["files"]
        .as_array_mut()
        .expect("files")
        .push(file.into());
    fs::write(root.join("manifest.json"), value.to_string()).expect("manifest");
}

#[test]
fn record_committed_by_another_writer_while_a_consolidation_waits_is_kept() {
    let dir = copy_fixture_store("stores/basic");
    let store = open(dir.path());
    let base = store.records().expect("readable");
    // Another process holds the lock.
    fs::create_dir(dir.path().join(".memory/.lock")).expect("lock");
    let waiting = {
        let (store, base) = (store.clone(), base.clone());
        thread::spawn(move || {
            store.apply_consolidation(
                &base,
                vec![],
                &["user-preference-tabs".into(), "review-feedback".into()],
                vec![typed(
                    "code-style",
                    MemoryType::Feedback,
                    "Style",
                    "Tabs, small PRs.",
                )],
            )
        })
    };
    // Generous: the waiter retries every 10 ms, so two busy attempts come long before this.
    let busy = memwb::store::lock::wait_for_busy_attempts(store.root(), 2, Duration::from_secs(30));
    assert!(
        busy >= 2,
        "the consolidation must be retrying the held lock"
    );
    assert!(
        !waiting.is_finished(),
        "the consolidation must wait for the lock"
    );
    let other = record("added-meanwhile", "By another agent", "Kept.");
    commit_by_hand(
        dir.path(),
        &other,
        "added-meanwhile-0123456789abcdef0123456789abcdef.md",
    );
    fs::remove_dir(dir.path().join(".memory/.lock")).expect("release");
    let commit = waiting.join().expect("thread").expect("consolidation");
    assert_eq!(
        names(&store),
        [
            "project-database-rule",
            "windows-examples",
            "user-language",
            "ci-reference",
            "added-meanwhile",
            "code-style"
        ]
    );
    assert_eq!(
        commit.set.get("added-meanwhile").map(|e| &e.record),
        Some(&other)
    );
}

#[test]
fn consolidation_fails_when_its_base_changed_meanwhile() {
    let dir = copy_fixture_store("stores/basic");
    let store = open(dir.path());
    let base = store.records().expect("readable");
    // Another writer edits one base record (a new version under a new file).
    let tabs = base
        .iter()
        .find(|r| r.name() == "user-preference-tabs")
        .expect("present")
        .clone();
    let edited = typed(
        tabs.name(),
        tabs.kind(),
        "User prefers tabs, width 4",
        tabs.body(),
    );
    store.replace(&tabs, edited).expect("edit");
    let before = snapshot(dir.path());
    let err = store
        .apply_consolidation(
            &base,
            vec![],
            &["review-feedback".into()],
            vec![record("merged", "M", "m")],
        )
        .expect_err("base changed");
    assert!(matches!(err, StoreError::Conflict { .. }), "{err}");
    assert!(
        err.to_string().starts_with("memory collection changed"),
        "{err}"
    );
    assert_unchanged(dir.path(), &before, "conflict");
    // A removed base record conflicts too; so does replace() on a stale base.
    let ci = base
        .iter()
        .find(|r| r.name() == "ci-reference")
        .expect("present")
        .clone();
    store.remove(std::slice::from_ref(&ci)).expect("remove");
    let err = store
        .replace(&ci, record("ci-reference", "x", "y"))
        .expect_err("gone");
    assert!(matches!(err, StoreError::Conflict { .. }), "{err}");
    let err = store
        .replace(&tabs, record("user-preference-tabs", "x", "y"))
        .expect_err("stale base");
    assert!(matches!(err, StoreError::Conflict { .. }), "{err}");
}
