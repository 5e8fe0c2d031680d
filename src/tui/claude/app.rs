//! The workbench's state on a Claude Code folder, and its update function: keys and folder
//! changes in, effects out. Nothing here does I/O.

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::claude::{ClaudeFolder, Finding, READ_ONLY, Snapshot, Topic, audit};
use crate::folder::Summary;
use crate::session::selection::{DEFAULT_MAX_SELECTED, select_among};
use crate::store::Severity;
use crate::tui::panes::{Detail, Pane};
use crate::tui::theme::Theme;

/// What the body shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Panes,
    /// Every memory folder found, to open one (`S`).
    Sets,
}

/// What the event loop must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    Quit,
    /// Find every memory folder, then answer with [`ClaudeApp::sets_loaded`].
    LoadSets,
    /// Open this folder instead (a Claude Code folder here, a `.memory` in the main workbench).
    Open(Summary),
}

/// The keys, as data: dispatch, the hints bar and the help line all read this table.
pub const KEYS: [(&str, &str); 9] = [
    ("q", "quit"),
    ("Tab", "pane"),
    ("j/k", "move"),
    ("S", "sets"),
    ("i", "query"),
    ("Enter", "open/run"),
    ("Esc", "back"),
    ("e n d R", "write (read-only)"),
    ("?", "help"),
];

/// Keys that would change the folder in the `.memory` workbench.
const WRITE_KEYS: [char; 10] = ['e', 'E', 'n', 'd', 'R', 'p', 'H', 'u', 'a', 'x'];

#[derive(Debug, Clone, Default)]
pub struct QueryState {
    pub input: String,
    pub typing: bool,
    /// The last query's selected names and the block an agent would get.
    pub result: Option<(String, Vec<String>, String)>,
    pub detail: Detail,
}

pub struct ClaudeApp {
    pub folder: ClaudeFolder,
    pub snapshot: Arc<Snapshot>,
    pub findings: Vec<Finding>,
    /// Topic files, index order first: what the Manifest pane lists.
    pub order: Vec<String>,
    pub selected: usize,
    pub offset: usize,
    pub focus: Pane,
    pub record: Detail,
    pub index: Detail,
    pub query: QueryState,
    pub view: View,
    /// `None` until the first `S` has been answered.
    pub sets: Option<Vec<Summary>>,
    pub sets_selected: usize,
    pub sets_offset: usize,
    pub status: Option<(bool, String)>,
    pub theme: Theme,
    pub quit: bool,
}

impl ClaudeApp {
    pub fn new(folder: ClaudeFolder, snapshot: Arc<Snapshot>, theme: Theme) -> Self {
        let mut app = Self {
            folder,
            snapshot: snapshot.clone(),
            findings: Vec::new(),
            order: Vec::new(),
            selected: 0,
            offset: 0,
            focus: Pane::Manifest,
            record: Detail::default(),
            index: Detail::default(),
            query: QueryState::default(),
            view: View::Panes,
            sets: None,
            sets_selected: 0,
            sets_offset: 0,
            status: None,
            theme,
            quit: false,
        };
        app.reload(snapshot);
        app
    }

    /// A new reading of the folder; the selection stays on the same file when it still exists.
    pub fn reload(&mut self, snapshot: Arc<Snapshot>) {
        let keep = self.order.get(self.selected).cloned();
        self.findings = audit(&snapshot);
        self.order = snapshot.ordered().iter().map(|t| t.file.clone()).collect();
        self.selected = keep
            .and_then(|file| self.order.iter().position(|f| *f == file))
            .unwrap_or(0)
            .min(self.order.len().saturating_sub(1));
        self.snapshot = snapshot;
    }

    /// Switches to another Claude Code folder.
    pub fn replace(&mut self, folder: ClaudeFolder, snapshot: Arc<Snapshot>) {
        self.folder = folder;
        self.order.clear();
        self.selected = 0;
        self.offset = 0;
        self.record = Detail::default();
        self.index = Detail::default();
        self.query = QueryState::default();
        self.view = View::Panes;
        self.reload(snapshot);
    }

    pub fn selected_topic(&self) -> Option<&Topic> {
        self.snapshot.topic(self.order.get(self.selected)?)
    }

