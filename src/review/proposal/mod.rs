//! Proposals: pending changes to the set that a person approves or rejects.
//!
//! The proposal as filed (its type, file and recorded decision) is `review::filed`, below the
//! journal; it is re-exported here. Deciding one is the format's engine's
//! (`formats::memory::journal`, `formats::claude::journal`), under its lock and through the
//! journal; rebasing one is written once here (`rebase`) over the format's re-planning.

mod rebase;

pub use super::filed::*;
pub use rebase::Rebased;
pub(crate) use rebase::{
    ALREADY_APPLIED, DRAFT_EDIT_KEPT, DRAFT_RECOMPUTED, NOTHING_TO_MERGE, Replanning, name_taken,
    plan_invalid, rebase, refused, removed,
};
