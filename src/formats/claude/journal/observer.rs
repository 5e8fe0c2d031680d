//! The journal as the Claude Code write engine's [`ChangeObserver`], and the operations built
//! on it (`journaled`, and `undo`'s engine).
//!
//! The intent is the entry with every file's before and after image, appended and fsynced
//! before the first file is written; `committed` or `aborted` marks it. An intent left
//! unmarked by a crash is resolved by the engine at the next change, from those images
//! (`claude::write::recover`). Images keep credentials redacted, as every memwb file does
//! (docs/audit.md): a redacted image stands for the file whose redaction it is.

use std::borrow::Cow;
use std::sync::Mutex;

use super::index_lines::LINE_FILES;
use crate::change::Change;
use crate::claude::write::{self, Applied, ChangeObserver, FileImage, FileWrite, Reads};
use crate::claude::{ClaudeError, ClaudeFolder, ClaudeState};
use crate::redact::redact;
use crate::review::error::ReviewError;
use crate::review::intent::{Expect, Intent};
use crate::review::journal::{Entry, EntryMeta, Journal, Op, RedactedImage, Side};
use crate::review::line_change::LineChange;
use crate::review::marking::EntryMarking;
use crate::review::proposal::{Deciding, check_as_read_in, is_decided_in};
use crate::review::undo::{self, Blocked, Held, Reverted, UndoEngine};
use crate::time::now_ms;

/// The journal of `folder` (in its state directory).
pub fn journal_of(folder: &ClaudeFolder) -> Result<Journal, ReviewError> {
    Ok(Journal::of_claude(&ClaudeState::for_folder(folder)?))
}

/// What a journal entry keeps of a change's images.
pub(super) struct Kept {
    /// Topic files whole (and MEMORY.md created or deleted), credentials redacted.
    pub files: Vec<FileImage>,
    /// MEMORY.md (or the archive) as its changed lines when it is there before and after.
    pub lines: Vec<LineChange>,
    /// The images whose credentials the redaction replaced.
    pub redacted: Vec<RedactedImage>,
}

impl Kept {
    /// `entry` with these images (and which of them are an index), marked redacted where the
    /// redaction changed them or `entry` already says so (a file its caller kept redacted).
    pub(super) fn into_entry(self, entry: Entry) -> Entry {
        let mut redacted = self.redacted;
        for mark in entry.redacted.iter().filter(|m| {
            let kept = |file: &str| file == m.file;
            self.files.iter().any(|f| kept(&f.file)) || self.lines.iter().any(|l| kept(&l.file))
        }) {
            if !redacted.contains(mark) {
                redacted.push(mark.clone());
            }
        }
        Entry {
            indexes: indexes_among(&self.files),
            files: self.files,
            lines: self.lines,
            redacted,
            ..entry
        }
    }
}

/// The images as a journal entry keeps them, credentials redacted: topic files whole, and the
/// change to MEMORY.md (or the archive) as its changed lines when the file is there before and
/// after, so that the entry does not grow with the index; each image the redaction changed is
/// marked, so that an undo writing it back says so.
pub(super) fn kept(images: &[FileImage]) -> Kept {
    let mut marks = Vec::new();
    let mut redacted = |text: &Option<String>, file: &str, side: Side| {
        text.as_deref().map(|t| match redact(t) {
            Cow::Borrowed(same) => same.to_owned(),
            Cow::Owned(clean) => {
                marks.push(RedactedImage {
                    file: file.to_owned(),
                    side,
                });
                clean
            }
        })
    };
    let (mut files, mut lines) = (Vec::new(), Vec::new());
    for image in images {
        let before = redacted(&image.before, &image.file, Side::Before);
        let after = redacted(&image.after, &image.file, Side::After);
        match (before, after) {
            (Some(before), Some(after)) if LINE_FILES.contains(&image.file.as_str()) => {
                lines.push(LineChange::between(&image.file, &before, &after));
            }
            (before, after) => files.push(FileImage {
                file: image.file.clone(),
                before,
                after,
            }),
        }
    }
    Kept {
        files,
        lines,
        redacted: marks,
    }
}

/// The index files among the kept whole files (MEMORY.md or its archive created or deleted):
/// the entry says so, for what it did to them is not what it did to a memory.
fn indexes_among(files: &[FileImage]) -> Vec<String> {
    files
        .iter()
        .filter(|f| LINE_FILES.contains(&f.file.as_str()))
        .map(|f| f.file.clone())
        .collect()
}

