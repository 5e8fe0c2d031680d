//! The review gate: proposals a person approves or rejects, and the journal of every change
//! memwb makes, with undo. Kept in `.memory/.memwb/`, which the reference agents never read.

pub mod dedupe;
pub mod error;
pub mod eval;
pub mod journal;
pub mod proposal;
pub mod sink;
pub mod who;

pub use error::ReviewError;
pub use journal::{Entry, EntryMeta, Journal, Op, journaled, journaled_op, undo};
pub use proposal::{Kind, NewProposal, Origin, Plan, Proposal, State, Status};
pub use sink::ReviewPlans;
