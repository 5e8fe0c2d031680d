//! What the one workbench does differently on a Claude Code folder: the reading it shows, the
//! query's candidates, jumping and copying by topic file, and the keys that write.

use std::path::Path;
use std::sync::Arc;

use super::messages::FolderState;
use super::{App, StatusKind, describe_commit};
use crate::claude::{ClaudeFolder, Snapshot, frontmatter};
use crate::formats::Open as Backend;
use crate::formats::claude::ClaudeView;
use crate::store::LockState;
use crate::store::inspect::{BudgetUse, IndexState, IndexStatus, Inspection, ManifestState};
use crate::tui::editor::OnDisk;
use crate::tui::panes::claude as panes;
use crate::tui::panes::manifest::entry_key;
use crate::tui::theme::Theme;

/// The `.memory` side of the app on a Claude Code folder: an empty set, never written.
pub(super) fn empty_inspection(root: &Path) -> Inspection {
    Inspection {
        workspace: root.to_owned(),
        root: root.to_owned(),
        root_error: None,
        manifest: ManifestState::Missing,
        entries: Vec::new(),
        unlisted: Vec::new(),
        temp_files: Vec::new(),
        refused_files: Vec::new(),
        linked_files: Vec::new(),
        lock: LockState::Free,
        lock_blocked: None,
        index: IndexState {
            on_disk: None,
            derived: None,
            status: IndexStatus::InSync,
        },
        budget: BudgetUse {
            index_lines: 0,
            index_bytes: 0,
            max_index_lines: 0,
            max_index_bytes: 0,
        },
    }
}

impl App {
    /// The workbench on a Claude Code folder, showing `snapshot`.
    pub fn claude(folder: ClaudeFolder, snapshot: Arc<Snapshot>, theme: Theme) -> Self {
        let inspection = Arc::new(empty_inspection(folder.root()));
        let mut app = Self::with_backend(Backend::Claude(folder), inspection, theme);
        app.set_claude_reading(snapshot);
        app
    }

    /// A new reading of the Claude Code folder; the selection stays on the same file when it
    /// still exists.
    pub(crate) fn set_claude_reading(&mut self, snapshot: Arc<Snapshot>) {
        let Some(folder) = self.backend.claude() else {
            return;
        };
        let view = ClaudeView::new(snapshot, folder.limits());
        if self
            .claude
            .as_ref()
            .is_some_and(|old| old.snapshot.topics != view.snapshot.topics)
        {
            self.query.set_changed();
        }
        let keep = self.selected_topic_file();
        panes::refilter(&mut self.manifest, &view, keep.as_deref());
        panes::update_index(&mut self.index, &view);
        self.claude = Some(Arc::new(view));
        self.note_topic_on_disk();
        self.findings.due = true;
        // A change by anyone: the cases re-run (an unchanged reading announces nothing).
        self.evals.due = true;
    }

    /// The editor's banner when the topic file it opened changed or went on disk since.
    fn note_topic_on_disk(&mut self) {
        let (Some(view), Some(editor)) = (&self.claude, &mut self.editor) else {
            return;
        };
        let Some((file, opened)) = editor.topic_base() else {
            return;
        };
        let now = match view.snapshot.topic(&file) {
            None => OnDisk::Removed,
            Some(topic) if topic.parsed() == Some(&frontmatter::parse(&opened)) => {
                OnDisk::Unchanged
            }
            Some(_) => OnDisk::Changed,
        };
        editor.note_on_disk(&file, now);
    }

    /// The selected topic file (relative to the folder), on a Claude Code folder.
    pub fn selected_topic_file(&self) -> Option<String> {
        let view = self.claude.as_ref()?;
        panes::selected_file(&self.manifest, view).map(str::to_owned)
    }

    /// The reading of the topic files, when a Claude Code folder is open.
    fn topics(&self) -> Option<&ClaudeView> {
        self.claude.as_deref()
    }

