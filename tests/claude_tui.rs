//! The one workbench on a Claude Code folder without a terminal: its state driven by keys
//! through the shared harness, its screen drawn on ratatui's TestBackend, on a copy of
//! tests/fixtures/claude.

use crate::common;
use crate::tui_harness;

use std::path::Path;

use common::copy_dir;
use crossterm::event::KeyCode;
use memwb::claude::FileImage;
use memwb::claude::LoadLimits;
use memwb::formats::claude::journal::{self, NewFiles};
use memwb::review::Origin;
use memwb::review::proposal::images;
use memwb::tui::app::{Effect, Event, StatusKind, View};
use memwb::tui::panes::Pane;
use tui_harness::{Harness, set_row as row};

mod cases;
mod editing;
mod proposals;
mod screen;

fn fixture(dir: &Path) -> std::path::PathBuf {
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/claude/config/projects/-home-dev-shop/memory"),
        &dir.join("memory"),
    );
    // A PID no process can have: no consolidation is running.
    std::fs::write(dir.join("memory/.consolidate-lock"), "4194305").expect("lock");
    dir.join("memory")
}

fn open(limits: LoadLimits) -> (tempfile::TempDir, Harness) {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = fixture(dir.path());
    let h = Harness::claude(&folder, &dir.path().join("state"), limits, 150, 45);
    (dir, h)
}

fn order(h: &Harness) -> Vec<String> {
    memwb::formats::claude::shown_topics(&h.app.shown)
        .expect("a reading")
        .order
        .clone()
}

fn read(dir: &Path, file: &str) -> Option<String> {
    std::fs::read_to_string(dir.join("memory").join(file)).ok()
}

fn editor_field(h: &mut Harness, field: usize, value: &str) {
    h.app
        .editor
        .as_mut()
        .expect("editor")
        .set_value(field, value);
}
