//! `R`: the fix of MEMORY.md, shown as a diff and written only on yes, on every format (as
//! `memwb index --fix` shows it and `--yes` writes it). The open folder's backend plans it off
//! the UI thread, and writes it only if it is still the fix.

use super::{App, Effect};
use crate::formats::IndexPlan;
use crate::tui::jobs::Job;

/// What `R` says when MEMORY.md is already what it should be.
pub(super) const NO_FIX: &str = "MEMORY.md needs no fix";

impl App {
    pub(super) fn preview_index_fix(&mut self) -> Vec<Effect> {
        self.run(Job::PlanIndexFix)
    }

    /// Yes to the shown fix: it is written if it is still the fix (the backend checks).
    pub(super) fn write_index_fix(&mut self, fix: &IndexPlan) -> Vec<Effect> {
        self.run(Job::IndexFix(Box::new(fix.clone())))
    }
}

/// The lines of a planned `index --fix`: each file's diff, what it removes, adds and archives.
pub fn fix_lines(fix: &IndexPlan) -> Vec<(char, String)> {
    let mut out = Vec::new();
    for change in [Some(&fix.index), fix.archive.as_ref()]
        .into_iter()
        .flatten()
    {
        if !change.changed() {
            continue;
        }
        out.push((' ', format!("── {}", change.file)));
        out.extend(crate::tui::panes::index::drift(
            change.before.as_deref().unwrap_or(""),
            &change.after,
        ));
    }
    if fix.still_over {
        out.push((
            '!',
            "still past the load limit: what is left is not index entries".into(),
        ));
    }
    out
}