    /// The findings about one file.
    pub fn findings_for(&self, file: &str) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(move |f| f.file.as_deref() == Some(file))
    }

    /// The worst finding's severity for a file, if any.
    pub fn health(&self, file: &str) -> Option<Severity> {
        let mut worst = None;
        for finding in self.findings_for(file) {
            match finding.severity {
                Severity::Error => return Some(Severity::Error),
                Severity::Warning => worst = Some(Severity::Warning),
                // Worth reading, not a health problem.
                Severity::Info => {}
            }
        }
        worst
    }

    pub fn sets_loaded(&mut self, sets: Vec<Summary>) {
        let current = self.folder.root().display().to_string();
        self.sets_selected = sets.iter().position(|s| s.path == current).unwrap_or(0);
        self.sets = Some(sets);
    }

    fn say(&mut self, error: bool, text: impl Into<String>) {
        self.status = Some((error, text.into()));
    }

    pub fn key(&mut self, key: KeyEvent) -> Vec<Effect> {
        if key.kind == KeyEventKind::Release {
            return Vec::new();
        }
        if self.query.typing {
            self.type_query(key);
            return Vec::new();
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            return vec![Effect::Quit];
        }
        match key.code {
            KeyCode::Char('q') => {
                self.quit = true;
                return vec![Effect::Quit];
            }
            KeyCode::Char('S') => {
                if self.view == View::Sets {
                    self.view = View::Panes;
                } else {
                    self.view = View::Sets;
                    if self.sets.is_none() {
                        self.say(false, "looking for memory folders…");
                    }
                    return vec![Effect::LoadSets];
                }
            }
            KeyCode::Esc if self.view == View::Sets => self.view = View::Panes,
            KeyCode::Char('?') => {
                let help: Vec<String> =
                    KEYS.iter().map(|(k, what)| format!("{k} {what}")).collect();
                self.say(false, help.join(" · "));
            }
            KeyCode::Char(c) if WRITE_KEYS.contains(&c) => self.say(true, READ_ONLY),
            _ if self.view == View::Sets => return self.sets_key(key.code),
            KeyCode::Tab => self.focus = self.focus.next(1),
            KeyCode::BackTab => self.focus = self.focus.next(-1),
            KeyCode::Char('i') | KeyCode::Char('/') if self.focus == Pane::Query => {
                self.query.typing = true;
            }
            KeyCode::Char('i') => {
                self.focus = Pane::Query;
                self.query.typing = true;
            }
            code => self.move_in_pane(code),
        }
        Vec::new()
    }

    fn sets_key(&mut self, code: KeyCode) -> Vec<Effect> {
        let Some(sets) = &self.sets else {
            return Vec::new();
        };
        let len = sets.len();
        match code {
            KeyCode::Down | KeyCode::Char('j') => {
                self.sets_selected = (self.sets_selected + 1).min(len.saturating_sub(1));
            }
            KeyCode::Up | KeyCode::Char('k') => {
                self.sets_selected = self.sets_selected.saturating_sub(1);
            }
            KeyCode::Enter => {
                if let Some(set) = sets.get(self.sets_selected) {
                    return vec![Effect::Open(set.clone())];
                }
            }
            _ => {}
        }
        Vec::new()
    }

    fn move_in_pane(&mut self, code: KeyCode) {
        let action = match code {
            KeyCode::Down | KeyCode::Char('j') => crate::tui::keymap::Action::Down,
            KeyCode::Up | KeyCode::Char('k') => crate::tui::keymap::Action::Up,
            KeyCode::PageDown => crate::tui::keymap::Action::PageDown,
            KeyCode::PageUp => crate::tui::keymap::Action::PageUp,
            KeyCode::Char('g') | KeyCode::Home => crate::tui::keymap::Action::Top,
            KeyCode::Char('G') | KeyCode::End => crate::tui::keymap::Action::Bottom,
            _ => return,
        };
        match self.focus {
            Pane::Manifest => {
                let before = self.selected;
                crate::tui::panes::scroll(&mut self.selected, action, 10, self.order.len());
                if before != self.selected {
                    self.record = Detail::default();
                }
            }
            Pane::Record => {
                self.record.page(action);
            }
            Pane::Index => {
                self.index.page(action);
            }
            Pane::Query => {
                self.query.detail.page(action);
            }
        }
    }

    fn type_query(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Esc => self.query.typing = false,
            KeyCode::Enter => {
                self.query.typing = false;
                self.run_query();
            }
            KeyCode::Backspace => {
                self.query.input.pop();
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.query.input.push(c);
            }
            _ => {}
        }
    }

    /// The keyword fallback over the topic files, with the index as Claude Code loads it.
    pub fn run_query(&mut self) {
        let topics: Vec<Topic> = self
            .snapshot
            .ordered()
            .into_iter()
            .filter(|t| t.parsed().is_some())
            .cloned()
            .collect();
        let catalog = self
            .snapshot
            .parsed_index()
            .map(|i| i.loaded_text())
            .unwrap_or_default();
        let query = self.query.input.clone();
        let selection = select_among(&topics, &catalog, &query, None, DEFAULT_MAX_SELECTED);
        self.query.result = Some((query, selection.names(), selection.rendered));
        self.query.detail = Detail::default();
    }
}
