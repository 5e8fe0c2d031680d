//! Undo walks back a chain of changes of any length and any order of ops, on both formats:
//! one test body, run on a `.memory` set and on a Claude Code folder (the first conformance
//! case between the two backends). After each step the set is captured; undoing the entries
//! newest first must bring back each captured state in turn.

use crate::common;

use std::fs;

use common::formats::{BOTH, Folder};

/// Runs `steps` on `folder`: the state before each step and the journal entry each made.
fn run_steps(
    folder: &Folder,
    steps: &[&[&str]],
) -> (Vec<std::collections::BTreeMap<String, Vec<u8>>>, Vec<u64>) {
    let mut states = Vec::new();
    let mut ids = Vec::new();
    for step in steps {
        states.push(folder.state());
        folder.ok(step);
        ids.push(*folder.entry_ids().last().expect("journaled"));
    }
    (states, ids)
}

/// Runs `steps` on a fresh folder of each format, then undoes every step's entry newest first,
/// checking after each undo that the set is exactly what it was before that step.
fn walks_back(steps: &[&[&str]]) {
    for format in BOTH {
        let folder = Folder::new(format);
        let (states, ids) = run_steps(&folder, steps);
        for (id, before) in ids.iter().rev().zip(states.iter().rev()) {
            folder.ok(&["undo", &id.to_string()]);
            assert_eq!(
                &folder.state(),
                before,
                "{format:?}: after undoing #{id} of {steps:?}"
            );
        }
    }
}

/// Plain `undo`, again and again, steps back through history: each one reverts the newest
/// change not undone yet (never the undo before it), so the states come back newest first, and
/// once all are undone it says there is nothing left. Each names the entry it undid.
#[test]
fn plain_undo_steps_back_through_history_and_never_redoes() {
    let steps: [&[&str]; 4] = [
        &add("alpha", "one"),
        &["set", "alpha", "--body", "two"],
        &add("beta", "three"),
        &["set", "alpha", "--name", "gamma"],
    ];
    for format in BOTH {
        let folder = Folder::new(format);
        let (states, ids) = run_steps(&folder, &steps);
        for (id, before) in ids.iter().rev().zip(states.iter().rev()) {
            let said = folder.ok(&["undo"]);
            let undo_id = *folder.entry_ids().last().expect("journaled");
            assert!(
                said.starts_with(&format!("undid #{id} ("))
                    && said.contains(&format!(" as #{undo_id}: ")),
                "{format:?}: {said}"
            );
            assert_eq!(&folder.state(), before, "{format:?}: plain undo of #{id}");
        }
        let out = folder.run(&["undo"]);
        assert_eq!(out.status.code(), Some(2), "{format:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("no change left to undo"), "{format:?}: {err}");
    }
}

/// `undo N` reverts that one entry; a plain `undo` after it skips both the entry undone and
/// the undo, and reverts the newest change still in effect. `undo N` of an undo re-does.
#[test]
fn undo_n_reverts_one_entry_and_plain_undo_skips_it() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        folder.ok(&add("beta", "two"));
        // Body edits touch one file each, so the older one can be undone on its own on a
        // Claude Code folder too (MEMORY.md is not in them).
        folder.ok(&["set", "alpha", "--body", "one, edited"]);
        let before_beta_edit = folder.state();
        folder.ok(&["set", "beta", "--body", "two, edited"]);
        let ids = folder.entry_ids();
        let (alpha_edit, beta_edit) = (ids[2], ids[3]);
        let said = folder.ok(&["undo", &alpha_edit.to_string()]);
        assert!(
            said.starts_with(&format!("undid #{alpha_edit} (set)"))
                && said.contains("changed alpha"),
            "{format:?}: {said}"
        );
        let undo_of_alpha_edit = *folder.entry_ids().last().expect("journaled");
        let said = folder.ok(&["undo"]);
        assert!(
            said.starts_with(&format!("undid #{beta_edit} (set)")),
            "{format:?}: {said}"
        );
        // Undoing the undo by its number re-does alpha's edit: the state before beta's edit.
        folder.ok(&["undo", &undo_of_alpha_edit.to_string()]);
        assert_eq!(folder.state(), before_beta_edit, "{format:?}");
        // Undo entries are never a plain undo's target: the newest original change in effect
        // is alpha's edit again (its undo was undone).
        let said = folder.ok(&["undo"]);
        assert!(
            said.starts_with(&format!("undid #{alpha_edit} (set)")),
            "{format:?}: {said}"
        );
    }
}

fn add(name: &'static str, body: &'static str) -> [&'static str; 9] {
    common::cli::add_args(name, "what it is about", body)
}

#[test]
fn undo_walks_back_an_edit_then_a_rename() {
    walks_back(&[
        &add("alpha", "one"),
        &["set", "alpha", "--body", "two"],
        &["set", "alpha", "--name", "beta"],
    ]);
}

#[test]
fn undo_walks_back_a_remove_and_an_add_of_the_same_name() {
    walks_back(&[
        &add("x", "first"),
        &add("keep", "stays"),
        &["rm", "x"],
        &add("x", "first"),
        &["set", "x", "--name", "y"],
        &["rm", "keep"],
    ]);
}

#[test]
fn undo_walks_back_renames_back_and_forth() {
    walks_back(&[
        &add("a", "body"),
        &["set", "a", "--name", "b"],
        &["set", "b", "--name", "a"],
        &["set", "a", "--body", "changed"],
        &["set", "a", "--name", "c"],
    ]);
}

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
    memwb::review::strays::adopt(&store, file, &bytes).expect("adopt");
    assert_eq!(common::names(&store), ["keep", "old-draft"]);
    let undo = |args: &[&str]| common::cli::ok(common::cli::memwb(ws.path(), args));
    let said = undo(&["undo"]);
    assert!(said.contains(&format!("unlisted {file}")), "{said}");
    assert_eq!(common::names(&store), ["keep"]);
    assert_eq!(fs::read(&path).expect("unlisted again"), bytes);
    assert_eq!(store.inspect().unlisted, [file]);

    memwb::review::strays::delete(&store, file, &bytes).expect("delete");
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

    memwb::review::strays::delete(&store, file, &bytes).expect("delete");
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
        let result = memwb::review::strays::delete(&store, file, &bytes);
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
            memwb::review::undo(&plain, deletion).expect("undo restores it");
            assert_eq!(fs::read(&path).expect("restored"), bytes, "step {n}");
        }
        assert_eq!(common::names(&plain), ["keep"], "step {n}");
        if failing.failed().is_none() {
            assert!(result.is_ok(), "{result:?}");
            break;
        }
    }
}
