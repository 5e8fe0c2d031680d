//! What a change did, in one line and by memory name, worded the same on every format:
//! "added a; changed b; removed c", or "renamed a to b". The answer of a write command, the
//! workbench's status line after a write, `memwb log` and the History view all say it this way
//! (docs/cli.md, "One idea, one word").

use std::collections::HashMap;

use crate::change::{Change, FileImage, Side, Touched, changed_index};
use crate::redact::redact;

pub use crate::change::Changed;

use super::entry::{Entry, Op};
use super::filed::image_touched;
use super::filed::images::topic_name;

/// What a change's file images did to its memories (`indexes`, the files the format keeps
/// as its index, hold none), by name [`as_said`].
fn of_files(files: &[FileImage], indexes: &[&str]) -> (Changed, Vec<Touched>) {
    let touched: Vec<Touched> = files
        .iter()
        .map(|image| image_touched(image, indexes.contains(&image.file.as_str())))
        .collect();
    (as_said(Changed::of_touched(&touched)), touched)
}

/// `changed` with every name as a summary says it: its credentials redacted, and sorted again
/// into added, changed and removed by the names as said. A summary built from a file's text
/// (a commit, a proposal's or an undo's images, a file as it is now) names a memory from that
/// text, which may hold a secret the journal keeps redacted: said whole, it would reach the
/// status line and every output; compared whole with the journal's redacted side, one memory
/// would read as renamed to itself. The names of a journal entry are its redacted copy already.
fn as_said(changed: Changed) -> Changed {
    let redacts = |names: &[String]| names.iter().any(|n| redact(n) != n.as_str());
    if !redacts(&changed.added) && !redacts(&changed.changed) && !redacts(&changed.removed) {
        return changed;
    }
    let said = |lists: [&[String]; 2]| -> Vec<String> {
        lists
            .into_iter()
            .flatten()
            .map(|n| redact(n).into_owned())
            .collect()
    };
    // `between` keeps each list's order, so each list comes out in the order it went in.
    Changed::between(
        &said([&changed.removed, &changed.changed]),
        &said([&changed.added, &changed.changed]),
    )
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
    as_said(changed.into())
        .describe()
        .unwrap_or_else(|| NOTHING_CHANGED.into())
}

/// What an undo did, worded as `memwb log` says its entry: as [`commit_summary`], and a memory
/// that went while another came is "renamed a to b" (the undo of a rename, said as one).
pub fn undo_commit_summary(changed: impl Into<Changed>) -> String {
    as_said(changed.into())
        .describe_edit()
        .unwrap_or_else(|| NOTHING_CHANGED.into())
}

