//! A journal intent: the entry a change will have, written before its commit point, and what
//! to look for afterwards, from the folder alone, to tell whether that commit happened (each
//! format's engine looks: `formats::memory::journal::took_effect` on a `.memory` set).

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::entry::Entry;
use super::filed::Decision;
use super::state::sha256_hex;

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
