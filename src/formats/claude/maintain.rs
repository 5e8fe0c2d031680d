//! The upkeep of a Claude Code folder: MEMORY.md as Claude Code loads it and its fix,
//! consolidation, the journal's repair and acceptances. Changes are planned as text
//! (`claude::edit`) and written as one journaled compare-and-swap; memwb's own state (the
//! journal, acceptances) lives in the folder's state directory, never in the folder.

use std::path::Path;

use jiff::Timestamp;
use serde_json::Value;

use super::ClaudeBackend;
use super::journal::{self as journal, propose, writes_for_images};
use super::write::{require, written_warning};
use crate::claude::ClaudeState;
use crate::claude::edit::{self, FileWrite};
use crate::claude::folder::IndexFile;
use crate::claude::index::{ARCHIVE_FILE, CutBy, Load};
use crate::formats::{FormatError, IndexFix, Written, consolidated, unified_diff};
use crate::memory::Memory;
use crate::review::journal::{Journal, Repaired};
use crate::review::{EntryMeta, Op, ReviewError};
use crate::session::Plan;

/// `repair FILE` on a folder with no manifest entry to repair.
pub(super) const NO_MANIFEST: &str = "repair fixes a .memory manifest entry, and a Claude Code folder has no manifest: edit a topic file with `memwb set FILE ...`, remove it with `memwb rm FILE`, or move damaged journal lines aside with `memwb repair --journal`; nothing was changed";

