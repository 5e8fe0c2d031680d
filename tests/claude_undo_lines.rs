//! Undo on a Claude Code folder takes an entry's lines out of MEMORY.md as it is now, as
//! `git revert` does (docs/review.md, "Undo"): lines someone else wrote since are kept, and the
//! undo is refused, naming the file and line, only where the entry's own lines or the place
//! its removed lines go back were changed since. What only MEMORY.md has (a `.memory` index
//! is derived from its records); tests/conformance/undo_orders.rs runs the chains both formats
//! share.

use std::fs;

use crate::common;

use common::cli::{add_args, refused};
use common::formats::{Folder, Format};

fn index(folder: &Folder) -> String {
    fs::read_to_string(folder.root().join("MEMORY.md")).expect("MEMORY.md")
}

/// Rewrites MEMORY.md as another program would, each line through `edit` (`None` drops it).
fn edit_index(folder: &Folder, edit: impl Fn(&str) -> Option<String>) {
    let text: String = index(folder)
        .lines()
        .filter_map(edit)
        .map(|l| l + "\n")
        .collect();
    fs::write(folder.root().join("MEMORY.md"), text).expect("write MEMORY.md");
}

/// `add` of each name; the journal's id of each add.
fn with_memories(names: &[&'static str]) -> (Folder, Vec<u64>) {
    let folder = Folder::new(Format::Claude);
    for name in names {
        folder.ok(&add_args(name, &format!("about {name}"), "a body"));
    }
    let ids = folder.entry_ids();
    (folder, ids)
}

/// `undo id`, refused with `said`, with nothing written and nothing journaled.
fn refused_with(folder: &Folder, id: u64, said: &str) {
    let (before, entries) = (folder.state(), folder.entry_ids());
    let err = refused(folder.run(&["undo", &id.to_string()]));
    assert_eq!(
        err,
        format!("error: cannot undo entry {id}: {said}; nothing was changed\n")
    );
    assert_eq!(folder.state(), before, "refused: nothing written");
    assert_eq!(folder.entry_ids(), entries, "refused: nothing journaled");
}

#[test]
fn undo_keeps_the_lines_another_program_wrote_in_memory_md_since() {
    let (folder, ids) = with_memories(&["alpha", "beta"]);
    let mut theirs = format!("# My notes\n\n{}", index(&folder));
    theirs.push_str("- a line of my own\n");
    fs::write(folder.root().join("MEMORY.md"), &theirs).expect("write");
    folder.ok(&["undo", &ids[0].to_string()]);
    let alpha_line = theirs
        .lines()
        .find(|l| l.contains("[alpha]"))
        .expect("alpha's line")
        .to_owned();
    assert_eq!(
        index(&folder),
        theirs.replace(&format!("{alpha_line}\n"), "")
    );
    assert!(
        !folder.state().keys().any(|file| file.contains("alpha")),
        "alpha's file is gone: {:?}",
        folder.state().keys()
    );
}

#[test]
fn undo_is_refused_when_the_entrys_own_line_was_changed_since() {
    let (folder, ids) = with_memories(&["alpha", "beta"]);
    edit_index(&folder, |line| {
        Some(if line.contains("[alpha]") {
            format!("{line} (and a note of mine)")
        } else {
            line.to_owned()
        })
    });
    refused_with(
        &folder,
        ids[0],
        &format!("MEMORY.md line 1 was changed since #{}", ids[0]),
    );
}

#[test]
fn undo_of_a_removal_is_refused_when_both_neighbours_of_its_line_are_gone() {
    let (folder, _) = with_memories(&["alpha", "x", "beta"]);
    folder.ok(&["rm", "x"]);
    let removal = *folder.entry_ids().last().expect("journaled");
    edit_index(&folder, |line| Some(format!("{line} (edited by hand)")));
    refused_with(
        &folder,
        removal,
        &format!("the lines around MEMORY.md line 2 were changed since #{removal}"),
    );
}

/// A removal undone, its file then deleted by hand: a second undo of the removal would put
/// its MEMORY.md line back a second time.
#[test]
fn undo_of_a_removal_is_refused_when_its_lines_are_back_already() {
    let (folder, _) = with_memories(&["alpha", "x", "beta"]);
    folder.ok(&["rm", "x"]);
    let removal = *folder.entry_ids().last().expect("journaled");
    folder.ok(&["undo", &removal.to_string()]);
    let x_file: Vec<String> = folder
        .state()
        .into_keys()
        .filter(|file| file.ends_with("x.md"))
        .collect();
    assert_eq!(x_file.len(), 1, "{x_file:?}");
    fs::remove_file(folder.root().join(&x_file[0])).expect("rm by hand");
    refused_with(
        &folder,
        removal,
        &format!("the lines #{removal} removed are back at MEMORY.md line 2"),
    );
}
