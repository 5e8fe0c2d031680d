//! The review gate: proposals a person approves or rejects, and the journal of every change
//! memwb makes, with undo. Kept in `.memory/.memwb/`, which the reference agents never read.

pub mod audit;
// What `--json` prints of a change: the command line's only.
#[cfg(feature = "cli")]
pub(crate) mod change_json;
pub mod dedupe;
mod entry;
mod entry_change;
pub mod error;
mod filed;
pub(crate) mod intent;
pub mod journal;
pub mod line_change;
pub(crate) mod marking;
pub mod proposal;
#[cfg(feature = "cli")]
pub(crate) mod proposal_json;
pub mod sink;
pub mod state;
pub mod summary;
pub(crate) mod undo;
pub mod who;

pub use crate::change::{Change, FileImage, Touched, Version};
pub use error::ReviewError;
pub use journal::{Entry, EntryMeta, Journal, Op};
pub use proposal::{Kind, Origin, Proposal, ProposalStatus, State};
pub use sink::ReviewPlans;
