//! Undo chains taken in other orders than newest first: an older add after a rename, a removal
//! and the re-add of its name undone in either order, and an undo undone after later changes.
//! Each undo reverts its one entry whatever came after it; a refusal names the memory in one
//! wording on both formats and changes nothing, also when another program changed the memory.

use super::undo::{State, after_steps, run_steps};
use super::{add, file_of};
use crate::common::formats::{BOTH, Folder, Format};

/// `folder`'s state to compare with a fresh folder's. A memory a `.memory` undo brings back
/// comes back at the end of the manifest (docs/review.md, "Undo"), so there the index's order
/// is left out; a Claude Code undo puts its MEMORY.md line back where it was.
fn set_of(format: Format, mut state: State) -> State {
    if let Format::Memory = format {
        state.remove("MEMORY.md");
    }
    state
}

/// Runs `undo id`, which must be refused with `said` and change nothing: the error.
fn refused(folder: &Folder, id: u64, said: &str) -> String {
    let (before, entries) = (folder.comparable_state(), folder.entry_ids());
    let out = folder.run(&["undo", &id.to_string()]);
    let err = super::stderr(&out);
    let context = format!("{:?}: undo #{id}", folder.format);
    assert_eq!(out.status.code(), Some(2), "{context}: {err}");
    assert_eq!(
        err,
        format!("error: cannot undo entry {id}: {said}; nothing was changed\n"),
        "{context}"
    );
    assert_eq!(folder.comparable_state(), before, "{context}: refused");
    assert_eq!(folder.entry_ids(), entries, "{context}: nothing journaled");
    err
}

/// An add older than a rename of another memory undoes on its own; the add of the renamed
/// memory is refused while it is renamed (the memory it added is gone by that name), and
/// undoes once the rename is undone.
#[test]
fn an_older_add_undoes_after_a_rename_on_both_formats() {
    let steps: [&[&str]; 4] = [
        &add("keep", "kept"),
        &add("alpha", "one"),
        &add("beta", "two"),
        &["set", "beta", "--name", "gamma"],
    ];
    for format in BOTH {
        let folder = Folder::new(format);
        let (_, ids) = run_steps(&folder, &steps);
        let undo = |step: usize, in_effect: &[usize]| {
            folder.ok(&["undo", &ids[step].to_string()]);
            let remaining: Vec<&[&str]> = in_effect.iter().map(|s| steps[*s]).collect();
            assert_eq!(
                folder.comparable_state(),
                after_steps(format, &remaining),
                "{format:?}: after undoing {:?}",
                steps[step]
            );
        };
        undo(1, &[0, 2, 3]);
        refused(
            &folder,
            ids[2],
            &format!("\"beta\" was removed since #{}", ids[2]),
        );
        undo(3, &[0, 2]);
        undo(2, &[0]);
    }
}

/// A removal and the re-add of its name, undone newest first, give back each state in turn;
/// undone oldest first, the removal's undo is refused while the name is taken, and once the
/// re-add is undone it brings the first memory back, byte for byte, in its place.
#[test]
fn a_removal_and_the_re_add_of_its_name_undo_in_either_order_on_both_formats() {
    let steps: [&[&str]; 4] = [
        &add("x", "the first x"),
        &add("keep", "kept"),
        &["rm", "x"],
        &add("x", "the second x"),
    ];
    for format in BOTH {
        for newest_first in [true, false] {
            let folder = Folder::new(format);
            let (states, ids) = run_steps(&folder, &steps);
            let context = format!("{format:?}, newest first: {newest_first}");
            if !newest_first {
                refused(
                    &folder,
                    ids[2],
                    &format!("\"x\" was added again since #{}", ids[2]),
                );
            }
            folder.ok(&["undo", &ids[3].to_string()]);
            assert_eq!(folder.state(), states[3], "{context}: the re-add undone");
            folder.ok(&["undo", &ids[2].to_string()]);
            assert_eq!(folder.state(), states[2], "{context}: the removal undone");
        }
    }
}

/// An undo undone after later changes re-does its entry and keeps theirs; undone a second
/// time while the memory it brings back is there, it is refused by that memory's name; the
/// undo of that re-do takes it out again.
#[test]
fn an_undo_undone_after_later_changes_re_does_its_entry_on_both_formats() {
    let steps: [&[&str]; 3] = [
        &add("keep", "kept"),
        &add("alpha", "one"),
        &add("beta", "two"),
    ];
    for format in BOTH {
        let folder = Folder::new(format);
        let (_, ids) = run_steps(&folder, &steps);
        folder.ok(&["undo", &ids[1].to_string()]);
        let undo_of_alpha = *folder.entry_ids().last().expect("journaled");
        folder.ok(&add("gamma", "three"));
        folder.ok(&["undo", &undo_of_alpha.to_string()]);
        let redo = *folder.entry_ids().last().expect("journaled");
        let all = [steps[0], steps[1], steps[2], &add("gamma", "three")];
        assert_eq!(
            set_of(format, folder.comparable_state()),
            set_of(format, after_steps(format, &all)),
            "{format:?}: alpha is back, gamma kept"
        );
        refused(
            &folder,
            undo_of_alpha,
            &format!("\"alpha\" was added again since #{undo_of_alpha}"),
        );
        folder.ok(&["undo", &redo.to_string()]);
        let without_alpha = [steps[0], steps[2], &add("gamma", "three")];
        assert_eq!(
            folder.comparable_state(),
            after_steps(format, &without_alpha),
            "{format:?}: alpha is out again"
        );
    }
}

/// Another program appends a line to memory `name`'s file: its bytes before.
fn edited_outside(folder: &Folder, name: &str) -> (std::path::PathBuf, Vec<u8>) {
    let path = file_of(folder, name);
    let written = std::fs::read(&path).expect("read");
    let mut edited = written.clone();
    edited.extend_from_slice(b"Edited by another program.\n");
    std::fs::write(&path, edited).expect("edit outside");
    (path, written)
}

/// A memory another program changed after the entry wrote it blocks the entry's undo, named
/// alike on both formats, nothing changed and nothing journaled; once its bytes are put back,
/// the undo goes on.
#[test]
fn an_outside_edit_of_what_the_entry_wrote_blocks_its_undo_until_it_is_put_back_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("keep", "kept"));
        let before = folder.comparable_state();
        folder.ok(&add("alpha", "one"));
        let id = *folder.entry_ids().last().expect("journaled");
        let (path, written) = edited_outside(&folder, "alpha");
        refused(&folder, id, &format!("\"alpha\" was changed since #{id}"));
        std::fs::write(&path, written).expect("put back");
        folder.ok(&["undo", &id.to_string()]);
        assert_eq!(
            set_of(format, folder.comparable_state()),
            set_of(format, before),
            "{format:?}: alpha's add undone"
        );
    }
}

/// An undo blocked on two counts is refused by what its entry wrote before the name it freed,
/// alike on both formats: a rename whose new memory another program changed, and whose old
/// name a later add took again, is refused by the renamed memory.
#[test]
fn an_undo_blocked_twice_names_what_its_entry_wrote_first_on_both_formats() {
    for format in BOTH {
        let folder = Folder::new(format);
        folder.ok(&add("alpha", "one"));
        folder.ok(&["set", "alpha", "--name", "beta"]);
        let rename = *folder.entry_ids().last().expect("journaled");
        folder.ok(&add("alpha", "another alpha"));
        edited_outside(&folder, "beta");
        refused(
            &folder,
            rename,
            &format!("\"beta\" was changed since #{rename}"),
        );
    }
}
