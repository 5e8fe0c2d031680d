//! How a journal entry keeps a change to MEMORY.md (and MEMORY-archive.md) on a Claude Code
//! folder: the lines that changed and digests of the whole text before and after, never the
//! whole text, so an entry costs what the change touched however long the index has grown.
//!
//! A `.memory` entry keeps the changed records and only a digest of the index (which the
//! records derive); a Claude Code index is a person's text that undo must give back exactly,
//! so its entry keeps the changed lines as well. Texts are taken as the journal keeps every
//! image (credentials redacted, docs/audit.md): the digests are of the redacted texts, and the
//! lines are the redacted ones.

use serde::{Deserialize, Serialize};
use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::state::text_digest;
use crate::claude::index::ARCHIVE_FILE;
use crate::claude::index::INDEX_FILE;
use crate::redact::redact;

/// The files whose changes are kept as lines: the ones memwb edits line by line, and that grow
/// with the folder.
pub const LINE_FILES: [&str; 2] = [INDEX_FILE, ARCHIVE_FILE];

/// One file's change as its changed lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineChange {
    pub file: String,
    /// SHA-256 (hex) of the text before, as kept.
    pub before: String,
    /// SHA-256 (hex) of the text after, as kept.
    pub after: String,
    /// In the order of the text; none when only credentials (kept redacted) changed.
    pub hunks: Vec<Hunk>,
}

/// Consecutive lines replaced: `removed` (from the text before) by `added`. Each line keeps
/// its line break, so that joining them gives back the exact text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hunk {
    /// The 0-based line of the text before where `removed` starts.
    pub at: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
}

fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The digest a text is kept under: of its redaction.
pub fn kept_digest(text: &str) -> String {
    text_digest(redact(text).as_bytes())
}

/// The digest of a text as it is (a text holding credentials never matches its kept digest).
pub fn whole_digest(text: &str) -> String {
    text_digest(text.as_bytes())
}

impl LineChange {
    /// The change from `before` to `after`, both as the journal keeps them (redacted).
    pub fn between(file: &str, before: &str, after: &str) -> Self {
        let (old, new) = (lines(before), lines(after));
        let owned = |slice: &[&str]| slice.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
        let mut hunks: Vec<Hunk> = Vec::new();
        for op in capture_diff_slices(Algorithm::Myers, &old, &new) {
            let (at, removed, added) = match op {
                DiffOp::Equal { .. } => continue,
                DiffOp::Delete {
                    old_index, old_len, ..
                } => (old_index, &old[old_index..old_index + old_len], &new[..0]),
                DiffOp::Insert {
                    old_index,
                    new_index,
                    new_len,
                } => (old_index, &old[..0], &new[new_index..new_index + new_len]),
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => (
                    old_index,
                    &old[old_index..old_index + old_len],
                    &new[new_index..new_index + new_len],
                ),
            };
            match hunks.last_mut() {
                // A deletion next to an insertion is one replacement.
                Some(last) if last.at + last.removed.len() == at => {
                    last.removed.extend(owned(removed));
                    last.added.extend(owned(added));
                }
                _ => hunks.push(Hunk {
                    at,
                    removed: owned(removed),
                    added: owned(added),
                }),
            }
        }
        Self {
            file: file.to_owned(),
            before: text_digest(before.as_bytes()),
            after: text_digest(after.as_bytes()),
            hunks,
        }
    }

    /// Only credentials changed: the text as kept is the same before and after.
    pub fn is_empty(&self) -> bool {
        self.hunks.is_empty()
    }

    /// Whether `current` (the file on disk) is the text after the change, as kept.
    pub fn holds_after(&self, current: &str) -> bool {
        kept_digest(current) == self.after
    }

    /// Whether `current` is the text before the change, as kept.
    pub fn holds_before(&self, current: &str) -> bool {
        kept_digest(current) == self.before
    }

    /// The text before, from `current`, which holds the text after: `current` with the changed
    /// lines put back (redacted, as kept). Every other line stays as it is on disk, credentials
    /// included; where the redaction moved lines (a credential over several lines), the whole
    /// text comes back redacted. `None` when `current` is not the text after.
    pub fn before_from(&self, current: &str) -> Option<String> {
        self.rebuilt(current, false, &self.before)
    }

