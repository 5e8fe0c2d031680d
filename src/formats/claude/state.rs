//! A Claude Code folder keeps memwb's state in the user's state directory, outside the folder
//! (Claude Code would take any file inside it for a memory), and its changes take the lock
//! there.

use super::ClaudeBackend;
use crate::claude::ClaudeState;
use crate::formats::{ChangeLock, FormatError, StatePlace};

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
