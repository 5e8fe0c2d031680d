//! A journal intent: the entry a change will have, written before its commit point, and how to
//! tell afterwards, from the folder alone, whether that commit happened.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::error::ReviewError;
use super::journal::Entry;
use super::proposal::{self, Decision};
use crate::store::fsutil::read_optional;
use crate::store::{Store, StoreError, manifest};

/// How to tell, after a crash, whether the change an intent describes took effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum Expect {
    Manifest {
        before: Vec<String>,
        after: Vec<String>,
    },
    Index {
        text: String,
    },
    Decided {
        proposal: String,
    },
    /// A change to a Claude Code folder: the entry's `files` are the images, and the write
    /// engine decides from them (`claude::write::recover`).
    Files,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Intent {
    pub entry: Entry,
    pub expect: Expect,
    pub decision: Option<Decision>,
}

/// The file names the manifest on disk lists now (none when it is missing or unreadable).
pub(crate) fn listed_files(store: &Store) -> Result<Vec<String>, StoreError> {
    Ok(match read_optional(&store.manifest_path())? {
        Some(bytes) => manifest::parse_lenient(&bytes).unwrap_or_default(),
        None => Vec::new(),
    })
}

impl Intent {
    /// Whether the commit this intent announced happened: the manifest is the one it expected,
    /// or lists a file only that commit could have written (new record files have random
    /// names), or, for a pure removal, has moved on without the removed files.
    pub(crate) fn took_effect(&self, store: &Store) -> Result<bool, ReviewError> {
        Ok(match &self.expect {
            Expect::Manifest { before, after } => {
                let current = listed_files(store)?;
                if current == *after {
                    true
                } else {
                    let listed: HashSet<&String> = current.iter().collect();
                    let before_set: HashSet<&String> = before.iter().collect();
                    let added: Vec<&String> =
                        after.iter().filter(|f| !before_set.contains(f)).collect();
                    let after_set: HashSet<&String> = after.iter().collect();
                    let removed: Vec<&String> =
                        before.iter().filter(|f| !after_set.contains(f)).collect();
                    if added.is_empty() && removed.is_empty() {
                        false
                    } else if added.is_empty() {
                        current != *before && removed.iter().all(|f| !listed.contains(f))
                    } else {
                        added.iter().any(|f| listed.contains(f))
                    }
                }
            }
            Expect::Index { text } => {
                read_optional(&store.index_path())?.as_deref() == Some(text.as_bytes())
            }
            Expect::Decided { proposal: id } => proposal::is_decided(store, id)?,
            // Never in a `.memory` journal; the Claude Code engine decides these.
            Expect::Files => false,
        })
    }
}
