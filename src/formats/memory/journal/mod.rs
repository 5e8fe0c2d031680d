//! The `.memory` engine's use of the journal (`review::journal`): the observer that journals
//! every store transaction, deciding and rebasing proposals under the store lock, undo over a
//! store, and the journaled changes to stray files. The journal's format, its entries and the
//! proposals as filed are neutral and stay in `review`; what runs over a [`Store`] is here.
//!
//! [`Store`]: crate::store::Store

pub(crate) mod audit;
mod decide;
mod error;
mod filing;
mod home;
mod observer;
mod rebase;
mod records;
pub mod strays;
mod took_effect;
mod undo;

pub use decide::{approve, edit_records, reject};
pub(crate) use filing::Readable;
pub use filing::{NewProposal, file, state};
pub use observer::{JournalObserver, journaled, journaled_op};
pub(crate) use rebase::base_is_current;
pub use rebase::rebase;
pub(crate) use undo::revert;
pub use undo::undo;
