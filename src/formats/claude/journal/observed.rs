//! Changes to a Claude Code folder seen from outside (`memwb watch --record`): the exact text
//! of every memory file at one moment, the images between two such moments, and which of
//! them the journal already holds (memwb's own writes, the hook's record mode), so that each
//! change is journaled once.

use std::collections::BTreeMap;
use std::path::Path;

use crate::claude::ClaudeFolder;
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::claude::is_memory_file;
use crate::claude::write::FileImage;
use crate::redact::redact;
use crate::review::journal::Entry;

/// How deep memory files are looked for (as the folder reader does).
const MAX_DEPTH: usize = 16;

/// Every memory file's exact text, by its path relative to the folder. Files that do not read
/// (not UTF-8, too large, a FIFO) are left out: they cannot be journaled as text.
pub fn texts(folder: &ClaudeFolder) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    collect(folder.root(), "", 0, &mut out);
    out
}

fn collect(dir: &Path, prefix: &str, depth: usize, out: &mut BTreeMap<String, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        let file = format!("{prefix}{name}");
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && !name.starts_with('.') && depth < MAX_DEPTH {
            collect(&entry.path(), &format!("{file}/"), depth + 1, out);
        } else if kind.is_file()
            && is_memory_file(&file)
            && let Ok(Some(bytes)) = read_regular(&entry.path(), MAX_FILE_BYTES)
            && let Ok(text) = String::from_utf8(bytes)
        {
            out.insert(file, text);
        }
    }
}

/// The files that differ between two readings, as images (sorted by file).
pub fn images(
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) -> Vec<FileImage> {
    let mut files: Vec<&String> = before.keys().chain(after.keys()).collect();
    files.sort();
    files.dedup();
    files
        .into_iter()
        .filter(|file| before.get(*file) != after.get(*file))
        .map(|file| FileImage {
            file: file.clone(),
            before: before.get(file).cloned(),
            after: after.get(file).cloned(),
        })
        .collect()
}

/// `images` without those the journal already holds: an image is journaled when the newest of
/// the `recent` entries that touched its file made exactly that change (compared as the
/// journal keeps them: credentials redacted). Only the newest counts: a change equal to an
/// older entry's (the same edit again after an undo, or after a change back) is a new change
/// and is journaled again, once.
pub fn not_journaled(images: Vec<FileImage>, recent: &[Entry]) -> Vec<FileImage> {
    images
        .into_iter()
        .filter(|image| {
            let newest = recent
                .iter()
                .filter_map(|entry| Some((entry.id, made(entry, image)?)))
                .max_by_key(|(id, _)| *id);
            !newest.is_some_and(|(_, made)| made)
        })
        .collect()
}

/// Whether `entry` made exactly the change `image` shows (compared as the journal keeps it:
/// credentials redacted, MEMORY.md as its changed lines); `None` when it did not touch that
/// file.
fn made(entry: &Entry, image: &FileImage) -> Option<bool> {
    let kept = |text: &Option<String>| text.as_deref().map(|t| redact(t).into_owned());
    if let Some(whole) = entry.files.iter().find(|f| f.file == image.file) {
        return Some(whole.before == kept(&image.before) && whole.after == kept(&image.after));
    }
    let lines = entry.lines.iter().find(|l| l.file == image.file)?;
    Some(match (&image.before, &image.after) {
        (Some(before), Some(after)) => lines.holds_before(before) && lines.holds_after(after),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn images_name_every_file_added_removed_or_changed() {
        let before = map(&[("a.md", "1"), ("b.md", "2"), ("c.md", "3")]);
        let after = map(&[("a.md", "1"), ("b.md", "2!"), ("d.md", "4")]);
        let found = images(&before, &after);
        let files: Vec<(&str, Option<&str>, Option<&str>)> = found
            .iter()
            .map(|i| (i.file.as_str(), i.before.as_deref(), i.after.as_deref()))
            .collect();
        assert_eq!(
            files,
            [
                ("b.md", Some("2"), Some("2!")),
                ("c.md", Some("3"), None),
                ("d.md", None, Some("4"))
            ]
        );
        let journaled = Entry {
            files: vec![found[0].clone()],
            ..serde_json::from_value(serde_json::json!({
                "id": 1, "at": 0, "op": "set", "who": {"user": "u", "host": "h"},
                "before": [], "after": [], "proposal": null, "reason": null, "undoes": null
            }))
            .expect("entry")
        };
        let left = not_journaled(found.clone(), std::slice::from_ref(&journaled));
        assert_eq!(left.len(), 2);
        assert_eq!(left[0].file, "c.md");
        // The same change again after it was undone: the newest entry for b.md is the undo.
        let undone = Entry {
            id: 2,
            files: vec![FileImage {
                file: "b.md".into(),
                before: Some("2!".into()),
                after: Some("2".into()),
            }],
            ..journaled.clone()
        };
        let left = not_journaled(found, &[undone, journaled]);
        assert_eq!(left.len(), 3, "{left:?}");
    }

    /// An entry keeps MEMORY.md as its changed lines and a topic file with its credentials
    /// redacted: the change it made is still recognized as journaled in both layouts, and a
    /// different change to the same file is not.
    #[test]
    fn an_entry_made_the_change_as_the_journal_keeps_it() {
        let secret = "key AKIAZ7Q3K2LMN4PQRS5T";
        let topic = FileImage {
            file: "a.md".into(),
            before: None,
            after: Some(format!("---\nname: a\n---\n{secret}\n")),
        };
        let index = FileImage {
            file: "MEMORY.md".into(),
            before: Some("# Memory\n- [b](b.md)\n".into()),
            after: Some("# Memory\n- [b](b.md)\n- [a](a.md)\n".into()),
        };
        let super::super::observer::Kept { files, lines, .. } =
            super::super::observer::kept(&[topic.clone(), index.clone()]);
        assert!(
            !files[0]
                .after
                .as_deref()
                .unwrap_or_default()
                .contains("AKIAZ7Q3")
        );
        assert_eq!(lines.len(), 1, "MEMORY.md is kept as its lines");
        let entry = Entry {
            files,
            lines,
            ..serde_json::from_value(serde_json::json!({
                "id": 1, "at": 0, "op": "add", "who": {"user": "u", "host": "h"},
                "before": [], "after": [], "proposal": null, "reason": null, "undoes": null
            }))
            .expect("entry")
        };
        assert_eq!(made(&entry, &topic), Some(true));
        assert_eq!(made(&entry, &index), Some(true));
        let other = FileImage {
            after: Some("# Memory\n- [c](c.md)\n".into()),
            ..index.clone()
        };
        assert_eq!(made(&entry, &other), Some(false));
        let untouched = FileImage {
            file: "b.md".into(),
            ..topic
        };
        assert_eq!(made(&entry, &untouched), None);
        assert!(not_journaled(vec![index, other.clone()], &[entry]) == [other]);
    }
}
