//! Where a `.memory` set keeps its journal and proposals (`.memory/.memwb`, opened through the
//! store's verified root descriptor) and the lock it writes under: the set's side of
//! `review::journal::JournalHome`, and the constructors callers name (`Journal::of`,
//! `StateDir::open`, `StateDir::create`), written here so that `review` names no format.

use std::any::Any;
use std::path::PathBuf;

use super::took_effect::took_effect;
use crate::fs::IoHooks;
use crate::review::ReviewError;
use crate::review::journal::{Journal, JournalHome, MEMWB_DIR};
use crate::review::state::StateDir;
use crate::store::{Store, StoreError};

impl JournalHome for Store {
    fn dir(&self) -> PathBuf {
        self.root().join(MEMWB_DIR)
    }

    fn open_state(&self) -> Result<Option<StateDir>, ReviewError> {
        StateDir::open(self)
    }

    fn create_state(&self) -> Result<StateDir, ReviewError> {
        StateDir::create(self)
    }

    fn hooks(&self) -> &IoHooks {
        &self.options().hooks
    }

    fn lock(&self) -> Result<Box<dyn Any>, ReviewError> {
        Ok(Box::new(self.lock_for_write()?))
    }
}

impl Journal {
    /// The journal of the `.memory` set `store`, in `.memory/.memwb/journal.jsonl`.
    pub fn of(store: &Store) -> Self {
        Journal::at(store.clone())
    }

    /// Decides an intent a crash (or a failed mark) left behind, from the set as it is. Call
    /// under the store lock.
    pub fn recover(&self, store: &Store) -> Result<(), ReviewError> {
        self.recover_with(&|intent| took_effect(intent, store))
    }
}

impl StateDir {
    /// `.memory/.memwb`, if it exists.
    pub fn open(store: &Store) -> Result<Option<Self>, ReviewError> {
        let Some(root) = store.open_root()? else {
            return Ok(None);
        };
        StateDir::open_child(&root, store.root(), MEMWB_DIR)
    }

    /// `.memory/.memwb`, created (with `.memory`) if needed; a new one is made durable.
    pub fn create(store: &Store) -> Result<Self, ReviewError> {
        store.ensure_root()?;
        let root = store.open_root()?.ok_or_else(|| StoreError::RootEscapes {
            path: store.root().to_owned(),
        })?;
        StateDir::create_child(&root, store.root(), MEMWB_DIR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::journal::JOURNAL_FILE;
    use crate::store::StoreOptions;

    #[test]
    fn a_sets_journal_is_in_its_memwb_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
        let journal = Journal::of(&store);
        assert_eq!(
            journal.path(),
            store.root().join(MEMWB_DIR).join(JOURNAL_FILE)
        );
        assert!(StateDir::open(&store).expect("open").is_none());
        let made = StateDir::create(&store).expect("create");
        assert_eq!(made.path(), store.root().join(MEMWB_DIR));
        assert!(StateDir::open(&store).expect("open").is_some());
    }
}
