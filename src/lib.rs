//! memwb: audit and curate the file memory of coding agents.
//!
//! - [`store`]: the engine, the `.memory/` on-disk contract shared with the reference agents.
//! - [`session`]: the agent lifecycle (selection, extraction, consolidation) and model clients.
//! - [`review`]: proposals a person approves or rejects, the journal and undo.
//! - [`cli`]: the `memwb` command line.
//! - [`sanitize`]: the one place untrusted text is made inert for a terminal.
//!
//! Embedding the engine:
//!
//! ```
//! use memwb::store::{MemoryType, Record, Store, StoreOptions};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let workspace = tempfile::tempdir()?;
//! let store = Store::open(workspace.path(), StoreOptions::default())?;
//! let tabs = Record::new(
//!     "user-prefers-tabs",
//!     MemoryType::User,
//!     "User prefers tabs for indentation",
//!     "Use tabs in this repository.",
//! )?;
//! store.extend(vec![tabs])?;
//! let names: Vec<String> = store.records()?.iter().map(|r| r.name().to_owned()).collect();
//! assert_eq!(names, ["user-prefers-tabs"]);
//! assert_eq!(
//!     store.read()?.index_text(),
//!     format!("- [user-prefers-tabs]({}) - User prefers tabs for indentation\n", store.read()?.entries[0].file),
//! );
//! # Ok(())
//! # }
//! ```
pub mod claude;
pub mod claude_watch;
pub mod cli;
pub mod folder;
pub mod review;
pub mod sanitize;
pub mod session;
pub mod store;
pub mod tui;
pub mod watch;
