//! The Sets view and opening another folder in place: either format, from either format.

use std::sync::Arc;

use super::{App, Effect, Event, StatusKind, View};
use crate::formats::Open as Backend;
use crate::formats::{Shown, Summary};
use crate::tui::evals::Evals;
use crate::tui::review::Review;
use crate::tui::theme::Theme;

/// A folder as first read, to show it ([`App::open_folder`]).
pub struct Reading {
    pub shown: Shown,
    pub review: Arc<Review>,
}

impl Reading {
    /// Reads `backend` (I/O: run it off the UI thread).
    pub fn of(backend: &Backend) -> Self {
        Self {
            shown: backend.backend().shown(),
            review: Arc::new(Review::of(backend)),
        }
    }
}

/// The status while the Sets view looks for folders (replaced when they are found).
pub(super) const LOOKING: &str = "looking for memory folders…";

impl App {
    /// `S`: the Sets view (again: back), looking for the folders each time it opens.
    pub(super) fn toggle_sets(&mut self) -> Vec<Effect> {
        if self.view == View::Sets {
            self.view = View::Panes;
            return Vec::new();
        }
        self.view = View::Sets;
        self.sets.current = self.backend.root().display().to_string();
        if self.sets.sets.is_none() {
            self.set_status(StatusKind::Info, LOOKING.into());
        }
        vec![Effect::LoadSets]
    }

    /// Enter in the Sets view: the selected folder in place of this one.
    pub(super) fn open_selected_set(&mut self) -> Vec<Effect> {
        match self.sets.selected_set() {
            Some(set) if set.path == self.sets.current => {
                self.view = View::Panes;
                Vec::new()
            }
            Some(set) => vec![Effect::OpenSet(Box::new(set.clone()))],
            None => Vec::new(),
        }
    }

    /// The workbench on `backend`, showing `reading`.
    pub fn opened(backend: Backend, reading: Reading, theme: Theme) -> Self {
        let mut app = Self::new(backend.clone(), reading.shown.clone(), theme);
        app.show(backend, reading);
        if let Some(text) = app.unreadable_status() {
            app.set_status(StatusKind::Error, text);
        }
        app
    }

    /// Shows `backend`, read as `reading`, in place of the folder open: the panes start over.
    pub fn open_folder(&mut self, backend: Backend, reading: Reading) {
        if self.editor.as_ref().is_some_and(|e| e.is_dirty()) {
            self.set_status(
                StatusKind::Error,
                "the editor holds unsaved changes: save or close it first".into(),
            );
            return;
        }
        self.show(backend, reading);
        let text = format!(
            "opened {} ({})",
            self.backend.root().display(),
            self.backend.format().describe()
        );
        if let Some(why) = self.unreadable_status() {
            self.set_status(StatusKind::Error, format!("{text}; {why}"));
        } else {
            self.set_status(StatusKind::Info, text);
        }
    }

    fn show(&mut self, backend: Backend, reading: Reading) {
        self.backend = backend;
        self.manifest = Default::default();
        self.record = Default::default();
        self.index = Default::default();
        self.query = Default::default();
        self.proposals = Default::default();
        self.history = Default::default();
        // The previous set's findings and marks go with it; the new set is checked afresh
        // (a check of the old one still running is dropped when it ends, `App::audited`).
        self.findings = crate::tui::panes::findings::FindingsPane::new();
        self.editor = None;
        self.modal = None;
        self.view = View::Panes;
        self.zoom = false;
        self.focus = super::Pane::Manifest;
        self.evals = Evals::new();
        self.review = Arc::new(Review::default());
        self.shown = reading.shown;
        self.refilter_keeping(None);
        self.index.update(&self.shown);
        self.set_review(reading.review, false);
    }

    /// The folder chosen in the Sets view could not be opened.
    pub fn cannot_open(&mut self, set: &Summary, why: &str) {
        self.set_status(
            StatusKind::Error,
            format!("cannot open {}: {why}", set.path),
        );
    }

    /// News from a watcher of another folder than the one open (it was replaced meanwhile).
    pub(super) fn stale(&self, event: &Event) -> bool {
        match event {
            Event::Watch(watched) => watched.root != self.backend.root(),
            _ => false,
        }
    }
}
