//! The behaviours the reference's own test suite checks for its `MemoryStore`, ported.

use crate::common;

use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use common::*;
use memwb::store::{
    FaultHook, IoHooks, IoOp, MemoryType, Record, RecordError, RecordInput, Store, StoreError,
    StoreOptions,
};

mod files;
mod records;
mod writers;

fn input(name: &str, kind: &str, description: &str, body: &str) -> RecordInput {
    RecordInput {
        name: name.into(),
        kind: kind.into(),
        description: description.into(),
        body: body.into(),
    }
}

#[test]
fn a_hand_edited_record_over_budget_or_malformed_makes_the_set_unreadable() {
    let dir = copy_fixture_store("stores/basic");
    let set = open(dir.path()).read().expect("readable");
    let file = dir.path().join(".memory").join(&set.entries[0].file);
    let text = fs::read_to_string(&file).expect("record");
    fs::write(&file, format!("{text}{}", "x\n".repeat(200))).expect("enlarge");
    let err = open(dir.path()).read().expect_err("over budget");
    assert!(matches!(err, StoreError::RecordInvalid { .. }), "{err}");
    fs::write(&file, text.replace("type: user", "type: 1")).expect("edit");
    assert!(matches!(
        open(dir.path()).read(),
        Err(StoreError::RecordInvalid { .. })
    ));
    fs::remove_file(&file).expect("delete");
    assert!(matches!(
        open(dir.path()).read(),
        Err(StoreError::RecordMissing { .. })
    ));
}

#[test]
fn removal_and_replace_commit_in_the_reference_order() {
    let dir = copy_fixture_store("stores/basic");
    let store = open(dir.path());
    let set = store.read().expect("readable");
    let windows = set.get("windows-examples").expect("present").clone();
    let edited = typed(
        "windows-examples",
        MemoryType::Project,
        "Examples target Windows 11",
        windows.record.body(),
    );
    let commit = store
        .replace(&windows.record, edited.clone())
        .expect("replace");
    assert_eq!(commit.changed, ["windows-examples"]);
    let after = store.read().expect("readable");
    // The edited version is a new file in the old one's place (memwb's rule for an edit; the
    // reference's hand edit goes through apply_consolidation, which appends, and a
    // consolidation still does: see the consolidated fixture); the old file is gone.
    let place = set
        .entries
        .iter()
        .position(|e| e.file == windows.file)
        .expect("listed");
    assert_eq!(after.entries[place].record, edited);
    assert_eq!(after.len(), set.len());
    assert!(!dir.path().join(".memory").join(&windows.file).exists());
    let commit = store.remove(std::slice::from_ref(&edited)).expect("remove");
    assert_eq!(commit.removed, ["windows-examples"]);
    assert!(
        store
            .read()
            .expect("readable")
            .get("windows-examples")
            .is_none()
    );
    assert!(open(dir.path()).inspect().findings().is_empty());
}

#[test]
fn store_handles_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Store>();
}

#[test]
fn reference_stores_read_back_byte_for_byte() {
    for store_name in ["stores/basic", "stores/consolidated"] {
        let dir = fixture(store_name);
        let set = open(&dir).read().expect("readable");
        assert!(set.len() >= 5, "{store_name}");
        for entry in &set.entries {
            let on_disk =
                fs::read_to_string(dir.join(".memory").join(&entry.file)).expect("record");
            assert_eq!(
                entry.record.to_file_text(),
                on_disk,
                "{store_name}/{}",
                entry.file
            );
            assert!(entry.file.starts_with(&format!("{}-", entry.record.name())));
        }
        let manifest = fs::read_to_string(dir.join(".memory/manifest.json")).expect("manifest");
        assert_eq!(
            memwb::store::manifest::render(&set.files()),
            manifest,
            "{store_name}"
        );
        let index = fs::read_to_string(dir.join(".memory/MEMORY.md")).expect("index");
        assert_eq!(set.index_text(), index, "{store_name}");
    }
}
