//! `R`: the fix of MEMORY.md, shown as a diff and written only on yes, on every format (as
//! `memwb index --fix` shows it and `--yes` writes it). On `.memory` the fix is the index the
//! manifest derives, already in the inspection; on a Claude Code folder it is planned off the
//! UI thread.

use super::modal::{Confirm, Modal};
use super::{App, Effect, StatusKind};
use crate::claude::edit::{IndexFix, TextChange};
use crate::store::index::INDEX_FILE;
use crate::tui::claude_jobs::ClaudeJob;
use crate::tui::jobs::{Job, MemoryJob};

/// What `R` says when MEMORY.md is already what it should be.
pub(super) const NO_FIX: &str = "MEMORY.md needs no fix";

impl App {
    pub(super) fn preview_index_fix(&mut self) -> Vec<Effect> {
        if self.is_topics() {
            return self.run(Job::Claude(ClaudeJob::PlanIndexFix));
        }
        let index = self.shown.inspection().map(|i| i.index.clone());
        let Some((on_disk, derived)) =
            index.and_then(|index| Some((index.on_disk, index.derived?)))
        else {
            self.set_status(
                StatusKind::Error,
                "cannot rebuild MEMORY.md: the set does not read (the Manifest view shows why)"
                    .into(),
            );
            return Vec::new();
        };
        let fix = IndexFix {
            index: TextChange {
                file: INDEX_FILE.into(),
                before: on_disk,
                after: derived,
            },
            archive: None,
            removed: Vec::new(),
            added: Vec::new(),
            archived: Vec::new(),
            still_over: false,
        };
        if fix.is_empty() {
            self.set_status(StatusKind::Info, NO_FIX.into());
        } else {
            self.modal = Some(Modal::Confirm(Confirm::IndexFix(Box::new(fix))));
        }
        Vec::new()
    }

    /// Yes to the shown fix: it is written if it is still the fix (the job checks).
    pub(super) fn write_index_fix(&mut self, fix: &IndexFix) -> Vec<Effect> {
        if self.is_topics() {
            return self.run(Job::Claude(ClaudeJob::IndexFix(Box::new(fix.clone()))));
        }
        self.run(MemoryJob::RebuildIndex {
            shown: fix.index.after.clone(),
        })
    }
}
