//! What the workbench's panes show of a `.memory` set, in the neutral terms of
//! [`crate::formats::view`]: the index file beside the index the manifest derives; and the
//! workbench's other questions about the set ([`FolderView`], answered by its inspection).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::super::view::{
    Gauge, HeadLine, IndexLine, IndexMark, IndexView, ListRow, ListView, Look, MemoryText,
    MemoryView, RowState, Segment, StateLine, Stray, Tone, drift,
};
use super::super::{FolderView, Shown};
use super::journal::Readable;
use crate::memory::Memory;
use crate::redact::redact;
use crate::review::{Proposal, State};
use crate::store::index;
use crate::store::inspect::{EntryState, IndexStatus, Inspection, ManifestEntry, ManifestState};
use crate::store::record::{MAX_RECORD_BYTES, MAX_RECORD_LINES, count_lines};
use crate::store::{LockState, StrayKind, codec};

/// The `.memory` set a reading the workbench shows holds, as inspected (`None`: a reading of
/// another format): what the tests look into.
pub fn shown_inspection(shown: &Shown) -> Option<Arc<Inspection>> {
    shown.downcast()
}

/// What identifies a `.memory` entry across reloads: the record name, or the file of an
/// invalid entry.
fn entry_key(entry: &ManifestEntry) -> &str {
    entry.record().map(|r| r.name()).unwrap_or(&entry.file)
}

/// The index pane of `inspection`: `MEMORY.md` on disk beside the index its manifest derives,
/// the drift marked line by line; when bad entries make the set unreadable, against the index
/// its valid entries derive (they still say a lot).
fn index_view(inspection: &Inspection) -> IndexView {
    let index = &inspection.index;
    let on_disk = index.on_disk.as_deref().unwrap_or("");
    let mut budget = inspection.budget;
    let partial = (index.derived.is_none()
        && inspection.root_error.is_none()
        && inspection.manifest == ManifestState::Valid)
        .then(|| {
            index::render(
                inspection
                    .entries
                    .iter()
                    .filter_map(|e| e.record().map(|r| (e.file.as_str(), r))),
            )
        });
    if let Some(text) = &partial {
        (budget.index_lines, budget.index_bytes) = index::measure(text);
    }
    let derived = index.derived.as_deref().or(partial.as_deref());
    let (heading, tone, rebuildable) = match (index.status, &partial) {
        (IndexStatus::InSync, _) => ("in sync", Tone::Ok, false),
        (IndexStatus::Drifted, _) => ("DRIFTED", Tone::Error, true),
        (IndexStatus::Missing, _) => ("MISSING", Tone::Error, true),
        (IndexStatus::Unknown, Some(p)) if p == on_disk => (
            "matches the valid entries (set unreadable)",
            Tone::Warning,
            false,
        ),
        (IndexStatus::Unknown, Some(_)) => ("DRIFTED (set unreadable)", Tone::Error, false),
        (IndexStatus::Unknown, None) => ("cannot derive: set unreadable", Tone::Warning, false),
    };
    let lines = match derived {
        Some(derived) if derived != on_disk => drift(on_disk, derived),
        _ => on_disk.lines().map(|l| (' ', l.to_owned())).collect(),
    };
    let lines = lines
        .into_iter()
        .map(|(marker, text)| IndexLine {
            mark: match marker {
                '-' => IndexMark::OnlyOnDisk,
                '+' => IndexMark::OnlyDerived,
                _ => IndexMark::Same,
            },
            text,
        })
        .collect();
    IndexView {
        heading: heading.to_owned(),
        tone,
        rebuildable,
        lines,
        gauges: vec![
            Gauge {
                label: "index lines".to_owned(),
                used: budget.index_lines,
                max: budget.max_index_lines,
            },
            Gauge {
                label: "index bytes".to_owned(),
                used: budget.index_bytes,
                max: budget.max_index_bytes,
            },
        ],
    }
}