impl ClaudeBackend<'_> {
    /// What Claude Code loads, then the marked line where it stops and what it drops.
    pub(super) fn loaded_index(&self) -> Result<String, FormatError> {
        let snapshot = self.folder.read();
        let index = match &snapshot.index {
            IndexFile::Read(index) => index,
            IndexFile::Missing => {
                return Err(FormatError::refused(format!(
                    "{} has no MEMORY.md: Claude Code loads no index",
                    snapshot.root.display()
                )));
            }
            IndexFile::Unreadable(why) => {
                return Err(FormatError::refused(format!(
                    "{} cannot be read: {why}",
                    self.folder.index_path().display()
                )));
            }
        };
        let mut text = index.loaded_text();
        if !text.is_empty() {
            text.push('\n');
        }
        if let Some(by) = index.cut_by {
            let dropped: Vec<&str> = index
                .lines
                .iter()
                .filter(|l| l.load == Load::Dropped)
                .map(|l| l.text.as_str())
                .collect();
            let limits = index.limits;
            let limit = match by {
                CutBy::Lines => format!("{} lines", limits.lines),
                CutBy::Size => format!("{} {}", limits.size, limits.unit.label()),
            };
            text.push_str(&format!(
                "── not loaded past here ({limit}): {} lines, {} entries ──\n",
                dropped.len(),
                index.dropped_entries().count()
            ));
            for line in dropped {
                text.push_str(line);
                text.push('\n');
            }
        }
        Ok(text)
    }

    /// Dangling entries out, unlisted files in, the oldest entries archived past the load
    /// limit; written as planned, compared against the text the plan was made from.
    pub(super) fn fix_index(&self, write: bool) -> Result<IndexFix, FormatError> {
        let folder = self.folder;
        let fix = self.planned_index_fix()?;
        if fix.is_empty() {
            return Ok(IndexFix {
                diff: String::new(),
                summary: String::new(),
                written: None,
            });
        }
        let diff: String = std::iter::once(&fix.index)
            .chain(fix.archive.as_ref())
            .filter(|change| change.changed())
            .map(unified_diff)
            .collect();
        let summary = fix_summary(&fix);
        let written = if write {
            let writes: Vec<FileWrite> = std::iter::once(fix.index)
                .chain(fix.archive)
                .filter(|c| c.changed())
                .map(|c| FileWrite {
                    file: c.file,
                    base: c.before,
                    after: Some(c.after),
                })
                .collect();
            let meta = EntryMeta {
                op: Some(Op::RebuildIndex),
                ..EntryMeta::default()
            };
            let warning = written_warning(journal::journaled(folder, writes, meta))?;
            Some(Written {
                summary: summary.clone(),
                warning,
            })
        } else {
            None
        };
        Ok(IndexFix {
            diff,
            summary,
            written,
        })
    }

    /// The plan read exactly as the consolidator's reply is (`Plan::consolidation`) and turned into
    /// file images as an approved consolidation proposal is, so the two write the same files.
    pub(super) fn consolidate_plan(&self, plan: &Value) -> Result<Written, FormatError> {
        let folder = self.folder;
        let mut value = plan.clone();
        let read = propose::read(folder);
        let candidates = propose::candidates(&read, &[])?;
        // A person names the sources as the folder does (`feedback_commit_style`, `用户偏好`);
        // the plan is checked against the names the consolidator would have been shown.
        if let Some(Value::Array(names)) = value.get_mut("source_names") {
            for name in names.iter_mut() {
                if let Some(known) = name.as_str().and_then(|n| candidates.record_name_of(n)) {
                    *name = Value::String(known.to_owned());
                }
            }
        }
        let plan = Plan::consolidation(&value, &candidates.records).map_err(|why| {
            FormatError::refused(format!("the consolidation plan is refused: {why}"))
        })?;
        let (files, refused) = propose::from_plan(&read, &candidates, &plan, Timestamp::now())?;
        if !refused.is_empty() {
            let why: Vec<String> = refused
                .iter()
                .map(|r| format!("{}: {}", r.name, r.reason))
                .collect();
            return Err(FormatError::refused(format!(
                "the consolidation plan is refused whole ({}): nothing was written",
                why.join("; ")
            )));
        }
        if files.is_empty() {
            return Err(FormatError::refused(
                "the plan changes nothing in this folder: nothing was written",
            ));
        }
        // The topic files compare with the text the plan was checked against; MEMORY.md's
        // new lines are derived under the lock from the index as it is then.
        let meta = EntryMeta {
            op: Some(Op::Consolidate),
            ..EntryMeta::default()
        };
        let result =
            journal::journaled_planned(folder, &mut || writes_for_images(folder, &files), meta);
        let warning = written_warning(result)?;
        let sources: Vec<String> = plan.source_names().iter().map(|s| s.to_string()).collect();
        Ok(Written {
            summary: consolidated(&sources, plan.records().iter().map(|r| r.name())),
            warning,
        })
    }

    pub(super) fn repair_journal_lines(&self) -> Result<Option<Repaired>, FormatError> {
        let state = ClaudeState::for_folder(self.folder)?;
        Ok(Journal::of_claude(&state).repair()?)
    }

    /// memwb's state about the folder is in its state directory, never in the folder.
    pub(super) fn accept_finding(
        &self,
        name: &str,
        keep: &mut dyn FnMut(&Memory, &Path) -> Result<(), ReviewError>,
    ) -> Result<String, FormatError> {
        let state = ClaudeState::for_folder(self.folder)?;
        let _lock = state.lock()?;
        let snapshot = self.folder.read();
        let topic = require(&snapshot, name)?;
        let memory = topic.memory();
        keep(&memory, state.path())?;
        Ok(memory.name)
    }
}

/// "1 dangling entry removed; 2 unlisted files added; ...".
fn fix_summary(fix: &edit::IndexFix) -> String {
    let counted =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    if !fix.removed.is_empty() {
        parts.push(format!(
            "{} removed",
            counted(fix.removed.len(), "dangling entry", "dangling entries")
        ));
    }
    if !fix.added.is_empty() {
        parts.push(format!(
            "{} added",
            counted(fix.added.len(), "unlisted file", "unlisted files")
        ));
    }
    if !fix.archived.is_empty() {
        parts.push(format!(
            "{} moved to {ARCHIVE_FILE}",
            counted(fix.archived.len(), "entry", "entries")
        ));
    }
    if fix.still_over {
        parts.push("still past the load limit: what remains is not entries".into());
    }
    parts.join("; ")
}
