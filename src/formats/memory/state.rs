//! A `.memory` set keeps memwb's state in `.memory/.memwb/`, and its changes take the store's
//! lock.

use super::MemoryBackend;
use crate::formats::{ChangeLock, FormatError, StatePlace};

impl MemoryBackend<'_> {
    pub(super) fn place_of_state(&self) -> StatePlace {
        StatePlace::in_set(self.store.clone())
    }

    pub(super) fn lock_for_changes(&self) -> Result<ChangeLock, FormatError> {
        Ok(ChangeLock::holding(self.store.lock_for_write()?))
    }
}
