//! A Claude Code folder keeps memwb's state in the user's state directory, outside the folder
//! (Claude Code would take any file inside it for a memory), and its changes take the lock
//! there.

use std::any::Any;
use std::path::PathBuf;

use super::ClaudeBackend;
use super::journal::index_lines::LINE_FILES;
use crate::claude::ClaudeState;
use crate::formats::{ChangeLock, FormatError, StatePlace};
use crate::fs::IoHooks;
use crate::review::ReviewError;
use crate::review::journal::{Journal, JournalHome};
use crate::review::state::StateDir;

impl ClaudeBackend<'_> {
    /// The state directory, created when missing.
    pub(super) fn place_of_state(&self) -> Result<StatePlace, FormatError> {
        Ok(StatePlace::Dir(
            ClaudeState::for_folder(self.folder)?.path().to_owned(),
        ))
    }

    pub(super) fn lock_for_changes(&self) -> Result<ChangeLock, FormatError> {
        Ok(ChangeLock::holding(
            ClaudeState::for_folder(self.folder)?.lock()?,
        ))
    }
}

/// A Claude Code folder's journal and proposals live in its state directory, outside the
/// folder, under the state lock.
impl JournalHome for ClaudeState {
    fn dir(&self) -> PathBuf {
        self.path().to_owned()
    }

    fn open_state(&self) -> Result<Option<StateDir>, ReviewError> {
        StateDir::at(self.path()).map(Some)
    }

    fn create_state(&self) -> Result<StateDir, ReviewError> {
        StateDir::at(self.path())
    }

    fn hooks(&self) -> &IoHooks {
        ClaudeState::hooks(self)
    }

    fn lock(&self) -> Result<Box<dyn Any>, ReviewError> {
        Ok(Box::new(ClaudeState::lock(self)?))
    }

    fn index_files(&self) -> &'static [&'static str] {
        &LINE_FILES
    }
}

impl Journal {
    /// The journal of a Claude Code folder, in its state directory.
    pub fn of_claude(state: &ClaudeState) -> Self {
        Journal::at(state.clone())
    }
}
