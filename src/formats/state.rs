//! Where memwb keeps its own state for a folder (evaluation cases, reply caches), and the lock
//! every memwb change to the folder takes: what the format-neutral layers above ask of a
//! backend to keep state beside a folder of any format.

use std::path::PathBuf;
use std::sync::Arc;

use crate::review::journal::JournalHome;

/// Where memwb's own state for a folder lives ([`super::Backend::state_place`]).
#[derive(Debug, Clone)]
pub enum StatePlace {
    /// Inside the set, in its state directory, opened through the set's engine (checked:
    /// never through a link): where its journal lives.
    InSet(Arc<dyn JournalHome>),
    /// A directory of its own, outside the folder (a format whose folder memwb must not write
    /// into other than through its changes).
    Dir(PathBuf),
}

impl StatePlace {
    /// Inside the set whose engine is `home` (a `.memory` store: `.memory/.memwb/`).
    pub fn in_set(home: impl JournalHome + 'static) -> Self {
        Self::InSet(Arc::new(home))
    }
}

/// A held lock on a folder's changes ([`super::Backend::lock_changes`]): released when
/// dropped.
pub struct ChangeLock {
    _held: Box<dyn std::any::Any>,
}

impl ChangeLock {
    pub(crate) fn holding(lock: impl std::any::Any) -> Self {
        Self {
            _held: Box::new(lock),
        }
    }
}
