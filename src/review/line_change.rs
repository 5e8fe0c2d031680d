//! How a journal entry keeps a change to MEMORY.md (and MEMORY-archive.md) on a Claude Code
//! folder: the lines that changed and digests of the whole text before and after, never the
//! whole text, so an entry costs what the change touched however long the index has grown.
//!
//! A `.memory` entry keeps the changed records and only a digest of the index (which the
//! records derive); a Claude Code index is a person's text that undo must give back exactly,
//! so its entry keeps the changed lines as well. Texts are taken as the journal keeps every
//! image (credentials redacted, docs/audit.md): the digests are of the redacted texts, and the
//! lines are the redacted ones.

use std::borrow::Cow;
use std::cmp::Reverse;

use serde::{Deserialize, Serialize};
use similar::{Algorithm, DiffOp, capture_diff_slices};

use super::state::text_digest;
use crate::redact::redact;

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
    /// The unchanged lines on either side, where undo finds the hunk once later changes moved
    /// it (`None` in entries written before they were kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Context>,
}

/// The unchanged line just above a hunk and just below it, as kept; `None` where the hunk
/// starts or ends the text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Context {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub above: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below: Option<String>,
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
                    context: None,
                }),
            }
        }
        // Lines between two hunks are unchanged (adjacent ones were joined above), so each
        // hunk's neighbours in the text before are the same lines in the text after.
        for hunk in &mut hunks {
            let end = hunk.at + hunk.removed.len();
            hunk.context = Some(Context {
                above: hunk.at.checked_sub(1).map(|i| old[i].to_owned()),
                below: old.get(end).map(|l| (*l).to_owned()),
            });
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

    /// `current` with this change taken back out, as `git revert` takes a commit out of a
    /// file that later commits changed too: each hunk's lines are found where they are now
    /// (by their neighbours as kept, else nearest to where they were) and replaced by the
    /// lines they replaced. Lines the change did not touch stay as they are on disk. When
    /// `current` is still the text after the change, this is exactly the text before.
    ///
    /// Refused ([`LineConflict`]) only where the change's own lines were changed since, or
    /// where lines it removed go back between neighbours that are both gone.
    pub fn reverted_in(&self, current: &str) -> Result<String, LineConflict> {
        if let Some(before) = self.before_from(current) {
            return Ok(before);
        }
        let found = self.revert_lines(&lines(current));
        let redacted = redact(current);
        if found.is_ok() || redacted == current {
            return found;
        }
        // A credential over several lines: its redaction is what the entry kept.
        self.revert_lines(&lines(&redacted)).or(found)
    }

    fn revert_lines(&self, base: &[&str]) -> Result<String, LineConflict> {
        let kept: Vec<Cow<'_, str>> = base.iter().map(|line| redact(line)).collect();
        let mut out = String::new();
        let (mut copied, mut shift, mut drift) = (0usize, 0isize, 0isize);
        for hunk in &self.hunks {
            // Where the hunk's lines were in the text after the change, moved as much as
            // the hunk before it was found moved.
            let was = hunk.at as isize + shift;
            let expected = (was + drift).clamp(copied as isize, kept.len() as isize) as usize;
            let found = self.locate(&kept, copied, hunk, expected)?;
            base[copied..found]
                .iter()
                .for_each(|line| push_line(&mut out, line));
            hunk.removed
                .iter()
                .for_each(|line| push_line(&mut out, line));
            copied = found + hunk.added.len();
            drift = found as isize - was;
            shift += hunk.added.len() as isize - hunk.removed.len() as isize;
        }
        base[copied..]
            .iter()
            .for_each(|line| push_line(&mut out, line));
        Ok(out)
    }

    /// Where, at or after line `from` of `kept` (the current lines, redacted as the entry keeps
    /// lines), `hunk`'s added lines are now: of the places that hold them, the one whose
    /// neighbours are the hunk's, then the nearest to `expected`. A hunk that added nothing
    /// goes back where at least one of its neighbours is (anywhere: none of its own lines
    /// can be checked).
    fn locate(
        &self,
        kept: &[Cow<'_, str>],
        from: usize,
        hunk: &Hunk,
        expected: usize,
    ) -> Result<usize, LineConflict> {
        let len = hunk.added.len();
        let holds_added =
            |at: usize| at + len <= kept.len() && kept[at..at + len].iter().eq(&hunk.added);
        let neighbours = |at: usize| -> u8 {
            let Some(context) = &hunk.context else {
                return 0;
            };
            let above = match &context.above {
                None => at == 0,
                Some(line) => at > 0 && kept[at - 1] == *line,
            };
            let below = match &context.below {
                None => at + len == kept.len(),
                Some(line) => kept.get(at + len).is_some_and(|now| now == line),
            };
            u8::from(above) + u8::from(below)
        };
        let placed = |at: usize| {
            len > 0
                || match hunk.context {
                    Some(_) => neighbours(at) > 0,
                    None => at == expected,
                }
        };
        let conflict = |at: usize, kind| LineConflict {
            file: self.file.clone(),
            line: at + 1,
            kind,
        };
        let found = (from..=kept.len())
            .filter(|at| holds_added(*at) && placed(*at))
            .max_by_key(|at| (neighbours(*at), Reverse(at.abs_diff(expected))));
        match found {
            None if len > 0 => Err(conflict(expected, ConflictKind::Changed)),
            None => Err(conflict(expected, ConflictKind::PlaceGone)),
            // Lines put back beside themselves: this change was taken out already (an entry
            // undone twice), or the same lines were written there again since.
            Some(at)
                if len == 0
                    && (kept[at..].iter().take(hunk.removed.len()).eq(&hunk.removed)
                        || kept[..at]
                            .iter()
                            .rev()
                            .take(hunk.removed.len())
                            .eq(hunk.removed.iter().rev())) =>
            {
                Err(conflict(at, ConflictKind::BackAlready))
            }
            Some(at) => Ok(at),
        }
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

/// Appends `line` to `out`, first ending the line before it where that one ended the text it
/// came from (a last line without a line break that is no longer last).
fn push_line(out: &mut String, line: &str) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(line);
}

/// Why a change could not be taken back out of a file as it is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineConflict {
    pub file: String,
    /// 1-based, in the current text: where the lines were looked for.
    pub line: usize,
    pub kind: ConflictKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConflictKind {
    /// The lines the change wrote were changed or removed since.
    Changed,
    /// The lines the change removed would go back between neighbours that are both gone.
    PlaceGone,
    /// The lines the change removed are back where they would go.
    BackAlready,
}

impl LineConflict {
    /// The reason an undo of entry `since` is refused, in the journal's words.
    pub fn reason(&self, since: u64) -> String {
        let Self { file, line, .. } = self;
        match self.kind {
            ConflictKind::Changed => format!("{file} line {line} was changed since #{since}"),
            ConflictKind::PlaceGone => {
                format!("the lines around {file} line {line} were changed since #{since}")
            }
            ConflictKind::BackAlready => {
                format!("the lines #{since} removed are back at {file} line {line}")
            }
        }
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

    /// The change from `before` to `after`, taken back out of `current`.
    fn reverted(before: &str, after: &str, current: &str) -> Result<String, LineConflict> {
        LineChange::between("MEMORY.md", before, after).reverted_in(current)
    }

    #[test]
    fn an_older_change_comes_out_of_a_text_later_changes_changed_too() {
        // An older append, after a newer one below it.
        assert_eq!(
            reverted("a\n", "a\nb\n", "a\nb\nc\n").as_deref(),
            Ok("a\nc\n")
        );
        // An older removal, after lines were added on both sides of where it goes back.
        assert_eq!(
            reverted("a\nx\nb\n", "a\nb\n", "z\na\nb\nc\n").as_deref(),
            Ok("z\na\nx\nb\nc\n")
        );
        // An older edit, after the line above it was edited and one was added at the top.
        assert_eq!(
            reverted("a\nb\nc\n", "a\nB\nc\n", "new\nA\nB\nc\n").as_deref(),
            Ok("new\nA\nb\nc\n")
        );
        // Two hunks, each moved by a different amount.
        assert_eq!(
            reverted(
                "a\nb\nc\nd\ne\n",
                "a\nB\nc\nd\nE\n",
                "0\na\nB\nc\n1\n2\nd\nE\n"
            )
            .as_deref(),
            Ok("0\na\nb\nc\n1\n2\nd\ne\n")
        );
    }

    #[test]
    fn of_two_places_holding_the_lines_the_one_between_their_neighbours_is_taken() {
        let before = "- a\n\n- b\n- c\n";
        let after = "- a\n\n- b\n- x\n- c\n";
        // `- x` is also at the top now; the one between `- b` and `- c` is the change's.
        assert_eq!(
            reverted(before, after, "- x\n- a\n\n- b\n- x\n- c\n").as_deref(),
            Ok("- x\n- a\n\n- b\n- c\n")
        );
    }

    #[test]
    fn lines_changed_since_are_a_conflict_naming_the_file_and_line() {
        // The line the change added was edited since.
        let conflict = reverted("a\n", "a\nb\n", "a\nb, edited\n").expect_err("conflict");
        assert_eq!(
            conflict,
            LineConflict {
                file: "MEMORY.md".into(),
                line: 2,
                kind: ConflictKind::Changed
            }
        );
        assert_eq!(conflict.reason(4), "MEMORY.md line 2 was changed since #4");
        // The line the change removed goes back between neighbours that are both gone.
        let conflict = reverted("a\nx\nb\n", "a\nb\n", "c\nd\n").expect_err("conflict");
        assert_eq!(conflict.kind, ConflictKind::PlaceGone);
        assert_eq!(
            conflict.reason(4),
            "the lines around MEMORY.md line 2 were changed since #4"
        );
        // The lines the change removed are back already: it was taken out once.
        let conflict = reverted("a\nx\nb\n", "a\nb\n", "z\na\nx\nb\n").expect_err("conflict");
        assert_eq!(
            conflict.reason(4),
            "the lines #4 removed are back at MEMORY.md line 3"
        );
    }

    #[test]
    fn a_last_line_without_a_line_break_is_ended_when_lines_follow_it() {
        // The change ended the text's last line and added one; a later line follows now.
        assert_eq!(
            reverted("a\nb", "a\nb\nc\n", "a\nb\nc\nd\n").as_deref(),
            Ok("a\nb\nd\n")
        );
    }

    #[test]
    fn an_entry_kept_without_context_still_reverts_in_place() {
        let mut change = LineChange::between("MEMORY.md", "a\nx\nb\n", "a\nb\n");
        change.hunks.iter_mut().for_each(|hunk| hunk.context = None);
        let json = serde_json::to_string(&change).expect("json");
        assert!(!json.contains("context"), "{json}");
        let change: LineChange = serde_json::from_str(&json).expect("reads");
        assert_eq!(
            change.reverted_in("a\nb\nc\n").as_deref(),
            Ok("a\nx\nb\nc\n")
        );
    }

    #[test]
    fn lines_the_revert_does_not_touch_keep_their_credentials() {
        let key = "ghp_R8fk2LmQ9xVbT3nW7pYc4sZa1dEu6hJo0gKi";
        let change = LineChange::between("MEMORY.md", "- a\n", "- a\n- b\n");
        let current = format!("- a\n- b\n- token {key}\n");
        assert_eq!(
            change.reverted_in(&current),
            Ok(format!("- a\n- token {key}\n"))
        );
    }
}
