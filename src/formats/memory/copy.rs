//! `copy --from` on a `.memory` set: its records as they are, and a copy into it filed as an
//! extraction proposal of the converted records.

use std::collections::HashSet;

use super::journal::{NewProposal, file};
use crate::claude::copy::{Source, into_set};
use crate::formats::copy::CopyRead;
use crate::formats::{Copied, CopySources, FormatError};
use crate::review::proposal::Origin;
use crate::session::Plan;
use crate::store::{MemorySet, Store};

pub(super) fn copy_sources(store: &Store) -> Result<CopySources, FormatError> {
    Ok(CopySources::new(store.read()?))
}

/// A copy takes the set's records as they are.
impl CopyRead for MemorySet {
    fn sources(&self) -> Vec<Source<'_>> {
        self.records().map(Source::Record).collect()
    }
}

/// The sources as records whose names the set does not hold yet, proposed as one extraction
/// based on the set as read now.
pub(super) fn propose_copy(
    store: &Store,
    sources: &CopySources,
    from: &str,
) -> Result<Copied, FormatError> {
    let seen = store.read()?;
    let taken: HashSet<String> = seen.records().map(|r| r.name().to_owned()).collect();
    let out = into_set(&sources.sources(), &taken, from);
    if out.records.is_empty() {
        return Ok(Copied {
            id: None,
            refused: out.refused,
        });
    }
    let new = NewProposal {
        plan: Plan::Extraction(out.records),
        origin: Origin::new("copy"),
        seen,
        additions: Vec::new(),
        evidence: Some(format!("copied from {from}")),
    };
    let id = file(store, new)?.id;
    Ok(Copied {
        id: Some(id),
        refused: out.refused,
    })
}
