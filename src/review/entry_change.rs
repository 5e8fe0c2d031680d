//! A journal entry as the one change model sees it ([`Entry::change`]): every file it touched,
//! each as it was and became, whatever the format kept (records with their files, whole
//! files, an index's changed lines). The rules an entry answers (would undo change anything,
//! which files, was it only a redaction) are written once over that change.

use super::entry::{Entry, JournalRecord, StrayAction};
use super::error::ReviewError;
use super::filed::{image_touched, input_version};
use super::line_change::LineChange;
use crate::change::{Change, Side, Sides, Touched, Version};
use crate::redact;

impl Entry {
    /// The change this entry records: its op and every file it touched. A file outside the
    /// set it took in or let go (`stray`, `dropped`) is said beside it, not in it.
    pub fn change(&self) -> Change {
        let mut touched: Vec<Touched> = Vec::new();
        for (record, before) in self
            .before
            .iter()
            .map(|r| (r, true))
            .chain(self.after.iter().map(|r| (r, false)))
        {
            let version = Some(record.version());
            match touched.iter_mut().find(|t| t.file == record.file) {
                Some(t) if before => t.before = version,
                Some(t) => t.after = version,
                None if before => touched.push(Touched {
                    file: record.file.clone(),
                    before: version,
                    after: None,
                    redacted: Sides::default(),
                }),
                None => touched.push(Touched {
                    file: record.file.clone(),
                    before: None,
                    after: version,
                    redacted: Sides::default(),
                }),
            }
        }
        touched.extend(
            self.files
                .iter()
                .map(|image| image_touched(image, self.indexes.contains(&image.file))),
        );
        touched.extend(self.lines.iter().map(lines_touched));
        for mark in &self.redacted {
            if let Some(path) = touched.iter_mut().find(|t| t.file == mark.file) {
                match mark.side {
                    Side::Before => path.redacted.before = true,
                    Side::After => path.redacted.after = true,
                }
            }
        }
        // An entry journaled before the marks existed has none, yet its images were kept
        // redacted all the same: what each holds says it.
        if self.redacted.is_empty() {
            for path in &mut touched {
                path.redacted = self.placeholder_sides(path);
            }
        }
        Change {
            op: self.op,
            touched,
        }
    }

    /// Whether undoing this entry would change anything (a rejection, say, changed no file).
    pub fn changed_files(&self) -> bool {
        // Without building the change: its paths are one per record file, image and index
        // kept as lines, so it has one exactly when the entry keeps any (and building it reads
        // every image's memory name through its frontmatter).
        let touched_any = !(self.before.is_empty()
            && self.after.is_empty()
            && self.files.is_empty()
            && self.lines.is_empty());
        touched_any || self.dropped.is_some() || self.stray.is_some()
    }

    /// The files this entry touched, in the order it keeps them.
    pub fn touched_files(&self) -> Vec<String> {
        self.change()
            .files()
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    /// Why undoing this entry is refused before anything is read, the same on every format:
    /// it changed nothing (a rejection), or every change it made was a redaction (the journal
    /// keeps the same redacted text before and after, and a redacted secret is kept nowhere).
    /// `None`: undo may go on and check the folder.
    pub fn undo_refusal(&self) -> Option<ReviewError> {
        self.undo_refusal_of(&self.change())
    }

    /// [`Entry::undo_refusal`] given this entry's change ([`Entry::change`]), made once by a
    /// caller that needs it too.
    pub(crate) fn undo_refusal_of(&self, change: &Change) -> Option<ReviewError> {
        if !self.changed_files() {
            return Some(ReviewError::NothingToUndo {
                id: self.id,
                op: self.op.as_str(),
            });
        }
        // A dropped file's bytes are kept whole: undo puts them back.
        (self.dropped.is_none() && change.redaction_only())
            .then_some(ReviewError::RedactionNotRestorable { id: self.id })
    }

    /// What undoing this entry must tell a person, the same on every format: one note for
    /// each memory (or file outside the memories) it writes back with its credentials as
    /// `[REDACTED]`: an image the entry kept redacted (marked so, or for an entry written
    /// before the marks, holding the placeholder), a repair's dropped file or a deleted stray
    /// whose kept copy was redacted. A redacted secret is kept nowhere to restore.
    pub fn undo_notes(&self) -> Vec<String> {
        self.undo_notes_of(&self.change().inverse())
    }

    /// [`Entry::undo_notes`] given the inverse of this entry's change
    /// ([`Change::inverse`] of [`Entry::change`]), made once by the undo that wrote it.
    pub(crate) fn undo_notes_of(&self, inverse: &Change) -> Vec<String> {
        let mut back: Vec<&str> = inverse.writes_redacted();
        back.extend(
            self.dropped
                .iter()
                .filter(|d| d.redacted)
                .map(|d| d.file.as_str()),
        );
        back.extend(
            self.stray
                .iter()
                .filter(|s| s.redacted && s.action == StrayAction::Deleted)
                .map(|s| s.file.as_str()),
        );
        let mut notes: Vec<String> = Vec::new();
        for what in back {
            let note = back_redacted(what);
            if !notes.contains(&note) {
                notes.push(note);
            }
        }
        notes
    }
}

/// The one wording of a memory (or a file) an undo wrote back from a copy kept redacted:
/// true of a memory it put back, of an edit it took back, and of a file whose only change
/// was the redaction (the undo leaves it as it is).
fn back_redacted(what: &str) -> String {
    format!("the credentials in {what} stay [REDACTED]: a redacted secret is not restored")
}

impl Entry {
    /// The sides of `path` whose kept text holds the redaction's placeholder: a record's
    /// fields, a whole file, or the lines of an index hunk that side holds (an index is kept
    /// as its digest and the lines that changed).
    fn placeholder_sides(&self, path: &Touched) -> Sides {
        let holds = |version: &Option<Version>| {
            version
                .as_ref()
                .is_some_and(|v| redact::holds_placeholder(&v.kept))
        };
        let mut sides = Sides {
            before: holds(&path.before),
            after: holds(&path.after),
        };
        let any = |lines: &[String]| lines.iter().any(|l| redact::holds_placeholder(l));
        for hunk in self
            .lines
            .iter()
            .filter(|change| change.file == path.file)
            .flat_map(|change| &change.hunks)
        {
            sides.before |= any(&hunk.removed);
            sides.after |= any(&hunk.added);
        }
        sides
    }
}

impl JournalRecord {
    /// The record as the change model keeps it: the memory it is, its fields as its content.
    pub(crate) fn version(&self) -> Version {
        input_version(&self.record)
    }
}

/// An index kept as its changed lines: its content is the digest of its text.
fn lines_touched(change: &LineChange) -> Touched {
    let version = |digest: &String| {
        Some(Version {
            memory: None,
            kept: digest.clone(),
        })
    };
    Touched {
        file: change.file.clone(),
        before: version(&change.before),
        after: version(&change.after),
        redacted: Sides::default(),
    }
}