/// What an undo did, from the images it writes (`files`), worded as [`undo_commit_summary`];
/// an index (one of `indexes`) is named when it is all that changed, as [`files_summary`]
/// names it. Each side's memory is named as `inverse` (the change the undo wrote, where the
/// caller has it) names it, instead of read again through the file's frontmatter: the same
/// words, for what the undo wrote on a side is what the inverse kept there. A side the inverse
/// kept redacted (its name may be a redaction of the file's) or does not hold, and every side
/// without an inverse, is read from the image.
pub fn undo_files_summary(
    files: &[FileImage],
    indexes: &[&str],
    inverse: Option<&Change>,
) -> String {
    let by_file: HashMap<&str, &Touched> = inverse
        .into_iter()
        .flat_map(|inverse| &inverse.touched)
        .map(|t| (t.file.as_str(), t))
        .collect();
    let names = |side: Side| -> Vec<String> {
        files
            .iter()
            .filter(|image| !indexes.contains(&image.file.as_str()))
            .filter_map(|image| {
                let text = match side {
                    Side::Before => image.before.as_deref()?,
                    Side::After => image.after.as_deref()?,
                };
                let kept = by_file.get(image.file.as_str()).and_then(|t| match side {
                    Side::Before if !t.redacted.before => t.before.as_ref(),
                    Side::After if !t.redacted.after => t.after.as_ref(),
                    _ => None,
                });
                match kept.and_then(|v| v.memory.clone()) {
                    Some(name) => Some(name),
                    None => Some(topic_name(&image.file, text)),
                }
            })
            .collect()
    };
    let changed = as_said(Changed::between(&names(Side::Before), &names(Side::After)));
    if let Some(said) = changed.describe_edit() {
        return said;
    }
    let index_images: Vec<Touched> = files
        .iter()
        .filter(|image| indexes.contains(&image.file.as_str()))
        .map(|image| image_touched(image, true))
        .collect();
    match changed_index(&index_images) {
        Some(index) => format!("changed {index}"),
        None => NOTHING_CHANGED.into(),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::journal::{EntryMeta, RedactedImage, Side};

    fn topic(name: &str, body: &str) -> String {
        format!("---\nname: {name}\ndescription: d\n---\n\n{body}\n")
    }

    fn image(file: &str, before: Option<String>, after: Option<String>) -> FileImage {
        FileImage {
            file: file.into(),
            before,
            after,
        }
    }

    /// The images an undo of `entry` writes, as the engine answers them: each changed path
    /// from what the entry left (or `now`, the file's real text where the entry kept it
    /// redacted) to what the entry found, deletions last.
    fn written_back(entry: &Entry, now: &[(&str, &str)]) -> Vec<FileImage> {
        let mut images: Vec<FileImage> = entry
            .files
            .iter()
            .filter(|i| i.before != i.after)
            .map(|i| {
                let real = now.iter().find(|(file, _)| *file == i.file);
                let before = real.map(|(_, text)| text.to_string()).or(i.after.clone());
                image(&i.file, before, i.before.clone())
            })
            .collect();
        images.sort_by_key(|i| i.after.is_none());
        images
    }

    /// An undo's summary in words, the same whether each memory is named from the inverse the
    /// undo wrote or read through every image's frontmatter: for edits, a rename, a memory put
    /// back and one taken out, an index alone, and a name the entry kept redacted. Seen failing
    /// with the inverse's sides looked up the wrong way round.
    #[test]
    fn an_undos_summary_says_the_same_words_with_and_without_its_inverse() {
        let indexes = ["MEMORY.md"];
        let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
        let entry = |files: Vec<FileImage>, redacted: Vec<RedactedImage>| Entry {
            files,
            redacted,
            indexes: vec!["MEMORY.md".into()],
            ..Entry::new(7, 1, Op::Approve, &EntryMeta::default())
        };
        let cases = [
            (
                entry(
                    vec![
                        image("a.md", Some(topic("a", "1")), Some(topic("a", "2"))),
                        image("b.md", Some(topic("b", "1")), None),
                        image("c.md", None, Some(topic("c", "1"))),
                        image("d.md", Some(topic("d", "1")), Some(topic("d", "1"))),
                    ],
                    Vec::new(),
                ),
                Vec::new(),
            ),
            (
                entry(
                    vec![image("a.md", Some(topic("a", "1")), Some(topic("z", "1")))],
                    Vec::new(),
                ),
                Vec::new(),
            ),
            (
                entry(
                    vec![image("MEMORY.md", Some("- a\n".into()), None)],
                    Vec::new(),
                ),
                Vec::new(),
            ),
            (
                entry(
                    vec![image(
                        "k.md",
                        Some(topic("k", "1")),
                        Some(topic("[REDACTED]", "2")),
                    )],
                    vec![RedactedImage {
                        file: "k.md".into(),
                        side: Side::After,
                    }],
                ),
                vec![("k.md", topic(secret, "2"))],
            ),
        ];
        let mut said = Vec::new();
        for (entry, now) in &cases {
            let now: Vec<(&str, &str)> = now.iter().map(|(f, t)| (*f, t.as_str())).collect();
            let images = written_back(entry, &now);
            let inverse = entry.change().inverse();
            let from_images = undo_files_summary(&images, &indexes, None);
            assert_eq!(
                undo_files_summary(&images, &indexes, Some(&inverse)),
                from_images
            );
            said.push(from_images);
        }
        // The last case names the memory from its text on disk, whose name holds the secret
        // the entry kept redacted: said redacted, never whole.
        assert_eq!(
            said,
            [
                "added b; changed a; removed c".to_owned(),
                "renamed z to a".to_owned(),
                "changed MEMORY.md".to_owned(),
                "renamed [REDACTED] to k".to_owned(),
            ]
        );
    }
}
