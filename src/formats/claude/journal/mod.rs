//! The review gate on Claude Code folders: every change journaled in the folder's state
//! directory (outside the folder), and undo. The same journal, entries and ids as on `.memory`
//! sets; an entry's `files` hold the before and after image of each file it touched.
//! Proposals are kept there too and approved through the write engine, with their MEMORY.md
//! lines derived at that moment.

mod error;
mod image_rules;
pub mod index_lines;
pub mod observed;
mod observer;
pub mod proposals;
pub mod propose;
mod rebase;
mod record;

pub(crate) use observer::revert;
pub use observer::{
    ClaudeJournalObserver, journal_of, journaled, journaled_deciding, journaled_planned, undo,
};
pub use proposals::{
    Approved, NewFiles, approve, edit_file, file_proposal, list, load, recover, reject, state,
    writes_for_images,
};
pub use rebase::rebase;
pub use record::record;
