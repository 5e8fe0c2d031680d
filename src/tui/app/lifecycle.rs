//! The folder watcher's news, copying to the clipboard, and quitting.

use super::modal::{Confirm, Modal};
use super::{App, Effect, StatusKind};
use crate::formats::{Shown, WatchEvent};
use crate::tui::editor::Editor;
use crate::tui::keymap::Action;

impl App {
    /// A save (or any change) waits for a lock another process holds: said in the status line,
    /// never on the terminal under the drawing; the change goes on when the lock is free.
    pub(super) fn lock_waited(&mut self, wait: crate::formats::LockWait) {
        let since = crate::time::format_ms(wait.held_since_ms);
        let clock = since.get(11..19).unwrap_or(&since);
        self.set_status(
            StatusKind::Info,
            format!(
                "waiting: another process holds the lock (since {clock}); the change goes on once it is free, and keys typed meanwhile are kept"
            ),
        );
    }

    /// The watcher's news of the folder open (memwb's own state for it is [`Effect::LoadReview`]).
    pub(super) fn watch(&mut self, event: WatchEvent) -> Vec<Effect> {
        match event {
            WatchEvent::Changed(change) => {
                self.watch_readings += 1;
                self.changed_on_disk(change.seen);
            }
            WatchEvent::Reread(shown) => {
                self.watch_readings += 1;
                self.set_shown(shown);
            }
            WatchEvent::Error(message) => self.set_status(StatusKind::Error, message),
            WatchEvent::Review => return vec![Effect::LoadReview],
        }
        Vec::new()
    }

    /// The folder as the watcher read it after a change, by anyone.
    fn changed_on_disk(&mut self, shown: Shown) {
        // Our own changes were already shown from the job's result: what is new is what
        // differs from the folder as shown (the watcher's own news may hold ours), unless this
        // is the state one of ours left while a reading of the watcher's stood instead.
        let news = if self.is_own_unshown(&shown) {
            None
        } else {
            shown.news_since(&self.shown)
        };
        let was_readable = self.shown.is_readable();
        self.set_shown(shown.clone());
        let Some(news) = news else {
            return;
        };
        let text = format!("changed on disk: {news}");
        if was_readable && let Some(why) = self.unreadable_status() {
            self.say_watched(StatusKind::Error, format!("{text}; {why}"), shown);
        } else {
            self.say_watched(StatusKind::Change, text, shown);
        }
    }

    /// `y`: the selected record's name (an entry that does not read: its file); `Y`: the path
    /// of its file. On the clipboard through the terminal (OSC 52), said in the status line.
    pub(super) fn yank(&mut self, action: Action) -> Vec<Effect> {
        let Some((name, file)) = self.selected_name_and_file() else {
            self.set_status(StatusKind::Error, "nothing selected to copy".into());
            return Vec::new();
        };
        let text = if action == Action::YankPath {
            self.backend.root().join(&file).display().to_string()
        } else {
            name
        };
        self.set_status(StatusKind::Info, format!("copied {text}"));
        vec![Effect::Yank(text)]
    }

    /// The one way to quit: asks first when the editor holds unsaved changes.
    pub fn quit(&mut self) -> Vec<Effect> {
        if self.editor.as_ref().is_some_and(Editor::is_dirty) {
            self.modal = Some(Modal::Confirm(Confirm::Quit));
            return Vec::new();
        }
        self.quit_now()
    }

    /// Quits without asking (the user said yes to losing the edit).
    pub(super) fn quit_now(&mut self) -> Vec<Effect> {
        self.quit = true;
        vec![Effect::Quit]
    }
}
