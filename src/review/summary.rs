//! What a change did, in one line and by memory name, worded the same on every format:
//! "added a; changed b; removed c", or "renamed a to b". The answer of a write command, the
//! workbench's status line after a write, `memwb log` and the History view all say it this way
//! (docs/cli.md, "One idea, one word").

use crate::change::FileImage;
use crate::claude::index::{ARCHIVE_FILE, INDEX_FILE};
use crate::review::proposal::images::topic_name;
use crate::store::Commit;

use super::entry::{Entry, JournalRecord, Op};

/// The memories a change added, changed and removed, by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changed {
    pub added: Vec<String>,
    pub changed: Vec<String>,
    pub removed: Vec<String>,
}

impl Changed {
    /// What a `.memory` commit did.
    pub fn of_commit(commit: &Commit) -> Self {
        Self {
            added: commit.added.clone(),
            changed: commit.changed.clone(),
            removed: commit.removed.clone(),
        }
    }

    /// What file images of a Claude Code folder did to its memories (MEMORY.md and its archive
    /// are the index, not memories). A file whose `name` changed counts as one memory removed
    /// and another added, as a rename that writes a new file does.
    pub fn of_files(files: &[FileImage]) -> Self {
        let named =
            |file: &str, text: &Option<String>| text.as_deref().map(|text| topic_name(file, text));
        let mut before = Vec::new();
        let mut after = Vec::new();
        for image in files.iter().filter(|f| !is_index(&f.file)) {
            before.extend(named(&image.file, &image.before));
            after.extend(named(&image.file, &image.after));
        }
        Self::between(&before, &after)
    }

    /// What a journal entry did, on either format.
    pub fn of_entry(entry: &Entry) -> Self {
        let names = |records: &[JournalRecord]| -> Vec<String> {
            records.iter().map(|r| r.record.name.clone()).collect()
        };
        let mut changed = Self::between(&names(&entry.before), &names(&entry.after));
        let files = Self::of_files(&entry.files);
        changed.added.extend(files.added);
        changed.changed.extend(files.changed);
        changed.removed.extend(files.removed);
        changed
    }

    /// Names in both lists changed; the others were added or removed. Order is kept.
    fn between(before: &[String], after: &[String]) -> Self {
        Self {
            added: after
                .iter()
                .filter(|n| !before.contains(n))
                .cloned()
                .collect(),
            changed: after
                .iter()
                .filter(|n| before.contains(n))
                .cloned()
                .collect(),
            removed: before
                .iter()
                .filter(|n| !after.contains(n))
                .cloned()
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }

    /// "added a; changed b; removed c" (`None` when nothing changed).
    pub fn describe(&self) -> Option<String> {
        let parts: Vec<String> = [
            ("added", &self.added),
            ("changed", &self.changed),
            ("removed", &self.removed),
        ]
        .into_iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(label, names)| format!("{label} {}", names.join(", ")))
        .collect();
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// "renamed a to b" when exactly one memory went and another came, else [`Changed::describe`].
    pub fn describe_edit(&self) -> Option<String> {
        match (
            self.removed.as_slice(),
            self.added.as_slice(),
            self.changed.is_empty(),
        ) {
            ([from], [to], true) => Some(format!("renamed {from} to {to}")),
            _ => self.describe(),
        }
    }
}

fn is_index(file: &str) -> bool {
    file == INDEX_FILE || file == ARCHIVE_FILE
}

/// One line for a journal entry, the same on both formats: what it did to which memories,
/// then the file outside the set it took in or let go, the proposal, the entry it undid and
/// the reason. `memwb log` and the History view show it.
pub fn entry_summary(entry: &Entry) -> String {
    let changed = Changed::of_entry(entry);
    let mut parts = Vec::new();
    let said = match entry.op {
        Op::Set | Op::Undo => changed.describe_edit(),
        _ => changed.describe(),
    };
    match said {
        Some(said) => parts.push(said),
        None if entry.op == Op::RebuildIndex || touches_index(entry) => {
            parts.push(format!("rewrote {INDEX_FILE}"))
        }
        None => {}
    }
    if let Some(stray) = &entry.stray {
        parts.push(format!("{} {}", stray.action.as_str(), stray.file));
    }
    if let Some(dropped) = &entry.dropped {
        parts.push(format!("dropped {}", dropped.file));
    }
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

/// Whether the entry changed MEMORY.md (or its archive) on a Claude Code folder.
fn touches_index(entry: &Entry) -> bool {
    entry
        .files
        .iter()
        .any(|f| is_index(&f.file) && f.before != f.after)
        || entry.lines.iter().any(|l| !l.is_empty())
}

/// What a change says it did when it changed no memory.
pub const NOTHING_CHANGED: &str = "nothing to change";

/// What a `.memory` commit did: "added a; changed b; removed c".
pub fn commit_summary(commit: &Commit) -> String {
    Changed::of_commit(commit)
        .describe()
        .unwrap_or_else(|| NOTHING_CHANGED.into())
}

/// What an undo did, worded as `memwb log` says its entry: as [`commit_summary`], and a memory
/// that went while another came is "renamed a to b" (the undo of a rename, said as one).
pub fn undo_commit_summary(commit: &Commit) -> String {
    Changed::of_commit(commit)
        .describe_edit()
        .unwrap_or_else(|| NOTHING_CHANGED.into())
}

/// [`files_summary`] of an undo, worded as [`undo_commit_summary`].
pub fn undo_files_summary(files: &[FileImage]) -> String {
    Changed::of_files(files)
        .describe_edit()
        .unwrap_or_else(|| files_summary(files))
}

/// What a change of a Claude Code folder's files did, worded as [`commit_summary`]; MEMORY.md
/// is named when it is all that changed (an index fix, an approved edit of the index).
pub fn files_summary(files: &[FileImage]) -> String {
    if let Some(said) = Changed::of_files(files).describe() {
        return said;
    }
    match files
        .iter()
        .find(|f| is_index(&f.file) && f.before != f.after)
    {
        Some(index) => format!("changed {}", index.file),
        None => NOTHING_CHANGED.into(),
    }
}
