//! What the workbench's panes show of a `.memory` set, in the neutral terms of
//! [`crate::formats::view`]: the index file beside the index the manifest derives.

use super::super::entry_key;
use super::super::view::{
    Gauge, IndexLine, IndexMark, IndexView, ListRow, ListView, RowState, StateLine, Tone, drift,
};
use crate::store::LockState;
use crate::store::index;
use crate::store::inspect::{EntryState, IndexStatus, Inspection, ManifestEntry, ManifestState};

/// The index pane of `inspection`: `MEMORY.md` on disk beside the index its manifest derives,
/// the drift marked line by line; when bad entries make the set unreadable, against the index
/// its valid entries derive (they still say a lot).
pub(crate) fn index_view(inspection: &Inspection) -> IndexView {
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
pub(crate) fn row_at(inspection: &Inspection, i: usize) -> Option<ListRow<'_>> {
    let entry = inspection.entries.get(i)?;
    let state = match &entry.state {
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
    };
    Some(ListRow {
        name: entry_key(entry),
        kind: entry.record().map(|r| r.kind().as_str()),
        about: entry_reason(entry),
        state,
        notes: Vec::new(),
    })
}

/// What the list pane shows around the rows of `inspection`.
pub(crate) fn list_view(inspection: &Inspection) -> ListView {
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
pub(crate) fn entry_reason(entry: &ManifestEntry) -> String {
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
