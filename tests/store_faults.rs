//! Fault injection: every step of every transaction kind is made to fail in turn (a failing
//! create, write, fsync, read-back, rename or directory sync). Before the commit point the
//! folder must be byte for byte what it was (no stray record or temp files, MEMORY.md
//! restored) and the previous set in force; after it, the new set is in force.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use common::*;
use memwb::store::{Commit, IoHooks, IoOp, MemoryType, Record, Result, Store, StoreOptions};

/// What a transaction is expected to leave once it succeeds.
struct Expect {
    names: Vec<&'static str>,
}

/// Runs `txn` on a fresh copy of `fixture` with the n-th step failing, for n = 0, 1, ... until
/// a run passes every step. Returns the ops that were failed, in order.
fn exhaust(
    fixture: &str,
    prepare: impl Fn(&Path),
    txn: impl Fn(&Store) -> Result<Commit>,
    expect: Expect,
) -> Vec<IoOp> {
    let mut failed_ops = Vec::new();
    for n in 0.. {
        assert!(n < 200, "the transaction never completed");
        let dir = copy_fixture_store(fixture);
        prepare(dir.path());
        let before_files = snapshot(dir.path());
        let before_set = open(dir.path()).read().expect("readable before");
        let hook = FailAt::new(n);
        let store = open_with(
            dir.path(),
            StoreOptions {
                hooks: IoHooks::new(hook.clone()),
                ..StoreOptions::default()
            },
        );
        let result = txn(&store);
        assert!(
            !lock_held(dir.path()),
            "step {n}: the lock was not released"
        );
        let Some((op, path)) = hook.failed() else {
            // Every step passed: the transaction must have committed normally.
            let commit = result.unwrap_or_else(|e| panic!("clean run failed: {e}"));
            assert_eq!(names(&store), expect.names, "clean run");
            assert_eq!(commit.set, store.read().expect("readable"));
            assert_clean_folder(dir.path(), &[]);
            assert!(
                failed_ops.len() >= 5,
                "only {} steps were exercised",
                failed_ops.len()
            );
            return failed_ops;
        };
        failed_ops.push(op);
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default()
            .to_owned();
        match result {
            Err(error) => {
                let context = format!("step {n} ({op:?} on {file}) failed with {error}");
                assert_unchanged(dir.path(), &before_files, &context);
                assert_eq!(
                    store.read().expect("readable"),
                    before_set,
                    "step {n} ({op:?})"
                );
            }
            Ok(commit) => {
                // Only a step after the commit point may fail without failing the transaction:
                // the cleanup of replaced files or the last directory sync.
                assert!(
                    matches!(op, IoOp::RemoveReplaced | IoOp::SyncDir),
                    "step {n}: {op:?} on {file} failed, yet the transaction reported success"
                );
                assert_eq!(names(&store), expect.names, "step {n} ({op:?})");
                assert_eq!(commit.set, store.read().expect("readable"));
                let left = if op == IoOp::RemoveReplaced {
                    vec![file.clone()]
                } else {
                    vec![]
                };
                assert_clean_folder(dir.path(), &left);
            }
        }
    }
    unreachable!()
}

/// No temp files, no lock, and no unlisted record files except `allowed`.
fn assert_clean_folder(dir: &Path, allowed: &[String]) {
    let report = open(dir).inspect();
    assert!(
        report.temp_files.is_empty(),
        "stray temp files {:?}",
        report.temp_files
    );
    let unlisted: BTreeSet<&String> = report.unlisted.iter().collect();
    let allowed: BTreeSet<&String> = allowed.iter().collect();
    assert!(
        unlisted.is_subset(&allowed),
        "stray record files {unlisted:?}"
    );
    assert!(report.is_readable());
}

fn base(dir: &Path) -> Vec<Record> {
    open(dir).records().expect("readable")
}

const BASIC: [&str; 6] = [
    "user-preference-tabs",
    "project-database-rule",
    "windows-examples",
    "user-language",
    "ci-reference",
    "review-feedback",
];

fn every_kind_of_step(ops: &[IoOp], wanted: &[IoOp]) {
    for op in wanted {
        assert!(ops.contains(op), "{op:?} was never failed; failed: {ops:?}");
    }
}

#[test]
fn extend_survives_a_failure_at_every_step() {
    let mut names = BASIC.to_vec();
    names.extend(["new-one", "new-two"]);
    let ops = exhaust(
        "stores/basic",
        |_| {},
        |store| {
            store.extend(vec![
                record("new-one", "One", "Body."),
                record("new-two", "Two", "Body."),
            ])
        },
        Expect { names },
    );
    every_kind_of_step(
        &ops,
        &[
            IoOp::CreateRecord,
            IoOp::WriteRecord,
            IoOp::SyncRecord,
            IoOp::VerifyRecord,
            IoOp::WriteTemp,
            IoOp::SyncTemp,
            IoOp::Rename,
            IoOp::SyncDir,
        ],
    );
}