/// The list pane's row `i` of `inspection`: an entry of the manifest with its state.
fn row_at(inspection: &Inspection, i: usize) -> Option<ListRow<'_>> {
    let entry = inspection.entries.get(i)?;
    let state = row_state(entry);
    Some(ListRow {
        name: entry_key(entry),
        kind: entry.record().map(|r| r.kind().as_str()),
        about: entry_reason(entry),
        state,
        notes: Vec::new(),
    })
}

/// The files in `.memory` that are not in the set: unlisted record files, then temp files.
fn strays(inspection: &Inspection) -> Vec<Stray> {
    let unlisted = inspection.unlisted.iter().map(|f| (f, StrayKind::Unlisted));
    let temp = inspection.temp_files.iter().map(|f| (f, StrayKind::Temp));
    unlisted
        .chain(temp)
        .map(|(file, kind)| Stray {
            file: file.clone(),
            label: kind.as_str(),
            what: match kind {
                StrayKind::Unlisted => "a .md file in .memory that the manifest does not list",
                StrayKind::Temp => "a temp file a writer left behind (no writer holds the lock)",
            },
            adoptable: kind == StrayKind::Unlisted,
        })
        .collect()
}

/// What a stray's `bytes` read as: the record in words (its description redacted, as a
/// record's is drawn), or why they are not one.
fn stray_reading(bytes: &[u8]) -> Result<String, String> {
    match codec::parse(bytes) {
        Ok(r) => Ok(format!(
            "{} ({}): {}",
            r.name(),
            r.kind().as_str(),
            redact(r.description())
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// What the list pane shows around the rows of `inspection`.
fn list_view(inspection: &Inspection) -> ListView {
    let mut problems = Vec::new();
    if let ManifestState::Invalid(rule) = &inspection.manifest {
        problems.push(format!("manifest.json: {rule}"));
    }
    problems.extend(inspection.root_error.clone());
    let (words, tone) = match inspection.lock {
        LockState::Free => ("free".to_owned(), Tone::Ok),
        LockState::Held { mtime_ms } => (
            format!("held (refreshed {})", crate::time::format_ms(mtime_ms)),
            Tone::Warning,
        ),
        LockState::Stale { mtime_ms } => (
            format!("stale since {}", crate::time::format_ms(mtime_ms)),
            Tone::Error,
        ),
    };
    ListView {
        strays_heading: if matches!(inspection.manifest, ManifestState::Invalid(_)) {
            "not listed (manifest.json does not parse: may be records):"
        } else {
            "not in the set:"
        },
        problems,
        empty: "(the set is empty)",
        state: Some(StateLine {
            label: Some("lock"),
            words,
            tone,
        }),
        marks_beside: true,
    }
}

/// Why an entry is not a valid record, in one line (a valid one: its description).
fn entry_reason(entry: &ManifestEntry) -> String {
    match &entry.state {
        EntryState::Valid(r) => r.description().to_owned(),
        EntryState::Invalid { error, .. } => match error.line() {
            Some(line) if !error.to_string().contains(&format!("line {line}")) => {
                format!("{error} (line {line})")
            }
            _ => error.to_string(),
        },
        EntryState::Missing => "listed in the manifest but missing".into(),
        EntryState::Escapes => "resolves outside .memory".into(),
        EntryState::UnsafeName => "the manifest lists an unsafe file name".into(),
        EntryState::NotAFile { kind } => format!("a {kind}, not a regular file"),
        EntryState::Unreadable(e) => e.clone(),
    }
}

/// How an entry stands, as a list row says it.
fn row_state(entry: &ManifestEntry) -> RowState {
    match &entry.state {
        EntryState::Valid(_) => RowState::Reads {
            health: None,
            past_cut: false,
        },
        EntryState::Invalid { .. } => RowState::Invalid,
        EntryState::Missing => RowState::Missing,
        EntryState::Escapes => RowState::Escapes,
        EntryState::UnsafeName => RowState::UnsafeName,
        EntryState::NotAFile { .. } => RowState::NotAFile,
        EntryState::Unreadable(_) => RowState::Unreadable,
    }
}

/// The memory pane's view of row `i`: a record's fields, size against the budgets and body;
/// a file that does not parse, numbered, its error at its line; an entry with no file, why.
fn memory_view(inspection: &Inspection, i: usize) -> Option<MemoryView> {
    let entry = inspection.entries.get(i)?;
    let mut view = MemoryView {
        name: entry_key(entry).to_owned(),
        file: entry.file.clone(),
        notes: Vec::new(),
        head: Vec::new(),
        findings: Vec::new(),
        reason: None,
        after: Vec::new(),
        text: None,
        description_at: None,
    };
    match &entry.state {
        EntryState::Valid(record) => {
            view.head = vec![
                HeadLine::field("name", record.name()),
                HeadLine::toned("type", record.kind().as_str(), Look::Kind),
                HeadLine::field("description", &redact(record.description())),
                HeadLine::field("file", &entry.file),
                size(&record.to_file_text()),
            ];
            view.description_at = Some((record.description_line(), 2));
            view.text = Some(MemoryText {
                text: redact(record.body()).into_owned(),
                first_line: record.body_line(),
                numbered: None,
            });
        }
        EntryState::Invalid { error, raw } => {
            let reason = entry_reason(entry);
            view.head = vec![
                HeadLine::Said(said(entry), Tone::Error),
                HeadLine::field("file", &entry.file),
                HeadLine::toned("error", &reason, Look::Tone(Tone::Error)),
                size(raw),
            ];
            view.reason = Some(reason);
            view.text = Some(MemoryText {
                text: redact(raw).into_owned(),
                first_line: 1,
                numbered: Some(error.line()),
            });
        }
        _ => {
            let reason = entry_reason(entry);
            view.head = vec![
                HeadLine::Said(said(entry), Tone::Error),
                HeadLine::field("file", &entry.file),
                HeadLine::toned("problem", &reason, Look::Tone(Tone::Error)),
            ];
            view.reason = Some(reason);
        }
    }
    Some(view)
}

/// An entry's state as its mark and word ("✗ invalid").
fn said(entry: &ManifestEntry) -> String {
    let (mark, word) = row_state(entry).mark_and_word();
    format!("{mark} {word}")
}

/// A record file's size against the budgets, each over its budget said as an error.
fn size(text: &str) -> HeadLine {
    let (bytes, lines) = (text.len(), count_lines(text));
    let look = |over: bool| {
        if over {
            Look::Tone(Tone::Error)
        } else {
            Look::Plain
        }
    };
    HeadLine::Field {
        label: "size".to_owned(),
        depth: 0,
        value: vec![
            Segment {
                text: format!("{bytes}/{MAX_RECORD_BYTES} bytes"),
                look: look(bytes > MAX_RECORD_BYTES),
            },
            Segment {
                text: " · ".to_owned(),
                look: Look::Plain,
            },
            Segment {
                text: format!("{lines}/{MAX_RECORD_LINES} lines"),
                look: look(lines > MAX_RECORD_LINES),
            },
        ],
    }
}

/// The workbench's questions about a `.memory` set, answered from its inspection: its rows are
/// the manifest's entries (the strays below them), each a record the record editor opens.
impl FolderView for Inspection {
    fn root(&self) -> &Path {
        &self.root
    }

    fn workspace(&self) -> &Path {
        &self.workspace
    }

    fn is_readable(&self) -> bool {
        Inspection::is_readable(self)
    }

    fn proposal_states(&self, proposals: &[Proposal]) -> HashMap<String, State> {
        let readable = Readable::of(self);
        proposals
            .iter()
            .map(|proposal| (proposal.id.clone(), readable.state(proposal)))
            .collect()
    }

    fn memories_differ(&self, other: &Shown) -> bool {
        other.downcast_ref::<Self>().is_none_or(|other| {
            Inspection::is_readable(self) != Inspection::is_readable(other)
                || !self.valid_records().eq(other.valid_records())
        })
    }

    fn same_state(&self, other: &Shown) -> bool {
        other
            .downcast_ref::<Self>()
            .is_some_and(|other| self.diff(other).is_empty())
    }

    #[cfg(feature = "watch")]
    fn news_since(&self, before: &Shown) -> Option<String> {
        let news = before.downcast_ref::<Self>()?.diff(self);
        (!news.is_empty()).then(|| crate::review::summary::commit_summary(&news))
    }

    fn corpus(&self) -> (Vec<Memory>, Option<String>) {
        (
            Inspection::valid_set(self).memories(),
            self.index.derived.clone(),
        )
    }

    fn index_view(&self) -> IndexView {
        index_view(self)
    }

    fn list_view(&self) -> ListView {
        list_view(self)
    }

    fn row_at(&self, i: usize) -> Option<ListRow<'_>> {
        row_at(self, i)
    }

    fn memory_view(&self, i: usize) -> Option<MemoryView> {
        memory_view(self, i)
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn key_at(&self, i: usize) -> Option<&str> {
        self.entries.get(i).map(entry_key)
    }

    fn name_and_file_at(&self, i: usize) -> Option<(&str, &str)> {
        let entry = self.entries.get(i)?;
        Some((entry_key(entry), &entry.file))
    }

    fn haystack_at(&self, i: usize) -> String {
        match self.entries.get(i) {
            Some(entry) => match entry.record() {
                Some(r) => format!(
                    "{} {} {} {} {}",
                    r.name(),
                    r.kind(),
                    r.description(),
                    entry.file,
                    r.body()
                ),
                None => entry.file.clone(),
            },
            None => String::new(),
        }
    }

    fn key_of(&self, name: &str) -> Option<String> {
        Some(name.to_owned())
    }

    fn holds_file(&self, file: &str) -> bool {
        self.entries.iter().any(|e| e.file == file)
    }

    fn finding_target(
        &self,
        code: &str,
        name: Option<&str>,
        file: Option<&str>,
        line: Option<usize>,
    ) -> Result<(String, String), String> {
        let entries = &self.entries;
        let entry = name
            .and_then(|name| {
                entries
                    .iter()
                    .find(|e| e.record().is_some_and(|r| r.name() == name))
            })
            .or_else(|| entries.iter().find(|e| Some(e.file.as_str()) == file));
        let Some(entry) = entry else {
            return Err(format!(
                "{code} is about {}, not a record of the manifest: nothing to jump to",
                crate::sanitize::line(file.unwrap_or("the set"))
            ));
        };
        let at = line.map(|l| format!(", line {l}")).unwrap_or_default();
        Ok((entry_key(entry).to_owned(), at))
    }

    fn strays(&self) -> Vec<Stray> {
        strays(self)
    }

    fn stray_reading(&self, bytes: &[u8]) -> Result<String, String> {
        stray_reading(bytes)
    }

    #[cfg(feature = "watch")]
    fn unreadable_reason(&self) -> Option<String> {
        crate::watch::unreadable_reason(self)
    }

    fn list_unreadable(&self) -> bool {
        matches!(self.manifest, ManifestState::Invalid(_))
    }

    fn index_underivable(&self) -> bool {
        self.index.derived.is_none()
    }

    fn raw_at(&self, i: usize) -> Option<&str> {
        match &self.entries.get(i)?.state {
            EntryState::Invalid { raw, .. } => Some(raw),
            _ => None,
        }
    }

    fn memories_are_files(&self) -> bool {
        false
    }

    fn opened_unchanged(&self, _file: &str, opened: &str) -> Option<bool> {
        super::editor_rules::opened_unchanged(self, opened)
    }
}
