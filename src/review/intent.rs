//! A journal intent: the entry a change will have, written before its commit point, and how to
//! tell afterwards, from the folder alone, whether that commit happened.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::entry::Entry;
use super::error::ReviewError;
use super::filed::{self, Decision};
use super::state::{sha256_hex, text_digest};
use crate::fs::read_optional;
use crate::store::{Store, StoreError, manifest};

/// How to tell, after a crash, whether the change an intent describes took effect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum Expect {
    /// The previous layout, still read: the whole file list before and after, which made an
    /// entry grow with the set.
    Manifest {
        before: Vec<String>,
        after: Vec<String>,
    },
    /// What the commit changes in the manifest: the files it lists anew and the files it stops
    /// listing, with digests of the whole list before and after, so an entry costs what the
    /// change touched whatever the set's size.
    ManifestChange {
        added: Vec<String>,
        removed: Vec<String>,
        before: String,
        after: String,
    },
    /// The previous layout, still read: the whole index text.
    Index {
        text: String,
    },
    /// The digest of the index text the commit writes.
    IndexDigest {
        digest: String,
    },
    Decided {
        proposal: String,
    },
    /// A change to a Claude Code folder: the entry's `files` are the images, and the write
    /// engine decides from them (`claude::write::recover`).
    Files,
    /// A stray file in `.memory` deleted (`present: false`) or put back (`true`): the change
    /// took effect when the file's presence is what it expected.
    Stray {
        file: String,
        present: bool,
    },
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

/// The SHA-256 of a manifest's file list (one name a line), hex.
pub(crate) fn files_digest(files: &[String]) -> String {
    let parts: Vec<&[u8]> = files
        .iter()
        .flat_map(|file| [file.as_bytes(), b"\n"])
        .collect();
    sha256_hex(&parts)
}

/// What an intent expects of the manifest: the files a commit from `before` to `after` adds
/// and removes, and digests of both lists.
pub(crate) fn manifest_change(before: &[String], after: &[String]) -> Expect {
    let before_set: HashSet<&String> = before.iter().collect();
    let after_set: HashSet<&String> = after.iter().collect();
    Expect::ManifestChange {
        added: after
            .iter()
            .filter(|f| !before_set.contains(f))
            .cloned()
            .collect(),
        removed: before
            .iter()
            .filter(|f| !after_set.contains(f))
            .cloned()
            .collect(),
        before: files_digest(before),
        after: files_digest(after),
    }
}

/// Whether a manifest listing `current` is past a commit that adds `added` and removes
/// `removed`: it is that commit's list, or lists a file only that commit could have written
/// (new record files have random names), or, for a pure removal, has moved on from the list
/// before without the removed files.
fn manifest_took_effect(
    current: &[String],
    added: &[&String],
    removed: &[&String],
    is_before: bool,
    is_after: bool,
) -> bool {
    if is_after {
        return true;
    }
    let listed: HashSet<&String> = current.iter().collect();
    if added.is_empty() && removed.is_empty() {
        false
    } else if added.is_empty() {
        !is_before && removed.iter().all(|f| !listed.contains(f))
    } else {
        added.iter().any(|f| listed.contains(f))
    }
}

impl Intent {
    /// Whether the commit this intent announced happened: the manifest is the one it expected,
    /// or lists a file only that commit could have written (new record files have random
    /// names), or, for a pure removal, has moved on without the removed files.
    pub(crate) fn took_effect(&self, store: &Store) -> Result<bool, ReviewError> {
        Ok(match &self.expect {
            Expect::Manifest { before, after } => {
                let current = listed_files(store)?;
                let before_set: HashSet<&String> = before.iter().collect();
                let after_set: HashSet<&String> = after.iter().collect();
                let added: Vec<&String> =
                    after.iter().filter(|f| !before_set.contains(f)).collect();
                let removed: Vec<&String> =
                    before.iter().filter(|f| !after_set.contains(f)).collect();
                manifest_took_effect(
                    &current,
                    &added,
                    &removed,
                    current == *before,
                    current == *after,
                )
            }
            Expect::ManifestChange {
                added,
                removed,
                before,
                after,
            } => {
                let current = listed_files(store)?;
                let digest = files_digest(&current);
                let added: Vec<&String> = added.iter().collect();
                let removed: Vec<&String> = removed.iter().collect();
                manifest_took_effect(
                    &current,
                    &added,
                    &removed,
                    digest == *before,
                    digest == *after,
                )
            }
            Expect::Index { text } => {
                read_optional(&store.index_path())?.as_deref() == Some(text.as_bytes())
            }
            Expect::IndexDigest { digest } => read_optional(&store.index_path())?
                .is_some_and(|bytes| text_digest(&bytes) == *digest),
            Expect::Decided { proposal: id } => filed::is_decided(store, id)?,
            // Never in a `.memory` journal; the Claude Code engine decides these.
            Expect::Files => false,
            Expect::Stray { file, present } => {
                std::fs::symlink_metadata(store.root().join(file)).is_ok() == *present
            }
        })
    }
}