/// A kept line change as the images recovery decides from, given what the file holds now
/// (`None`: absent or unreadable): on disk at its after text, the before text rebuilt from
/// it; at its before text, the after text rebuilt; at neither (another writer changed it
/// since), images that nothing on disk stands for, so recovery leaves the file alone.
fn images_of(change: &LineChange, current: Option<String>) -> FileImage {
    let (before, after) = match current {
        Some(now) if change.holds_after(&now) => (change.before_from(&now), Some(now)),
        Some(now) if change.holds_before(&now) => (Some(now.clone()), change.after_from(&now)),
        // A present file holds no absent image, and an absent one no present image.
        Some(_) => (None, None),
        None => (Some(String::new()), Some(String::new())),
    };
    FileImage {
        file: change.file.clone(),
        before,
        after,
    }
}

/// The op a change is, when the caller does not say: judged on the topic files, or on
/// MEMORY.md itself when the change is to the index alone (an edit of it is a `set`).
pub(super) fn op_of(images: &[FileImage]) -> Op {
    let topics: Vec<&FileImage> = images
        .iter()
        .filter(|i| i.file != crate::claude::index::INDEX_FILE)
        .collect();
    let judged = if topics.is_empty() {
        images.iter().collect()
    } else {
        topics
    };
    if judged.iter().all(|i| i.before.is_none()) {
        Op::Add
    } else if judged.iter().all(|i| i.after.is_none()) {
        Op::Rm
    } else {
        Op::Set
    }
}

/// The observer that journals one change to a Claude Code folder.
pub struct ClaudeJournalObserver {
    marking: EntryMarking,
    meta: EntryMeta,
    /// The proposal this change approves: checked under the lock, recorded with the entry.
    deciding: Option<Deciding>,
    recovering: Mutex<Option<Intent>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl ClaudeJournalObserver {
    pub fn new(journal: Journal, meta: EntryMeta) -> Self {
        Self {
            marking: EntryMarking::new(journal),
            meta,
            deciding: None,
            recovering: Mutex::new(None),
        }
    }

    /// The change decides a proposal: under the lock it must still be pending and as it was
    /// read, and its decision is recorded when the change commits (or when recovery finds that
    /// it did).
    pub fn deciding(mut self, deciding: Deciding) -> Self {
        self.deciding = Some(deciding);
        self
    }

    fn journal(&self) -> &Journal {
        self.marking.journal()
    }

    /// A decision journaled without a change to the folder (a rejection) that a crash left
    /// unmarked: it took effect when the proposal is decided.
    fn resolve_decision(&self, intent: &Intent, proposal: &str) -> Result<(), ReviewError> {
        let state = self.journal().create_state()?;
        if is_decided_in(&state, proposal)? {
            self.journal().finish(intent)
        } else {
            self.journal().mark(intent.entry.id, false)
        }
    }

    /// The entry written for the change, once it committed.
    pub fn entry(&self) -> Option<Entry> {
        self.marking.entry()
    }
}

impl ChangeObserver for ClaudeJournalObserver {
    fn pending(&self, folder: &ClaudeFolder) -> Result<Option<Vec<FileImage>>, ClaudeError> {
        let Some(intent) = self.journal().pending_intent()? else {
            return Ok(None);
        };
        if let Expect::Decided { proposal } = &intent.expect {
            self.resolve_decision(&intent, proposal)?;
            return Ok(None);
        }
        if intent.expect != Expect::Files {
            return Err(ReviewError::DataInvalid {
                what: "journal",
                path: self.journal().path(),
                rule: format!(
                    "its unmarked intent #{} is not a change to a Claude Code folder",
                    intent.entry.id
                ),
            }
            .into());
        }
        let mut images = intent.entry.files.clone();
        for change in &intent.entry.lines {
            images.push(images_of(change, write_current(folder, &change.file)?));
        }
        *lock(&self.recovering) = Some(intent);
        Ok(Some(images))
    }

    fn stands_for(&self, kept: &str, current: &str) -> bool {
        kept == current || kept == redact(current)
    }

    fn resolved(&self, _folder: &ClaudeFolder, took_effect: bool) -> Result<(), ClaudeError> {
        let Some(intent) = lock(&self.recovering).take() else {
            return Ok(());
        };
        if took_effect {
            self.journal().finish(&intent)?;
        } else {
            self.journal().mark(intent.entry.id, false)?;
        }
        Ok(())
    }

