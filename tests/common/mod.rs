//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod chat_server;

use std::path::{Path, PathBuf};

use memwb::store::{MemoryType, Record, Store, StoreOptions};

pub fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(path)
}

/// A fresh workspace in a temporary directory.
pub fn workspace() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// A copy of a fixture store (e.g. `stores/basic`) in a fresh workspace.
pub fn copy_fixture_store(name: &str) -> tempfile::TempDir {
    let dir = workspace();
    let from = fixture(name).join(".memory");
    let to = dir.path().join(".memory");
    std::fs::create_dir(&to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("fixture") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
    }
    dir
}

pub fn open(dir: &Path) -> Store {
    Store::open(dir, StoreOptions::default()).expect("open")
}

pub fn record(name: &str, description: &str, body: &str) -> Record {
    Record::new(name, MemoryType::Project, description, body).expect("valid record")
}

pub fn names(store: &Store) -> Vec<String> {
    store
        .records()
        .expect("readable")
        .iter()
        .map(|r| r.name().to_owned())
        .collect()
}

/// Every file directly in `.memory` (not memwb's `.memwb/` folder), sorted, with its bytes:
/// to assert that the set's files did not change.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let root = dir.join(".memory");
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .map(|e| e.expect("entry"))
        .filter(|e| e.file_type().map(|t| t.is_file()).unwrap_or(false))
        .map(|e| {
            (
                e.file_name().into_string().expect("utf-8"),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    files.sort();
    files
}