    /// The text after, from `current`, which holds the text before (see [`Self::before_from`]).
    pub fn after_from(&self, current: &str) -> Option<String> {
        self.rebuilt(current, true, &self.after)
    }

    fn rebuilt(&self, current: &str, forward: bool, wanted: &str) -> Option<String> {
        let redacted = redact(current);
        [current, redacted.as_ref()].into_iter().find_map(|base| {
            self.apply(&lines(base), forward)
                .filter(|text| kept_digest(text) == wanted)
        })
    }

    /// `base` with each hunk applied forward (before to after) or backward; `None` when its
    /// lines are not the ones a hunk replaces.
    fn apply(&self, base: &[&str], forward: bool) -> Option<String> {
        let mut out = String::new();
        let (mut copied, mut shift) = (0usize, 0isize);
        for hunk in &self.hunks {
            let (start, replaced, by) = if forward {
                (hunk.at, &hunk.removed, &hunk.added)
            } else {
                (
                    hunk.at.checked_add_signed(shift)?,
                    &hunk.added,
                    &hunk.removed,
                )
            };
            let end = start.checked_add(replaced.len())?;
            // The lines replaced must be the ones the change replaced (as kept).
            if start < copied
                || end > base.len()
                || redact(&base[start..end].concat()) != replaced.concat()
            {
                return None;
            }
            base[copied..start].iter().for_each(|l| out.push_str(l));
            by.iter().for_each(|l| out.push_str(l));
            copied = end;
            shift += hunk.added.len() as isize - hunk.removed.len() as isize;
        }
        base[copied..].iter().for_each(|l| out.push_str(l));
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(count: usize, changed: Option<(usize, &str)>) -> String {
        (0..count)
            .map(|i| match changed {
                Some((at, line)) if at == i => format!("{line}\n"),
                _ => format!("- [note {i}](note_{i}.md) — note number {i}\n"),
            })
            .collect()
    }

    #[test]
    fn the_changed_lines_give_back_either_text_exactly() {
        let cases = [
            (index(200, None), index(200, Some((50, "- edited")))),
            (
                index(200, None),
                format!("{}- [new](new.md) — a new one", index(200, None)),
            ),
            (index(3, None), String::new()),
            (String::new(), index(3, None)),
            ("a\r\nb\r\nc".to_owned(), "a\r\nc\r\nd\n".to_owned()),
            (
                "h\n\n- a\n- b\n- c\n- d\n".to_owned(),
                "h\n- a\n- c\n- d\n- e\n".to_owned(),
            ),
        ];
        for (before, after) in cases {
            let change = LineChange::between("MEMORY.md", &before, &after);
            assert!(change.holds_after(&after) && change.holds_before(&before));
            assert_eq!(change.before_from(&after).as_deref(), Some(before.as_str()));
            assert_eq!(change.after_from(&before).as_deref(), Some(after.as_str()));
            if before != after {
                assert_eq!(change.before_from(&before), None);
            }
        }
    }

    #[test]
    fn a_one_line_change_keeps_one_line_whatever_the_length() {
        let change = LineChange::between(
            "MEMORY.md",
            &index(2000, None),
            &index(2000, Some((1000, "- edited"))),
        );
        assert_eq!(change.hunks.len(), 1);
        assert_eq!(change.hunks[0].at, 1000);
        assert_eq!(change.hunks[0].added, ["- edited\n"]);
    }

    #[test]
    fn lines_the_change_did_not_touch_keep_their_credentials() {
        let key = "ghp_R8fk2LmQ9xVbT3nW7pYc4sZa1dEu6hJo0gKi";
        let before = format!("- a\n- token {key}\n- b\n");
        let after = format!("- a\n- token {key}\n- b, edited\n");
        let change = LineChange::between("MEMORY.md", &redact(&before), &redact(&after));
        let json = serde_json::to_string(&change).expect("json");
        assert!(!json.contains(key), "{json}");
        assert!(change.holds_after(&after));
        assert_eq!(change.before_from(&after).as_deref(), Some(before.as_str()));
    }
}
