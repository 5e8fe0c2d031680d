//! What a change did, in one line and by memory name, worded the same on every format:
//! "added a; changed b; removed c", or "renamed a to b". The answer of a write command, the
//! workbench's status line after a write, `memwb log` and the History view all say it this way
//! (docs/cli.md, "One idea, one word").

use crate::change::{FileImage, Touched, changed_index};

pub use crate::change::Changed;

use super::entry::{Entry, Op};
use super::filed::image_touched;

/// What a change's file images did to its memories (`indexes`, the files the format keeps
/// as its index, hold none).
fn of_files(files: &[FileImage], indexes: &[&str]) -> (Changed, Vec<Touched>) {
    let touched: Vec<Touched> = files
        .iter()
        .map(|image| image_touched(image, indexes.contains(&image.file.as_str())))
        .collect();
    (Changed::of_touched(&touched), touched)
}

/// One line for a journal entry, the same on every format: what it did to which memories
/// (an index it rewrote when it changed none), then the file outside the set it took in or
/// let go, the proposal, the entry it undid and the reason. `memwb log` and the History view
/// show it.
pub fn entry_summary(entry: &Entry) -> String {
    let mut parts = did(entry);
    if let Some(p) = &entry.proposal {
        parts.push(format!("proposal {} ({})", p.id, p.origin));
    }
    if let Some(undone) = entry.undoes {
        parts.push(format!("undoes #{undone}"));
    }
    if let Some(reason) = &entry.reason {
        parts.push(format!("reason: {reason}"));
    }
    parts.join("  ")
}

/// What `entry` did to the memories (an index it rewrote when it changed none), then the file
/// outside the set it took in or let go and the file a repair dropped: the start of its line.
fn did(entry: &Entry) -> Vec<String> {
    let change = entry.change();
    let changed = change.memories();
    let mut parts = Vec::new();
    let said = match entry.op {
        Op::Set | Op::Undo => changed.describe_edit(),
        _ => changed.describe(),
    };
    match (said, change.changed_index()) {
        (Some(said), _) => parts.push(said),
        // Said of the op, not of a file: a `.memory` entry keeps no image of its index.
        (None, _) if entry.op == Op::RebuildIndex => parts.push(REWROTE_INDEX.into()),
        (None, Some(index)) => parts.push(format!("rewrote {index}")),
        (None, None) => {}
    }
    if let Some(stray) = &entry.stray {
        parts.push(format!("{} {}", stray.action.as_str(), stray.file));
    }
    if let Some(dropped) = &entry.dropped {
        parts.push(format!("dropped {}", dropped.file));
    }
    parts
}

/// What the change of `entry` did, as a command answers it ("added a; changed b", "renamed a
/// to b"): said from its journal entry when the change is in place but the entry could not be
/// marked (`ReviewError::NotJournaled`), the same on every format.
pub(crate) fn entry_did(entry: &Entry) -> String {
    let parts = did(entry);
    if parts.is_empty() {
        NOTHING_CHANGED.into()
    } else {
        parts.join("; ")
    }
}

/// What an index rebuild says it did.
pub const REWROTE_INDEX: &str = "rewrote the index";

/// What a change says it did when it changed no memory.
pub const NOTHING_CHANGED: &str = "nothing to change";

/// What a commit did: "added a; changed b; removed c".
pub fn commit_summary(changed: impl Into<Changed>) -> String {
    changed
        .into()
        .describe()
        .unwrap_or_else(|| NOTHING_CHANGED.into())
}

/// What an undo did, worded as `memwb log` says its entry: as [`commit_summary`], and a memory
/// that went while another came is "renamed a to b" (the undo of a rename, said as one).
pub fn undo_commit_summary(changed: impl Into<Changed>) -> String {
    changed
        .into()
        .describe_edit()
        .unwrap_or_else(|| NOTHING_CHANGED.into())
}

/// [`files_summary`] of an undo, worded as [`undo_commit_summary`].
pub fn undo_files_summary(files: &[FileImage], indexes: &[&str]) -> String {
    of_files(files, indexes)
        .0
        .describe_edit()
        .unwrap_or_else(|| files_summary(files, indexes))
}

/// What a change of whole files did, worded as [`commit_summary`]; an index (one of
/// `indexes`) is named when it is all that changed (an index fix, an approved edit of it).
pub fn files_summary(files: &[FileImage], indexes: &[&str]) -> String {
    let (changed, touched) = of_files(files, indexes);
    if let Some(said) = changed.describe() {
        return said;
    }
    match changed_index(&touched) {
        Some(index) => format!("changed {index}"),
        None => NOTHING_CHANGED.into(),
    }
}
