//! What the workbench's panes show of a `.memory` set, in the neutral terms of
//! [`crate::formats::view`]: the index file beside the index the manifest derives.

use super::super::view::{Gauge, IndexLine, IndexMark, IndexView, Tone, drift};
use crate::store::index;
use crate::store::inspect::{IndexStatus, Inspection, ManifestState};

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
