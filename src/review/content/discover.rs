//! Memory sets under some roots, for `check --all`: every `.memory` folder, skipping `.git`,
//! `node_modules` and `target`, never following links. Each format adds its own rule to
//! [`SetFormat`] and [`format_of`]; `memwb sets` (issue 12) can replace this walk wholesale.

use std::path::{Path, PathBuf};

use serde::Serialize;
use walkdir::WalkDir;

use crate::store::MEMORY_DIR;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SetFormat {
    /// The `.memory` contract: `<workspace>/.memory/manifest.json`.
    Memory,
}

impl SetFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            SetFormat::Memory => "memory",
        }
    }
}

/// One set found: its format, its folder, and the project its paths are relative to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FoundSet {
    pub format: SetFormat,
    pub folder: PathBuf,
    pub project: PathBuf,
}

/// Folders a walk never enters: nobody keeps a memory set in them, and they are large.
const SKIPPED: [&str; 3] = [".git", "node_modules", "target"];

/// What kind of set `dir` (a folder met on the walk) is, if any.
fn format_of(dir: &Path) -> Option<FoundSet> {
    let name = dir.file_name()?.to_str()?;
    if name == MEMORY_DIR {
        return Some(FoundSet {
            format: SetFormat::Memory,
            folder: dir.to_owned(),
            project: dir.parent()?.to_owned(),
        });
    }
    None
}

/// Every set under `roots`, sorted by folder. Unreadable folders are skipped.
pub fn find_sets(roots: &[PathBuf]) -> Vec<FoundSet> {
    let mut found = Vec::new();
    for root in roots {
        let mut walk = WalkDir::new(root).follow_links(false).into_iter();
        while let Some(entry) = walk.next() {
            let Ok(entry) = entry else { continue };
            if !entry.file_type().is_dir() {
                continue;
            }
            let name = entry.file_name().to_string_lossy();
            if SKIPPED.contains(&name.as_ref()) {
                walk.skip_current_dir();
                continue;
            }
            if let Some(set) = format_of(entry.path()) {
                found.push(set);
                // A set's own folders (`.memwb`) hold no further sets.
                walk.skip_current_dir();
            }
        }
    }
    found.sort_by(|a, b| a.folder.cmp(&b.folder));
    found.dedup();
    found
}
