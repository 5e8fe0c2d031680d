//! Where `.memory` folders are: a directory named `.memory` under a root, whatever it holds;
//! one with another tool's manifest is reported as skipped.

use super::FORMAT;
use super::open::{ManifestSign, manifest_sign};
use crate::formats::discover::{Entered, Look, Sightings};
use crate::store::MEMORY_DIR;

/// A `.memory` is the contract's folder (a manifest-less one is its empty set), unless it
/// holds topic files with the index Claude Code writes; nothing inside it is another folder.
pub(crate) fn look(dir: Entered<'_>, sightings: &mut dyn Sightings) -> Look {
    if dir.name != MEMORY_DIR {
        return Look::Pass;
    }
    match manifest_sign(dir.path) {
        ManifestSign::Contract => sightings.folder(FORMAT, dir.path, None),
        ManifestSign::Absent => {
            let format = if crate::formats::claude::discover::holds_its_index(dir.path) {
                crate::formats::claude::FORMAT
            } else {
                FORMAT
            };
            sightings.folder(format, dir.path, None);
        }
        ManifestSign::Foreign { rule, .. } => sightings.skipped(
            dir.path,
            format!("manifest.json of another schema ({rule})"),
        ),
    }
    Look::Done
}

/// `.memory` folders live in workspaces only: none is kept in an agent's config folder.
pub(crate) fn known(_config: &std::path::Path, _sightings: &mut dyn Sightings) {}
