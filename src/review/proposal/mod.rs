//! Proposals: pending changes to the set that a person approves or rejects.
//!
//! The proposal as filed (its type, file and recorded decision) is `review::filed`, below the
//! journal; it is re-exported here. Deciding one is the format's engine's
//! (`formats::memory::journal`, `review::claude`), under its lock and through the journal.

mod rebase;

pub use super::filed::*;
pub use rebase::Rebased;
