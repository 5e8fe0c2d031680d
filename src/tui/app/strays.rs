//! The files in `.memory` that are not in the set, selected in the Manifest pane: the Record
//! pane shows the selected one (read off the UI thread), `a` adopts an unlisted record file
//! into the set and `d` deletes one; both ask first, and both are refused if the file changed
//! since it was shown.

use super::modal::{Confirm, Modal};
use super::{App, Effect, StatusKind};
use crate::tui::editor::Editor;
use crate::tui::keymap::{self, Action, Scope};
use crate::tui::panes::strays::{StrayBytes, StrayView};

/// The status line while the set is unreadable: what to do about it.
pub fn unreadable() -> String {
    format!(
        "set unreadable: select a ✗ entry, {} repairs it, {} drops it from the manifest",
        keymap::label(Scope::Workbench, Action::Edit),
        keymap::label(Scope::Workbench, Action::Delete)
    )
}

/// The status line while `manifest.json` does not parse (the keys' refusal says the same).
pub(crate) use crate::tui::keymap::MANIFEST_UNREADABLE;

impl App {
    /// What the status line says while the set does not read, if it does not.
    pub(super) fn unreadable_status(&self) -> Option<String> {
        if self.manifest_unreadable() {
            Some(MANIFEST_UNREADABLE.to_owned())
        } else if !self.shown.is_readable() && !self.shown.is_empty() {
            Some(unreadable())
        } else {
            None
        }
    }

    pub(super) fn manifest_unreadable(&self) -> bool {
        self.shown.list_unreadable()
    }

    /// Keeps the Record pane on the selected stray: asks for its bytes when the selection
    /// moved onto another one, forgets it when the selection left the strays.
    pub(super) fn stray_due(&mut self) -> Vec<Effect> {
        let selected = self.manifest.selected_stray().cloned();
        match (selected, &self.record.stray) {
            (None, Some(_)) => self.record.stray = None,
            (Some(stray), Some(shown)) if shown.stray.file == stray.file => {
                let unreadable = self.manifest_unreadable();
                if let Some(shown) = &mut self.record.stray {
                    shown.set_unreadable = unreadable;
                }
            }
            (Some(stray), _) => {
                let file = stray.file.clone();
                self.record.stray = Some(StrayView {
                    stray,
                    bytes: None,
                    set_unreadable: self.manifest_unreadable(),
                });
                self.record.stray_reads.push(file.clone());
                return vec![Effect::ReadEntry { file }];
            }
            (None, None) => {}
        }
        Vec::new()
    }

    /// A file's bytes arrived: a stray's for the Record pane, else an entry's for the repair
    /// editor.
    pub(super) fn entry_read(&mut self, file: String, bytes: Option<Vec<u8>>) -> Vec<Effect> {
        if let Some(at) = self.record.stray_reads.iter().position(|f| *f == file) {
            self.record.stray_reads.remove(at);
            let read = bytes.map(|bytes| StrayBytes {
                reading: self.shown.stray_reading(&bytes),
                bytes,
            });
            if let Some(shown) = &mut self.record.stray
                && shown.stray.file == file
            {
                shown.bytes = Some(read);
            }
        } else if self.editor.is_none() {
            self.editor = Some(Editor::repair(self.editor_rules(), &file, bytes));
        }
        Vec::new()
    }

    /// `a` (`adopt`) or `d` on a stray: asks first, with the bytes shown as the base.
    pub(super) fn ask_about_stray(&mut self, adopt: bool) {
        let Some(stray) = self.manifest.selected_stray().cloned() else {
            let text =
                "select an unlisted file (below the set, under \"not in the set\") to adopt it";
            return self.set_status(StatusKind::Error, text.into());
        };
        if self.manifest_unreadable() {
            return self.set_status(StatusKind::Error, MANIFEST_UNREADABLE.into());
        }
        let file = stray.file;
        if adopt && !stray.adoptable {
            let text = format!(
                "{file} is a {} file, not a record to adopt; {} deletes it",
                stray.label,
                keymap::label(Scope::Workbench, Action::Delete)
            );
            return self.set_status(StatusKind::Error, text);
        }
        let shown = self.record.stray.as_ref().filter(|s| s.stray.file == file);
        match shown.and_then(|s| s.bytes.clone()) {
            Some(Some(read)) => {
                let seen = read.bytes;
                self.modal = Some(Modal::Confirm(Confirm::Stray { file, seen, adopt }));
            }
            Some(None) => self.set_status(
                StatusKind::Error,
                format!("{file} cannot be read; it is left alone (remove it by hand)"),
            ),
            None => self.set_status(
                StatusKind::Error,
                format!("{file} is still being read; try again when it is shown"),
            ),
        }
    }
}