    /// The list's key of the selected row: a memory's name (an entry that does not read: its
    /// file) on `.memory`, a topic file on Claude Code.
    pub(super) fn selected_key(&self) -> Option<String> {
        match self.topics() {
            Some(_) => self.selected_topic_file(),
            None => self.selected_entry().map(|e| entry_key(e).to_owned()),
        }
    }

    /// The selected memory's name (a file that does not read: the file) and its file.
    pub(super) fn selected_name_and_file(&self) -> Option<(String, String)> {
        match self.topics() {
            Some(view) => {
                let file = self.selected_topic_file()?;
                let name = view
                    .topic(&file)
                    .map_or(file.clone(), |t| t.name().to_owned());
                Some((name, file))
            }
            None => {
                let entry = self.selected_entry()?;
                Some((entry_key(entry).to_owned(), entry.file.clone()))
            }
        }
    }

    /// The list's key of the memory named `name` (`None`: the folder holds none by that name).
    pub(super) fn key_of_memory(&self, name: &str) -> Option<String> {
        match self.topics() {
            Some(view) => view.file_named(name),
            None => Some(name.to_owned()),
        }
    }

    /// Recomputes the visible rows, keeping the row whose key is `keep` selected.
    pub(super) fn refilter_keeping(&mut self, keep: Option<&str>) {
        match self.claude.clone() {
            Some(view) => panes::refilter(&mut self.manifest, &view, keep),
            None => self.manifest.refilter(&self.inspection, keep),
        }
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
        let code = checked.finding.code;
        let line = checked.finding.line;
        match self.topics() {
            Some(view) => {
                let file = checked
                    .finding
                    .file
                    .clone()
                    .filter(|f| view.topic(f).is_some());
                let Some(file) = file else {
                    return Err(format!(
                        "{code} is about the folder, not a topic file: nothing to jump to"
                    ));
                };
                Ok((
                    file,
                    line.map(|l| format!(" (line {l})")).unwrap_or_default(),
                ))
            }
            None => {
                let Some(entry) = self.entry_of(checked) else {
                    let about = checked.finding.file.as_deref().unwrap_or("the set");
                    return Err(format!(
                        "{code} is about {}, not a record of the manifest: nothing to jump to",
                        crate::sanitize::line(about)
                    ));
                };
                let key = entry_key(entry).to_owned();
                Ok((key, line.map(|l| format!(", line {l}")).unwrap_or_default()))
            }
        }
    }

    /// What a query chooses among (the memories that read) and the catalog an agent is given
    /// (`None`: the set does not read, so an agent selects nothing).
    pub(super) fn query_corpus(&self) -> (Vec<crate::memory::Memory>, Option<String>) {
        match self.topics() {
            Some(view) => (view.candidates(), Some(view.catalog())),
            None => (
                self.inspection.valid_set().memories(),
                self.inspection.index.derived.clone(),
            ),
        }
    }

    /// The folder as the watcher read it after a change, by anyone.
    pub(super) fn topics_changed(&mut self, change: crate::formats::Change) {
        let crate::formats::Seen::Claude(snapshot) = change.seen else {
            return;
        };
        // Our own writes were already shown from the job's result: what is new is what
        // differs from the folder as shown (the watcher's own diff may hold ours).
        let ours = self
            .claude
            .as_ref()
            .is_some_and(|v| *v.snapshot == *snapshot);
        let news = match &self.claude {
            Some(shown) => crate::claude_watch::diff(&shown.snapshot, &snapshot),
            None => crate::store::Commit {
                added: change.added,
                removed: change.removed,
                changed: change.changed,
                ..Default::default()
            },
        };
        self.set_claude_reading(snapshot.clone());
        if !ours {
            let text = format!("changed on disk: {}", describe_commit(&news));
            self.say_watched(StatusKind::Change, text, FolderState::Claude(snapshot));
        }
    }
}
