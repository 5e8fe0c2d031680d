//! What the one workbench does differently on a Claude Code folder: the reading it shows, the
//! query's candidates, jumping and copying by topic file, and the keys that write.

use std::path::Path;
use std::sync::Arc;

use super::messages::FolderState;
use super::{App, Effect, StatusKind, describe_commit};
use crate::claude::{ClaudeFolder, Snapshot, frontmatter};
use crate::claude_watch::ClaudeEvent;
use crate::formats::Open as Backend;
use crate::formats::claude::ClaudeView;
use crate::store::LockState;
use crate::store::inspect::{BudgetUse, IndexState, IndexStatus, Inspection, ManifestState};
use crate::tui::editor::OnDisk;
use crate::tui::keymap::{self, Action, Scope};
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
    pub fn set_claude_reading(&mut self, snapshot: Arc<Snapshot>) {
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

    /// The filter changed: recompute the visible rows, keeping the selection.
    pub(super) fn refilter_selected(&mut self) {
        match self.claude.clone() {
            Some(view) => {
                let keep = self.selected_topic_file();
                panes::refilter(&mut self.manifest, &view, keep.as_deref());
            }
            None => {
                let keep = self.selected_entry().map(|e| entry_key(e).to_owned());
                self.manifest.refilter(&self.inspection, keep.as_deref());
            }
        }
    }

    pub(super) fn claude_watch(&mut self, event: ClaudeEvent) -> Vec<Effect> {
        match event {
            ClaudeEvent::Review => return vec![Effect::LoadReview],
            ClaudeEvent::Changed(change) => {
                // Our own writes were already shown from the job's result: what is new is what
                // differs from the folder as shown (the watcher's own diff may hold ours).
                let ours = self
                    .claude
                    .as_ref()
                    .is_some_and(|v| *v.snapshot == *change.snapshot);
                let news = match &self.claude {
                    Some(shown) => crate::claude_watch::diff(&shown.snapshot, &change.snapshot),
                    None => change.commit,
                };
                self.set_claude_reading(change.snapshot.clone());
                if !ours {
                    let text = format!("changed on disk: {}", describe_commit(&news));
                    let state = FolderState::Claude(change.snapshot);
                    self.say_watched(StatusKind::Change, text, state);
                }
            }
            ClaudeEvent::Error(message) => {
                self.set_status(StatusKind::Error, format!("watch: {message}"))
            }
        }
        Vec::new()
    }

    /// The actions that differ on a Claude Code folder (`None`: not one, or not on one).
    pub(super) fn claude_act(&mut self, action: Action) -> Option<Vec<Effect>> {
        let view = self.claude.clone()?;
        if let Some(effects) = self.claude_write(action) {
            return Some(effects);
        }
        match action {
            Action::Yank | Action::YankPath => {
                let Some(file) = self.selected_topic_file() else {
                    self.set_status(StatusKind::Error, "nothing selected to copy".into());
                    return Some(Vec::new());
                };
                let text = if action == Action::YankPath {
                    self.backend.root().join(&file).display().to_string()
                } else {
                    view.topic(&file)
                        .map_or(file.clone(), |t| t.name().to_owned())
                };
                self.set_status(StatusKind::Info, format!("copied {text}"));
                return Some(vec![Effect::Yank(text)]);
            }
            Action::JumpTo if self.view != super::View::Findings => {
                self.claude_jump_to_chosen(&view)
            }
            _ => return None,
        }
        Some(Vec::new())
    }

    /// Enter in the Query pane on a Claude Code folder: the chosen topic file is selected.
    fn claude_jump_to_chosen(&mut self, view: &ClaudeView) {
        let chosen = self
            .query
            .result
            .as_ref()
            .and_then(|r| r.names.get(self.query.chosen))
            .cloned();
        let Some(file) = chosen.as_deref().and_then(|name| view.file_named(name)) else {
            let text = format!(
                "no selected memory to jump to; {} types a query",
                keymap::label(Scope::Query, Action::QueryInput)
            );
            self.set_status(StatusKind::Error, text);
            return;
        };
        panes::refilter(&mut self.manifest, view, Some(&file));
        let mut text = format!("jumped to {}", crate::sanitize::line(&file));
        if self.selected_topic_file().as_deref() != Some(file.as_str()) {
            self.manifest.filter.clear();
            panes::refilter(&mut self.manifest, view, Some(&file));
            text.push_str("; filter cleared to show it");
        }
        self.focus = super::Pane::Manifest;
        self.set_status(StatusKind::Info, text);
    }

    /// The query over the topic files, with the index as Claude Code loads it as the catalog.
    pub(super) fn claude_query(&mut self) -> Option<Vec<Effect>> {
        let view = self.claude.clone()?;
        let query = self.query.input.text().to_owned();
        self.query.asked = Some(query.clone());
        Some(vec![Effect::Query {
            query,
            candidates: view.candidates(),
            catalog: Some(view.catalog()),
        }])
    }
}
