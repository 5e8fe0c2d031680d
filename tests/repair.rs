//! Repairing a listed entry that does not read, so the rest of the set becomes usable again.

use crate::common;

use std::fs;

use std::path::Path;

use common::{names, open, record, workspace};
use memwb::store::{StoreError, codec};

fn break_entry(dir: &Path, index: usize) -> (String, Vec<u8>) {
    let store = open(dir);
    let file = store.read().unwrap().entries[index].file.clone();
    let bad = b"---\nname: broken\ndescription: [not, a, string]\ntype: user\n---\n\nb\n".to_vec();
    std::fs::write(dir.join(".memory").join(&file), &bad).unwrap();
    (file, bad)
}

#[test]
fn an_invalid_entry_is_replaced_in_place_and_its_file_removed() {
    let dir = workspace();
    let store = open(dir.path());
    store
        .extend(vec![
            record("first", "f", "b"),
            record("middle", "m", "b"),
            record("last", "l", "b"),
        ])
        .unwrap();
    let (file, bad) = break_entry(dir.path(), 1);
    assert!(store.read().is_err(), "the set is unreadable");
    assert!(matches!(
        store.extend(vec![record("x", "x", "x")]),
        Err(StoreError::RecordInvalid { .. })
    ));

    let fixed = record("middle", "fixed by hand", "b");
    let commit = store
        .repair_entry(&file, Some(&bad), Some(fixed.clone()))
        .unwrap();
    assert_eq!(commit.added, ["middle"]);
    assert_eq!(
        names(&store),
        ["first", "middle", "last"],
        "repaired in place"
    );
    assert_eq!(store.read().unwrap().get("middle").unwrap().record, fixed);
    // No journal kept the bad bytes, so the engine left the file in place, unlisted, rather
    // than delete them (the CLI and the workbench journal them and delete it).
    assert_eq!(
        fs::read(dir.path().join(".memory").join(&file)).unwrap(),
        bad
    );
    fs::remove_file(dir.path().join(".memory").join(&file)).unwrap();
    assert!(
        store.inspect().findings().is_empty(),
        "{:?}",
        store.inspect().findings()
    );
}

#[test]
fn an_entry_can_be_dropped_and_a_missing_one_too() {
    let dir = workspace();
    let store = open(dir.path());
    store
        .extend(vec![record("keep", "k", "b"), record("gone", "g", "b")])
        .unwrap();
    let file = store.read().unwrap().entries[1].file.clone();
    std::fs::remove_file(dir.path().join(".memory").join(&file)).unwrap();
    assert!(matches!(
        store.read(),
        Err(StoreError::RecordMissing { .. })
    ));
    store.repair_entry(&file, None, None).unwrap();
    assert_eq!(names(&store), ["keep"]);
}

#[test]
fn a_changed_or_valid_entry_is_refused_with_nothing_written() {
    let dir = workspace();
    let store = open(dir.path());
    store
        .extend(vec![record("one", "o", "b"), record("two", "t", "b")])
        .unwrap();
    let (file, _) = break_entry(dir.path(), 0);
    let before = common::snapshot(dir.path());
    let stale = store.repair_entry(&file, Some(b"something else"), None);
    assert!(
        matches!(stale, Err(StoreError::Conflict { .. })),
        "{stale:?}"
    );
    let valid_file = store.inspect().entries[1].file.clone();
    let bytes = store.entry_bytes(&valid_file);
    let refused = store.repair_entry(&valid_file, bytes.as_deref(), None);
    assert!(
        matches!(refused, Err(StoreError::NotBroken { .. })),
        "{refused:?}"
    );
    assert!(matches!(
        store.repair_entry("nope-1.md", None, None),
        Err(StoreError::NotListed { .. })
    ));
    assert_eq!(common::snapshot(dir.path()), before);
}

#[test]
fn the_cli_repairs_from_a_corrected_file_and_journals_it() {
    let dir = workspace();
    let store = open(dir.path());
    store.extend(vec![record("one", "o", "b")]).unwrap();
    let (file, _) = break_entry(dir.path(), 0);
    let corrected = dir.path().join("fixed.md");
    std::fs::write(&corrected, record("one", "repaired", "b").to_file_text()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_memwb"))
        .arg("-C")
        .arg(dir.path())
        .args(["repair", &file, "--from", corrected.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        store
            .read()
            .unwrap()
            .get("one")
            .unwrap()
            .record
            .description(),
        "repaired"
    );
    let log = memwb::review::Journal::of(&store).entries().unwrap();
    assert_eq!(log.last().unwrap().op, memwb::review::Op::Repair);
    assert!(codec::parse(&std::fs::read(&corrected).unwrap()).is_ok());
}
