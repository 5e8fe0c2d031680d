//! A change as `--json` prints it, one shape on every format (docs/cli.md, "JSON shapes"):
//! which memories it added, changed, renamed and removed, and every file it touched with the
//! memory it held on each side. `memwb log --json` prints a journal entry this way (its
//! metadata beside it, [`EntryJson`]); whatever the format kept of a file's content is given
//! on that file's side under a name that says what it is (`record`, `text`, `digest`), and
//! only where the format keeps it.

use serde::Serialize;

use super::entry::{DroppedFile, Entry, Op, ProposalRef, StrayChange};
use super::filed::images;
use super::line_change::Hunk;
use super::summary::entry_summary;
use super::who::Who;
use crate::change::{Change, Changed, FileImage};
use crate::memory::RecordInput;

/// A memory renamed: gone under `from`, there under `to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Renamed {
    pub(crate) from: String,
    pub(crate) to: String,
}

/// The memories a change added, changed, renamed and removed, by name. A rename is one
/// memory gone and another come in a change said as an edit (`set`, an undo), as `memwb log`
/// says it ("renamed a to b"); it is then in neither `added` nor `removed`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct MemoriesJson {
    pub(crate) added: Vec<String>,
    pub(crate) changed: Vec<String>,
    pub(crate) renamed: Vec<Renamed>,
    pub(crate) removed: Vec<String>,
}

impl MemoriesJson {
    /// `changed` as a change of `op` says it.
    pub(crate) fn of(op: Op, changed: Changed) -> Self {
        let renamed = match op {
            Op::Set | Op::Undo => changed.renamed(),
            _ => None,
        };
        match renamed {
            Some((from, to)) => Self {
                added: Vec::new(),
                changed: changed.changed.clone(),
                renamed: vec![Renamed {
                    from: from.to_owned(),
                    to: to.to_owned(),
                }],
                removed: Vec::new(),
            },
            None => Self {
                added: changed.added,
                changed: changed.changed,
                renamed: Vec::new(),
                removed: changed.removed,
            },
        }
    }
}

/// One side of a file a change touched (the side is `null` where the file was absent).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct SideJson {
    /// The memory the file held, by name; `null` for a file that holds no one memory (an
    /// index).
    pub(crate) memory: Option<String>,
    /// The memory's fields (`name`, `type`, `description`, `body`) as kept, credentials
    /// redacted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) record: Option<RecordInput>,
    /// The file's whole text as kept, where the format keeps files whole (Claude Code).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) text: Option<String>,
    /// SHA-256 (hex) of the text as kept, where only the changed lines are kept (`lines`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) digest: Option<String>,
}

/// One file a change touched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct FileJson {
    /// Relative to the folder, `/`-separated; `null` for a memory a proposal's plan writes
    /// into a file its format names only when it is approved (a `.memory` record).
    #[serde(serialize_with = "unnamed_as_null")]
    pub(crate) file: String,
    pub(crate) before: Option<SideJson>,
    pub(crate) after: Option<SideJson>,
    /// The lines that changed, where the format keeps the file as its changed lines (a
    /// Claude Code MEMORY.md).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) lines: Vec<Hunk>,
}

/// A file not named yet (empty) as `null`.
fn unnamed_as_null<S: serde::Serializer>(file: &str, to: S) -> Result<S::Ok, S::Error> {
    if file.is_empty() {
        to.serialize_none()
    } else {
        to.serialize_str(file)
    }
}

/// A whole file's side: the memory it holds (none for an index), its fields and its text.
pub(crate) fn whole_file_side(file: &str, text: &str, index: bool) -> SideJson {
    let record = (!index)
        .then(|| {
            images::written(&[FileImage {
                file: file.to_owned(),
                before: None,
                after: Some(text.to_owned()),
            }])
            .pop()
        })
        .flatten();
    SideJson {
        memory: record.as_ref().map(|r| r.name.clone()),
        record,
        text: Some(text.to_owned()),
        digest: None,
    }
}

/// A journal entry as `memwb log --json` prints it: its metadata, what it did to which
/// memories and which files, the same fields on every format; `conflict`, `dropped` and
/// `stray` only where the entry has them (`.memory` sets keep the last two).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct EntryJson<'a> {
    id: u64,
    /// Unix milliseconds.
    at: i64,
    op: Op,
    who: &'a Who,
    /// What `memwb log` says of it.
    summary: String,
    memories: MemoriesJson,
    files: Vec<FileJson>,
    proposal: &'a Option<ProposalRef>,
    reason: &'a Option<String>,
    undoes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conflict: &'a Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dropped: &'a Option<DroppedFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stray: &'a Option<StrayChange>,
}

impl Entry {
    /// This entry as `memwb log --json` prints it, derived from [`Entry::change`] and what
    /// the entry kept of each file, so entries of every layout ever written print alike.
    pub(crate) fn json(&self) -> EntryJson<'_> {
        let change = self.change();
        EntryJson {
            id: self.id,
            at: self.at,
            op: self.op,
            who: &self.who,
            summary: entry_summary(self),
            memories: MemoriesJson::of(self.op, change.memories()),
            files: self.files_json(&change),
            proposal: &self.proposal,
            reason: &self.reason,
            undoes: self.undoes,
            conflict: &self.conflict,
            dropped: &self.dropped,
            stray: &self.stray,
        }
    }

    /// Every file of `change` (this entry's), each side with what the entry kept of it.
    fn files_json(&self, change: &Change) -> Vec<FileJson> {
        change
            .touched
            .iter()
            .map(|touched| {
                let file = touched.file.as_str();
                let record = |records: &[super::entry::JournalRecord]| {
                    records.iter().find(|r| r.file == file).map(|r| SideJson {
                        memory: Some(r.record.name.clone()),
                        record: Some(r.record.clone()),
                        ..SideJson::default()
                    })
                };
                let image = self.files.iter().find(|i| i.file == file);
                let index = self.indexes.iter().any(|i| i == file);
                let whole = |text: &Option<String>| {
                    text.as_deref()
                        .map(|text| whole_file_side(file, text, index))
                };
                let lines = self.lines.iter().find(|l| l.file == file);
                let digest = |digest: &str| SideJson {
                    digest: Some(digest.to_owned()),
                    ..SideJson::default()
                };
                let (before, after) = match (image, lines) {
                    (Some(image), _) => (whole(&image.before), whole(&image.after)),
                    (None, Some(lines)) => {
                        (Some(digest(&lines.before)), Some(digest(&lines.after)))
                    }
                    (None, None) => (record(&self.before), record(&self.after)),
                };
                FileJson {
                    file: file.to_owned(),
                    before,
                    after,
                    lines: lines.map(|l| l.hunks.clone()).unwrap_or_default(),
                }
            })
            .collect()
    }
}
