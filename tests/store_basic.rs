use crate::common;

use common::*;
use memwb::store::inspect::IndexStatus;

#[test]
fn reference_stores_read_back_completely() {
    let basic = open(&fixture("stores/basic"));
    assert_eq!(
        names(&basic),
        [
            "user-preference-tabs",
            "project-database-rule",
            "windows-examples",
            "user-language",
            "ci-reference",
            "review-feedback"
        ]
    );
    let set = basic.read().unwrap();
    let index = std::fs::read_to_string(fixture("stores/basic/.memory/MEMORY.md")).unwrap();
    assert_eq!(set.index_text(), index);
    let consolidated = open(&fixture("stores/consolidated"));
    assert_eq!(
        names(&consolidated),
        [
            "project-database-rule",
            "windows-examples",
            "user-language",
            "ci-reference",
            "code-style"
        ]
    );
    let report = consolidated.inspect();
    assert_eq!(report.index.status, IndexStatus::InSync);
    assert!(report.findings().is_empty(), "{:?}", report.findings());
}

#[test]
fn extend_writes_what_the_reference_writes() {
    let dir = workspace();
    let store = open(dir.path());
    let commit = store
        .extend(vec![record("a-one", "First", "Body one.")])
        .unwrap();
    assert_eq!(commit.added, ["a-one"]);
    let file = &commit.set.entries[0].file;
    assert!(
        file.starts_with("a-one-") && file.len() == "a-one-".len() + 32 + 3,
        "{file}"
    );
    let root = dir.path().join(".memory");
    assert_eq!(
        std::fs::read_to_string(root.join("manifest.json")).unwrap(),
        format!("{{\"version\":1,\"files\":[\"{file}\"]}}")
    );
    assert_eq!(
        std::fs::read_to_string(root.join("MEMORY.md")).unwrap(),
        format!("- [a-one]({file}) - First\n")
    );
    assert_eq!(
        std::fs::read_to_string(root.join(file)).unwrap(),
        "---\nname: a-one\ndescription: First\ntype: project\n---\n\nBody one.\n"
    );
    assert!(!root.join(".lock").exists());
}

#[test]
fn a_handle_waiting_behind_another_of_this_process_times_out_clearly() {
    use memwb::store::{LockTiming, Store, StoreError, StoreOptions};
    let dir = workspace();
    let holder = open(dir.path());
    let _held = holder.lock_for_write().unwrap();
    let impatient = Store::open(
        dir.path(),
        StoreOptions {
            lock: LockTiming {
                timeout: std::time::Duration::from_millis(50),
                ..LockTiming::default()
            },
            ..StoreOptions::default()
        },
    )
    .unwrap();
    let err = impatient.extend(vec![record("x", "x", "x")]).unwrap_err();
    assert!(
        matches!(err, StoreError::QueueTimeout { waited_ms, .. } if waited_ms >= 50),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("another transaction of this process"),
        "{err}"
    );
}
