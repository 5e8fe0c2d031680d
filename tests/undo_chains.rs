//! Undo of what only a `.memory` set has: adopting an unlisted record file and deleting one
//! (a Claude Code folder has no manifest, so no file is unlisted there). The undo chains both
//! formats share are in tests/conformance/undo.rs.

use crate::common;

use std::fs;

/// A `.memory` workspace holding one record and an unlisted record file beside it.
fn with_unlisted() -> (tempfile::TempDir, Vec<u8>) {
    let ws = tempfile::tempdir().expect("temp dir");
    let store = common::open(ws.path());
    store
        .extend(vec![common::record("keep", "stays", "Kept.")])
        .expect("seed");
    let draft = common::record("old-draft", "a draft", "Draft \u{1b}[2J body.");
    let bytes = memwb::store::codec::serialize(&draft).into_bytes();
    fs::write(ws.path().join(".memory/old-draft-0badf00d.md"), &bytes).expect("unlisted");
    (ws, bytes)
}

/// Adopting an unlisted file and deleting one are journaled like any change: `memwb undo`
/// walks them back too (the file unlisted again, or back in `.memory`), byte for byte.
#[test]
fn memwb_undo_walks_back_an_adoption_and_a_deletion_of_a_stray() {
    let (ws, bytes) = with_unlisted();
    let file = "old-draft-0badf00d.md";
    let path = ws.path().join(".memory").join(file);
    let store = common::open(ws.path());
    memwb::formats::memory::journal::strays::adopt(&store, file, &bytes).expect("adopt");
    assert_eq!(common::names(&store), ["keep", "old-draft"]);
    let undo = |args: &[&str]| common::cli::ok(common::cli::memwb(ws.path(), args));
    let said = undo(&["undo"]);
    assert!(said.contains(&format!("unlisted {file}")), "{said}");
    assert_eq!(common::names(&store), ["keep"]);
    assert_eq!(fs::read(&path).expect("unlisted again"), bytes);
    assert_eq!(store.inspect().unlisted, [file]);

    memwb::formats::memory::journal::strays::delete(&store, file, &bytes).expect("delete");
    assert!(!path.exists());
    let said = undo(&["undo"]);
    assert!(said.contains(&format!("restored {file}")), "{said}");
    assert!(!said.contains('\u{1b}'), "{said}");
    assert_eq!(fs::read(&path).expect("restored"), bytes);
    let log = undo(&["log"]);
    assert!(log.contains(&format!("deleted {file}")), "{log}");
    assert_eq!(common::names(&store), ["keep"]);
}

/// A deleted stray that holds a credential is kept with it redacted, as `repair --drop` keeps
/// a dropped record (docs/security.md: memwb never keeps a detected secret whole): undo puts
/// the file back with `[REDACTED]` in its place and says so; undoing that deletes it again.
#[test]
fn a_deleted_stray_holding_a_credential_is_kept_redacted_and_undo_says_so() {
    let ws = tempfile::tempdir().expect("temp dir");
    let store = common::open(ws.path());
    store
        .extend(vec![common::record("keep", "stays", "Kept.")])
        .expect("seed");
    let token = ["ghp_", "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"].concat();
    let file = "leaky-0badf00d.md";
    let path = ws.path().join(".memory").join(file);
    let bytes = format!("---\nname: leaky\n---\nThe CI token is {token}.\n").into_bytes();
    fs::write(&path, &bytes).expect("unlisted");

    memwb::formats::memory::journal::strays::delete(&store, file, &bytes).expect("delete");
    assert!(!path.exists());
    let dropped = ws.path().join(".memory/.memwb/dropped");
    let kept: Vec<Vec<u8>> = fs::read_dir(&dropped)
        .expect("dropped")
        .map(|e| fs::read(e.expect("entry").path()).expect("kept"))
        .collect();
    assert_eq!(kept.len(), 1);
    let kept = String::from_utf8(kept[0].clone()).expect("utf-8");
    assert!(!kept.contains(&token), "{kept}");
    assert!(kept.contains("[REDACTED]"), "{kept}");

    let run = |args: &[&str]| common::cli::ok(common::cli::memwb(ws.path(), args));
    let said = run(&["undo"]);
    assert!(said.contains(&format!("restored {file}")), "{said}");
    assert!(said.contains("a redacted secret is not restored"), "{said}");
    let back = fs::read_to_string(&path).expect("restored");
    assert_eq!(back, kept);
    // A plain undo never re-does; undoing the undo by its number deletes the file again.
    let undo_entry = memwb::review::Journal::of(&store)
        .entries()
        .expect("journal")
        .last()
        .expect("the undo")
        .id;
    let said = run(&["undo", &undo_entry.to_string()]);
    assert!(said.contains(&format!("deleted {file}")), "{said}");
    assert!(!path.exists());
}

/// A failure at every step of deleting a stray (and of undoing that): either nothing changed
/// (the file is there, nothing journaled) or, once the next writer recovers, the change is made
/// and journaled with the bytes kept. Never a file gone without its kept bytes.
#[test]
fn a_failure_at_every_step_of_deleting_a_stray_loses_nothing() {
    let file = "old-draft-0badf00d.md";
    for n in 0.. {
        let (ws, bytes) = with_unlisted();
        let failing = common::FailAt::new(n);
        let store = memwb::store::Store::open(
            ws.path(),
            memwb::store::StoreOptions {
                hooks: memwb::store::IoHooks::new(failing.clone()),
                ..memwb::store::StoreOptions::default()
            },
        )
        .expect("open");
        let result = memwb::formats::memory::journal::strays::delete(&store, file, &bytes);
        let plain = common::open(ws.path());
        {
            let _lock = plain.lock_for_write().expect("lock");
            memwb::review::Journal::of(&plain)
                .recover(&plain)
                .expect("recover");
        }
        let path = ws.path().join(".memory").join(file);
        let entries = memwb::review::Journal::of(&plain)
            .entries()
            .expect("journal");
        let deletion = entries.iter().find(|e| e.stray.is_some());
        if path.exists() {
            assert!(
                result.is_err(),
                "step {n}: reported deleted, but it is there"
            );
            assert_eq!(fs::read(&path).expect("kept"), bytes, "step {n}");
            assert!(
                deletion.is_none(),
                "step {n}: journaled a deletion that did not happen"
            );
        } else {
            let deletion = deletion.unwrap_or_else(|| panic!("step {n}: gone, not journaled"));
            memwb::formats::memory::journal::undo(&plain, deletion).expect("undo restores it");
            assert_eq!(fs::read(&path).expect("restored"), bytes, "step {n}");
        }
        assert_eq!(common::names(&plain), ["keep"], "step {n}");
        if failing.failed().is_none() {
            assert!(result.is_ok(), "{result:?}");
            break;
        }
    }
}
