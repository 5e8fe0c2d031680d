//! What `check` reports about a `.memory` set's own state in `.memory/.memwb` (the neutral
//! scan is `review::audit`; this finds the directory through the store).

use crate::finding::Finding;
use crate::review::audit::{error_finding, state_dir_findings};
use crate::review::journal::{Journal, MEMWB_DIR};
use crate::review::state::StateDir;
use crate::store::{Store, StoreError};

/// Every finding about `.memory/.memwb`.
pub(crate) fn findings(store: &Store) -> Vec<Finding> {
    match StateDir::open(store) {
        Ok(Some(state)) => state_dir_findings(&state, &Journal::of(store)),
        Ok(None) => Vec::new(),
        // The store's own audit reports `.memory` itself.
        Err(e) if matches!(e.engine_error(), Some(StoreError::RootEscapes { .. })) => Vec::new(),
        Err(e) => vec![error_finding(&e, MEMWB_DIR.to_owned())],
    }
}