    fn prepare(&self, _folder: &ClaudeFolder, images: &[FileImage]) -> Result<(), ClaudeError> {
        if let Some(deciding) = &self.deciding {
            check_as_read_in(&self.journal().create_state()?, &deciding.read_as)?;
        }
        let intent = Intent {
            entry: kept(images).into_entry(Entry::new(
                self.journal().next_id()?,
                now_ms(),
                self.meta.op.unwrap_or_else(|| op_of(images)),
                &self.meta,
            )),
            expect: Expect::Files,
            decision: self.deciding.as_ref().map(|d| d.decision.clone()),
        };
        Ok(self.marking.prepared(intent)?)
    }

    fn committed(&self, _folder: &ClaudeFolder, _images: &[FileImage]) {
        // A mark that fails leaves the intent; the next change resolves it from the images.
        self.marking.committed(|_, _| {});
    }

    fn aborted(&self, _folder: &ClaudeFolder) {
        self.marking.aborted();
    }
}

/// Applies `writes` to `folder` as one journaled change ([`write::apply`]): what it wrote
/// and the entry (`None` when nothing changed). A change that was written but whose journal
/// mark failed is [`ReviewError::NotJournaled`]; the next change records it.
pub fn journaled(
    folder: &ClaudeFolder,
    writes: Vec<FileWrite>,
    meta: EntryMeta,
) -> Result<(Applied, Option<Entry>), ReviewError> {
    let observer = ClaudeJournalObserver::new(journal_of(folder)?, meta);
    let applied = write::apply(folder, writes, Some(&observer))?;
    Ok((applied, observer.marking.finish()?))
}

/// [`journaled`] for a change that decides a proposal (see [`ClaudeJournalObserver::deciding`]),
/// its writes made by `plan` under the folder's lock ([`write::apply_planned`]).
pub fn journaled_deciding(
    folder: &ClaudeFolder,
    plan: &mut dyn FnMut() -> Result<Vec<FileWrite>, ReviewError>,
    meta: EntryMeta,
    deciding: Deciding,
) -> Result<(Applied, Option<Entry>), ReviewError> {
    let observer = ClaudeJournalObserver::new(journal_of(folder)?, meta).deciding(deciding);
    planned(folder, plan, observer)
}

/// [`journaled`] of the writes `plan` makes under the folder's lock ([`write::apply_planned`]):
/// for a change whose writes derive from files another memwb process may be changing
/// (MEMORY.md's lines), so that what they derive from is read under the lock.
pub fn journaled_planned(
    folder: &ClaudeFolder,
    plan: &mut dyn FnMut() -> Result<Vec<FileWrite>, ReviewError>,
    meta: EntryMeta,
) -> Result<(Applied, Option<Entry>), ReviewError> {
    planned(
        folder,
        plan,
        ClaudeJournalObserver::new(journal_of(folder)?, meta),
    )
}

fn planned(
    folder: &ClaudeFolder,
    plan: &mut dyn FnMut() -> Result<Vec<FileWrite>, ReviewError>,
    observer: ClaudeJournalObserver,
) -> Result<(Applied, Option<Entry>), ReviewError> {
    let applied = write::apply_planned(folder, &mut || Ok(plan()?), Some(&observer))?;
    Ok((applied, observer.marking.finish()?))
}

/// Reverts `entry` as a new change, whatever came after it, as `git revert` does (the neutral
/// `review::undo::undo` over `FilesUndo`): each file it wrote whole must still hold what it
/// wrote (compare-and-swap) and gets back its previous text, or is removed when the entry
/// created it; MEMORY.md (and the archive) get the entry's lines taken back out of their text
/// now, every line a later change wrote kept ([`LineChange::reverted_in`]). What it reverts is
/// read under the folder's lock. A credential the journal kept redacted comes back redacted.
pub fn undo(folder: &ClaudeFolder, entry: &Entry) -> Result<(Applied, Option<Entry>), ReviewError> {
    undo::undo(&FilesUndo { folder }, entry)
}

/// [`undo`], answering the inverse it wrote too (what the undo's notes and summary are said
/// from).
pub(crate) fn revert(
    folder: &ClaudeFolder,
    entry: &Entry,
) -> Result<Reverted<(Applied, Option<Entry>)>, ReviewError> {
    undo::revert(&FilesUndo { folder }, entry)
}

/// The Claude Code write engine as an [`UndoEngine`]: whole files compared and swapped, an
/// index kept as its changed lines merged back out (a format fact: MEMORY.md is every
/// memory's line, so a later change to another line must not block the undo).
struct FilesUndo<'a> {
    folder: &'a ClaudeFolder,
}

