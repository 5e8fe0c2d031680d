//! The open folder as read ([`Shown`]), whatever its format: a new reading replaces the one
//! shown with the selection kept on the same memory, the list's keys and names, where a
//! finding takes the list, and what a query chooses among.

use super::{App, StatusKind, strays, unreadable};
use crate::formats::Shown;
use crate::tui::editor::OnDisk;

impl App {
    /// Replaces the folder as shown, keeping the selection on the same memory when it still
    /// exists; what depends on it (the index, the proposals' states, the cases, the checks,
    /// an open editor's base) follows.
    pub fn set_shown(&mut self, shown: Shown) {
        let keep = self.selected_key();
        let was_readable = self.shown.is_readable();
        if self.shown.memories_differ(&shown) {
            self.query.set_changed();
        }
        self.shown = shown;
        self.findings.due = true;
        self.note_readability(was_readable);
        self.index.update(&self.shown);
        self.refilter_keeping(keep.as_deref());
        self.proposals.refresh(&self.review, &self.shown);
        // A change by anyone: the cases re-run, unless they ran on these very records.
        let ran = self.evals.ran_on(self.shown.memories());
        if !ran {
            self.evals.due = true;
        }
        self.note_on_disk();
    }

    /// The editor's banner when the memory it opened changed or went on disk since, naming
    /// it as its title does.
    fn note_on_disk(&mut self) {
        let Some(editor) = &mut self.editor else {
            return;
        };
        if let Some((file, opened)) = editor.opened_file() {
            let now = match self.shown.opened_unchanged(&file, &opened) {
                None => OnDisk::Removed,
                Some(true) => OnDisk::Unchanged,
                Some(false) => OnDisk::Changed,
            };
            let what = editor.opened_name().unwrap_or(&file).to_owned();
            editor.note_on_disk(&what, now);
        }
    }

    /// Says so in the status line when the set stops reading (with what to do) or reads again.
    fn note_readability(&mut self, was_readable: bool) {
        let readable = self.shown.is_readable();
        if was_readable && let Some(text) = self.unreadable_status() {
            self.set_status(StatusKind::Error, text);
        } else if !was_readable
            && readable
            && self
                .status
                .as_ref()
                .is_some_and(|s| s.text == unreadable() || s.text == strays::MANIFEST_UNREADABLE)
        {
            self.set_status(StatusKind::Info, "the set reads again".into());
        }
    }

    /// The selected topic file (relative to the folder), on a folder whose memories are
    /// whole files.
    pub fn selected_topic_file(&self) -> Option<String> {
        if !self.shown.memories_are_files() {
            return None;
        }
        self.selected_key()
    }

    /// The list's key of the selected row: a memory's name (an entry that does not read: its
    /// file) on `.memory`, a topic file on Claude Code.
    pub(super) fn selected_key(&self) -> Option<String> {
        let i = *self.manifest.visible.get(self.manifest.selected)?;
        self.shown.key_at(i).map(str::to_owned)
    }

    /// The selected memory's name (a file that does not read: the file) and its file.
    pub fn selected_name_and_file(&self) -> Option<(String, String)> {
        let i = *self.manifest.visible.get(self.manifest.selected)?;
        let (name, file) = self.shown.name_and_file_at(i)?;
        Some((name.to_owned(), file.to_owned()))
    }

    /// The list's key of the memory named `name` (`None`: the folder holds none by that name).
    pub(super) fn key_of_memory(&self, name: &str) -> Option<String> {
        self.shown.key_of(name)
    }

    /// Recomputes the visible rows, keeping the row whose key is `keep` selected.
    pub(super) fn refilter_keeping(&mut self, keep: Option<&str>) {
        self.manifest.refilter(&self.shown, keep);
    }

    /// The filter changed: recompute the visible rows, keeping the selection.
    pub(super) fn refilter_selected(&mut self) {
        let keep = self.selected_key();
        self.refilter_keeping(keep.as_deref());
    }

    /// Where Enter on `checked` goes: the list's key of the memory it is about and the words
    /// for its line in the status, or why there is nothing to jump to.
    pub(super) fn finding_target(
        &self,
        checked: &crate::content::report::Checked,
    ) -> Result<(String, String), String> {
        let finding = &checked.finding;
        self.shown.finding_target(
            finding.code,
            checked.name.as_deref(),
            finding.file.as_deref(),
            finding.line,
        )
    }

    /// What a query chooses among (the memories that read) and the catalog an agent is given
    /// (`None`: the set does not read, so an agent selects nothing).
    pub(super) fn query_corpus(&self) -> (Vec<crate::memory::Memory>, Option<String>) {
        let catalog = self.shown.catalog().map(str::to_owned);
        (self.shown.memories().to_vec(), catalog)
    }
}