#[test]
fn consolidation_survives_a_failure_at_every_step() {
    let ops = exhaust(
        "stores/basic",
        |_| {},
        |store| {
            let base = base(store.workspace());
            store.apply_consolidation(
                &base,
                vec![
                    record("extracted-a", "A", "Body a."),
                    record("extracted-b", "B", "Body b."),
                ],
                &[
                    "user-preference-tabs".into(),
                    "review-feedback".into(),
                    "extracted-b".into(),
                ],
                vec![typed(
                    "code-style",
                    MemoryType::Feedback,
                    "Style rules",
                    "Tabs; small PRs.",
                )],
            )
        },
        Expect {
            names: vec![
                "project-database-rule",
                "windows-examples",
                "user-language",
                "ci-reference",
                "extracted-a",
                "code-style",
            ],
        },
    );
    every_kind_of_step(
        &ops,
        &[
            IoOp::CreateRecord,
            IoOp::Rename,
            IoOp::SyncDir,
            IoOp::RemoveReplaced,
        ],
    );
}

#[test]
fn replace_survives_a_failure_at_every_step() {
    // A rename keeps the record's place.
    let names: Vec<&str> = BASIC
        .iter()
        .map(|n| {
            if *n == "windows-examples" {
                "windows-and-linux-examples"
            } else {
                n
            }
        })
        .collect();
    let ops = exhaust(
        "stores/basic",
        |_| {},
        |store| {
            let base = store
                .read()
                .expect("readable")
                .get("windows-examples")
                .expect("present")
                .record
                .clone();
            let edited = typed(
                base.name(),
                base.kind(),
                "Examples target Windows",
                base.body(),
            );
            let renamed = typed(
                "windows-and-linux-examples",
                edited.kind(),
                edited.description(),
                "Both.",
            );
            store.replace(&base, renamed)
        },
        Expect { names },
    );
    every_kind_of_step(
        &ops,
        &[IoOp::CreateRecord, IoOp::Rename, IoOp::RemoveReplaced],
    );
}

#[test]
fn remove_survives_a_failure_at_every_step() {
    let mut names = BASIC.to_vec();
    names.retain(|n| *n != "ci-reference" && *n != "user-language");
    let ops = exhaust(
        "stores/basic",
        |_| {},
        |store| {
            let set = store.read().expect("readable");
            let doomed = ["ci-reference", "user-language"]
                .map(|n| set.get(n).expect("present").record.clone());
            store.remove(&doomed)
        },
        Expect { names },
    );
    every_kind_of_step(&ops, &[IoOp::WriteTemp, IoOp::Rename, IoOp::RemoveReplaced]);
    assert!(
        !ops.contains(&IoOp::CreateRecord),
        "a removal writes no record file"
    );
}

#[test]
fn rebuild_index_survives_a_failure_at_every_step() {
    let mut failed = Vec::new();
    for n in 0.. {
        assert!(n < 50, "never completed");
        let dir = copy_fixture_store("stores/basic");
        let index = dir.path().join(".memory/MEMORY.md");
        std::fs::write(&index, "- hand-edited and out of date\n").expect("write");
        let before = snapshot(dir.path());
        let hook = FailAt::new(n);
        let store = open_with(
            dir.path(),
            StoreOptions {
                hooks: IoHooks::new(hook.clone()),
                ..StoreOptions::default()
            },
        );
        let result = store.rebuild_index();
        assert!(!lock_held(dir.path()));
        match (hook.failed(), result) {
            (None, Ok(commit)) => {
                assert_eq!(
                    std::fs::read_to_string(&index).expect("index"),
                    commit.set.index_text()
                );
                assert_eq!(
                    std::fs::read(&index).expect("index"),
                    std::fs::read(fixture("stores/basic/.memory/MEMORY.md")).expect("golden")
                );
                break;
            }
            (Some((op, _)), Err(_)) => {
                failed.push(op);
                assert_unchanged(dir.path(), &before, &format!("step {n} ({op:?})"));
            }
            (Some((IoOp::SyncDir, _)), Ok(_)) => failed.push(IoOp::SyncDir),
            (failed_op, result) => panic!("step {n}: {failed_op:?} gave {result:?}"),
        }
    }
    every_kind_of_step(&failed, &[IoOp::WriteTemp, IoOp::SyncTemp, IoOp::Rename]);
}

#[test]
fn extend_into_an_empty_workspace_leaves_nothing_behind_on_failure() {
    for n in 0.. {
        assert!(n < 50, "never completed");
        let dir = workspace();
        let hook = FailAt::new(n);
        let store = open_with(
            dir.path(),
            StoreOptions {
                hooks: IoHooks::new(hook.clone()),
                ..StoreOptions::default()
            },
        );
        let result = store.extend(vec![record("first", "First", "Body.")]);
        assert!(!lock_held(dir.path()));
        match (hook.failed(), result) {
            (None, Ok(_)) => {
                assert_eq!(names(&store), ["first"]);
                break;
            }
            (Some((op, _)), Err(_)) => {
                // The empty `.memory` folder may stay; no file may.
                assert_eq!(snapshot(dir.path()), vec![], "step {n} ({op:?})");
                assert!(store.read().expect("readable").is_empty());
            }
            (Some((IoOp::SyncDir, _)), Ok(_)) => assert_eq!(names(&store), ["first"]),
            (failed_op, result) => panic!("step {n}: {failed_op:?} gave {result:?}"),
        }
    }
}