impl UndoEngine for FilesUndo<'_> {
    type Undone = (Applied, Option<Entry>);

    fn write_inverse(
        &self,
        entry: &Entry,
        inverse: &Change,
        check: &dyn Fn(&[Held]) -> Result<(), ReviewError>,
    ) -> Result<Self::Undone, Blocked> {
        let meta = EntryMeta {
            op: Some(Op::Undo),
            undoes: Some(entry.id),
            ..EntryMeta::default()
        };
        let observer = ClaudeJournalObserver::new(journal_of(self.folder)?, meta);
        let plan = &mut |reads: &Reads| Ok(reverting(self.folder, reads, entry, inverse, check)?);
        let written = write::apply_reading(self.folder, plan, Some(&observer))
            .map_err(ReviewError::from)
            .and_then(|applied| Ok((applied, observer.marking.finish()?)));
        written.map_err(|e| {
            match e.into_engine_error::<ClaudeError>() {
                // Claude Code wrote a file between memwb's read of it and the write (under the
                // lock, only another program can).
                Ok(ClaudeError::Conflict { file, .. }) => Blocked::Raced { file },
                Ok(other) => Blocked::Failed(other.into()),
                Err(other) => Blocked::Failed(other),
            }
        })
    }
}

/// The writes that take `entry` back out of `folder` as it is now (`inverse`, its change's
/// inverse, each file read through `reads`, so that the compare reads none again): its whole
/// files as `check` allows, its index lines merged back out (refused, naming the line, where
/// a later change rewrote them).
fn reverting(
    folder: &ClaudeFolder,
    reads: &Reads,
    entry: &Entry,
    inverse: &Change,
    check: &dyn Fn(&[Held]) -> Result<(), ReviewError>,
) -> Result<Vec<FileWrite>, ReviewError> {
    let since = entry.id;
    let mut writes = Vec::with_capacity(inverse.touched.len());
    let mut held = Vec::with_capacity(entry.files.len());
    for touched in inverse
        .touched
        .iter()
        .filter(|t| entry.lines.iter().all(|l| l.file != t.file))
    {
        write::check_name(folder, &touched.file)?;
        let current = reads.current(&touched.file);
        // As the journal would keep it: a redacted image stands for the file whose redaction
        // it is, so the compare runs on the real text.
        let now = current.as_deref().map(|text| redact(text).into_owned());
        if !touched.unchanged() {
            writes.push(FileWrite {
                file: touched.file.clone(),
                base: current,
                after: touched.after.as_ref().map(|v| v.kept.clone()),
            });
        }
        held.push(Held {
            touched: touched.clone(),
            now,
        });
    }
    check(&held)?;
    for change in entry.lines.iter().filter(|change| !change.is_empty()) {
        let blocked = |detail: String| ReviewError::UndoBlocked { id: since, detail };
        write::check_name(folder, &change.file)?;
        let Some(current) = reads.current(&change.file) else {
            return Err(blocked(format!(
                "{} was removed since #{since}",
                change.file
            )));
        };
        let before = change
            .reverted_in(&current)
            .map_err(|conflict| blocked(conflict.reason(since)))?;
        writes.push(FileWrite {
            file: change.file.clone(),
            base: Some(current),
            after: Some(before),
        });
    }
    Ok(writes)
}

/// The text of `file` now, read the way the engine reads it (no link, no FIFO); `None` when
/// it is absent or cannot be read (the engine then says why, under the lock).
fn write_current(folder: &ClaudeFolder, file: &str) -> Result<Option<String>, ReviewError> {
    write::check_name(folder, file)?;
    let path = folder.root().join(file);
    Ok(
        crate::claude::fsread::read_regular(&path, crate::claude::fsread::MAX_FILE_BYTES)
            .ok()
            .flatten()
            .and_then(|bytes| String::from_utf8(bytes).ok()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(file: &str, before: Option<&str>, after: Option<&str>) -> FileImage {
        FileImage {
            file: file.into(),
            before: before.map(str::to_owned),
            after: after.map(str::to_owned),
        }
    }

    #[test]
    fn an_edit_of_memory_md_alone_is_a_set_not_a_removal() {
        let index = crate::claude::index::INDEX_FILE;
        assert_eq!(op_of(&[image(index, Some("a\n"), Some("b\n"))]), Op::Set);
        assert_eq!(op_of(&[image(index, None, Some("b\n"))]), Op::Add);
        assert_eq!(
            op_of(&[
                image("a.md", Some("x"), None),
                image(index, Some("- a\n"), Some(""))
            ]),
            Op::Rm
        );
        assert_eq!(
            op_of(&[
                image("a.md", None, Some("x")),
                image(index, Some(""), Some("- a\n"))
            ]),
            Op::Add
        );
    }
}
