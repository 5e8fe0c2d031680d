//! The whole workbench driven by key and mouse events; the engine runs for real on a temporary
//! workspace, so every save is a committed transaction on disk.

use crate::tui_harness;

use crossterm::event::KeyCode;
use memwb::store::{MemoryType, Record, Store, StoreOptions};
use memwb::tui::app::{Event, Modal};
use memwb::tui::keymap::{self, Action, Scope};
use memwb::tui::panes::Pane;
use tui_harness::Harness;

mod editing;
mod navigation;
mod outside;
mod query;

fn record(name: &str, description: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, description, body).expect("valid")
}

/// A workspace holding alpha, beta, gamma (in that order).
fn three() -> Harness {
    let h = Harness::empty(100, 30);
    h.store()
        .extend(vec![
            record("alpha", "first record", "alpha body"),
            record("beta", "second record", "beta body"),
            record("gamma", "third record", "gamma body"),
        ])
        .expect("extend");
    let mut h = h;
    h.watcher_tick();
    h
}

/// Another handle on the same folder, as another process would have.
fn other(h: &Harness) -> Store {
    Store::open(&h.workspace, StoreOptions::default()).expect("open")
}

fn selected(h: &Harness) -> Option<String> {
    h.app.selected_name_and_file().map(|(name, _)| name)
}

fn current(h: &Harness, name: &str) -> Option<Record> {
    other(h)
        .read()
        .expect("readable")
        .get(name)
        .map(|e| e.record.clone())
}
