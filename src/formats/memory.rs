//! The `.memory` contract as a [`Backend`]: a strict reading of the manifest's set, addressed
//! by the store's rules (a listed file name, or a name one file holds).

use std::path::Path;

use super::{Backend, ReadError, Reading};
use crate::finding::Finding;
use crate::folder::Format;
use crate::memory::Memory;
use crate::store::{Store, StoreError};

/// An open `.memory` set, read through its store.
pub struct MemoryBackend<'a> {
    store: &'a Store,
}

impl<'a> MemoryBackend<'a> {
    pub fn new(store: &'a Store) -> Self {
        Self { store }
    }
}

impl Backend for MemoryBackend<'_> {
    fn format(&self) -> Format {
        Format::Memory
    }

    fn root(&self) -> &Path {
        self.store.root()
    }

    fn read(&self) -> Result<Reading, ReadError> {
        let set = self.store.read()?;
        Ok(Reading {
            memories: set.memories(),
            others: Vec::new(),
            catalog: set.index_text(),
        })
    }

    fn find<'r>(&self, reading: &'r Reading, name: &str) -> Result<&'r Memory, ReadError> {
        // The store's addressing rules and wording, on the set as it reads now.
        let file = self.store.read()?.require(name)?.file.clone();
        reading
            .memories
            .iter()
            .find(|m| m.file == file)
            .ok_or_else(|| {
                StoreError::NotFound {
                    name: name.to_owned(),
                }
                .into()
            })
    }

    fn text(&self, memory: &Memory) -> Result<String, ReadError> {
        Ok(self
            .store
            .read()?
            .require(&memory.file)?
            .record
            .to_file_text())
    }

    fn raw(&self, memory: &Memory) -> Result<Vec<u8>, ReadError> {
        self.store
            .entry_bytes(&memory.file)
            .ok_or_else(|| ReadError::Removed {
                path: self.store.root().join(&memory.file),
            })
    }

    fn audit(&self) -> Vec<Finding> {
        self.store.inspect().findings()
    }
}
