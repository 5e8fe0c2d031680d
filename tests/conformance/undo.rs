//! Undo walks back a chain of changes of any length and any order of ops (edits, renames,
//! removals and re-adds of the same name): after each step the set is captured; undoing the
//! entries newest first must bring back each captured state in turn.

use super::add;
use crate::common::formats::{BOTH, Folder};

/// Runs `steps` on `folder`: the state before each step and the journal entry each made.
pub(super) fn run_steps(
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

/// A removal cannot be undone while its name is taken again (the memory was added anew since):
/// refused, nothing changed; once the new one is removed, the removal's undo
/// brings back the memory it removed, byte for byte.
#[test]
fn undoing_a_removal_whose_name_was_added_again_is_refused_until_it_is_free_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("x", "the first x"));
        let first = folder.state();
        folder.ok(&["rm", "x"]);
        let removal = *folder.entry_ids().last().expect("journaled");
        folder.ok(&add("x", "the second x"));
        let before = folder.comparable_state();
        let out = folder.run(&["undo", &removal.to_string()]);
        assert_eq!(out.status.code(), Some(2), "{format:?}");
        let err = super::stderr(&out);
        assert!(
            err.contains(&format!("cannot undo entry {removal}: "))
                && err.contains("nothing was changed"),
            "{format:?}: {err}"
        );
        assert_eq!(folder.comparable_state(), before, "{format:?}: refused");
        folder.ok(&["rm", "x"]);
        folder.ok(&["undo", &removal.to_string()]);
        assert_eq!(folder.state(), first, "{format:?}: the first x is back");
    }
}

/// The state of a fresh folder of `format` after `steps`, comparable with another folder's
/// (`Folder::comparable_state`).
pub(super) fn after_steps(format: crate::common::formats::Format, steps: &[&[&str]]) -> State {
    let folder = Folder::new(format);
    for step in steps {
        folder.ok(step);
    }
    folder.comparable_state()
}

pub(super) type State = std::collections::BTreeMap<String, Vec<u8>>;

/// A chain of changes of separate memories undone out of order, by entry number: each undo
/// reverts its one entry whatever came after it, so the set is what the entries still in
/// effect make on a fresh folder. An entry whose memory a later entry changed is refused,
/// naming the memory, with nothing changed; once that later entry is undone, it undoes.
#[test]
fn a_chain_undone_out_of_order_reverts_each_entry_on_its_own_on_both_formats() {
    // `keep` is never undone, so every folder compared holds a set.
    let steps: [&[&str]; 7] = [
        &add("keep", "kept"),
        &add("alpha", "one"),
        &add("beta", "two"),
        &add("gamma", "three"),
        &["set", "beta", "--body", "two, edited"],
        &["set", "gamma", "--name", "delta"],
        &["set", "alpha", "--description", "alpha, described anew"],
    ];
    // Which step to undo (by its index in `steps`), in this order, and whether it undoes.
    let order: [(usize, bool); 7] = [
        (4, true),
        (2, true),
        (5, true),
        (1, false),
        (6, true),
        (1, true),
        (3, true),
    ];
    for format in BOTH {
        let folder = Folder::new(format);
        let (_, ids) = run_steps(&folder, &steps);
        let mut in_effect: Vec<usize> = (0..steps.len()).collect();
        for (step, undoes) in order {
            let id = ids[step];
            let before = folder.comparable_state();
            let out = folder.run(&["undo", &id.to_string()]);
            let context = format!("{format:?}: undo #{id} ({:?})", steps[step]);
            if !undoes {
                assert_eq!(out.status.code(), Some(2), "{context}");
                let err = super::stderr(&out);
                assert!(
                    err.contains(&format!("cannot undo entry {id}: "))
                        && err.contains("\"alpha\" was changed since")
                        && err.contains("nothing was changed"),
                    "{context}: {err}"
                );
                assert_eq!(folder.comparable_state(), before, "{context}");
                continue;
            }
            assert_eq!(
                out.status.code(),
                Some(0),
                "{context}: {}",
                super::stderr(&out)
            );
            in_effect.retain(|s| *s != step);
            let remaining: Vec<&[&str]> = in_effect.iter().map(|s| steps[*s]).collect();
            assert_eq!(
                folder.comparable_state(),
                after_steps(format, &remaining),
                "{context}: the set should be what {remaining:?} make"
            );
        }
        assert_eq!(in_effect, [0], "{format:?}: only keep's add is left");
    }
}

/// The refusal to undo a removal whose name was added again names the memory, in one wording on
/// both formats (a Claude Code folder says "MEMORY.md changed since #N").
#[test]
fn the_refused_undo_of_a_removal_names_the_memory_alike_on_both_formats() {
    let mut said = Vec::new();
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("x", "the first x"));
        folder.ok(&["rm", "x"]);
        folder.ok(&add("x", "the second x"));
        let out = folder.run(&["undo", "2"]);
        assert_eq!(out.status.code(), Some(2), "{format:?}");
        said.push(super::stderr(&out));
    }
    assert!(said[0].contains("\"x\""), "{}", said[0]);
    assert_eq!(said[0], said[1], "one wording on both formats");
}

/// The undo of a rename says what it did as a rename, as `memwb log` says its entry, on both
/// formats (it said "added alpha; removed beta").
#[test]
fn the_undo_of_a_rename_is_said_as_a_rename_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "body"));
        folder.ok(&["set", "alpha", "--name", "beta"]);
        let said = folder.ok(&["undo"]);
        assert!(
            said.trim_end().ends_with(": renamed beta to alpha"),
            "{format:?}: {said}"
        );
        let log = folder.ok(&["log"]);
        let last = log.lines().last().unwrap_or_default();
        assert!(last.contains("renamed beta to alpha"), "{format:?}: {log}");
    }
}
