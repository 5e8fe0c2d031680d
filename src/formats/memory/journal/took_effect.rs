//! Whether the change a journal intent announced took effect in a `.memory` set, told from
//! the set alone (recovery after a crash, under the store lock).

use std::collections::HashSet;

use crate::fs::read_optional;
use crate::review::ReviewError;
use crate::review::intent::{Expect, Intent, files_digest};
use crate::review::proposal;
use crate::review::state::text_digest;
use crate::store::{Store, StoreError, manifest};

/// The file names the manifest on disk lists now (none when it is missing or unreadable).
pub(crate) fn listed_files(store: &Store) -> Result<Vec<String>, StoreError> {
    Ok(match read_optional(&store.manifest_path())? {
        Some(bytes) => manifest::parse_lenient(&bytes).unwrap_or_default(),
        None => Vec::new(),
    })
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

/// Whether the commit `intent` announced happened: the manifest is the one it expected,
/// or lists a file only that commit could have written (new record files have random
/// names), or, for a pure removal, has moved on without the removed files.
pub(crate) fn took_effect(intent: &Intent, store: &Store) -> Result<bool, ReviewError> {
    Ok(match &intent.expect {
        Expect::Manifest { before, after } => {
            let current = listed_files(store)?;
            let before_set: HashSet<&String> = before.iter().collect();
            let after_set: HashSet<&String> = after.iter().collect();
            let added: Vec<&String> = after.iter().filter(|f| !before_set.contains(f)).collect();
            let removed: Vec<&String> = before.iter().filter(|f| !after_set.contains(f)).collect();
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
        Expect::IndexDigest { digest } => {
            read_optional(&store.index_path())?.is_some_and(|bytes| text_digest(&bytes) == *digest)
        }
        Expect::Decided { proposal: id } => proposal::is_decided(store, id)?,
        // Never in a `.memory` journal; the Claude Code engine decides these.
        Expect::Files => false,
        Expect::Stray { file, present } => {
            std::fs::symlink_metadata(store.root().join(file)).is_ok() == *present
        }
    })
}
