//! memwb: audit and curate the file memory of coding agents.
//!
//! - [`store`]: the engine, the `.memory/` on-disk contract shared with the reference agents.
//! - [`session`]: the agent lifecycle (selection, extraction, consolidation) and model clients.
//! - [`content`]: the content audit (credentials, stale paths, dates, duplicates, conflicts).
//! - [`review`]: proposals a person approves or rejects, the journal and undo.
//! - [`agents`]: integrations with the agent programs (Claude Code's hook), beside the format
//!   backends.
//! - `cli` (feature `cli`): the `memwb` command line.
//! - `tui` (feature `tui`): the workbench.
//! - `watch` (feature `watch`): the `.memory` watcher the workbench and `memwb watch` share.
//! - [`sanitize`]: the one place untrusted text is made inert for a terminal.
//! - [`redact`]: the one place credentials in memory text are found and redacted.
//!
//! Embedding the engine without the UI crates: `memwb = { version = "0.1", default-features =
//! false }` (add `features = ["http"]` for the HTTP model client). See docs/architecture.md.
//!
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
pub mod agents;
pub mod claude;
#[cfg(feature = "watch")]
pub mod claude_watch;
#[cfg(feature = "cli")]
pub mod cli;
pub mod content;
pub mod eval;
pub mod finding;
pub mod folder;
pub mod formats;
pub(crate) mod fs;
pub mod memory;
pub mod redact;
pub mod review;
pub mod sanitize;
pub mod session;
pub mod store;
#[cfg(feature = "tui")]
pub mod tui;
#[cfg(feature = "watch")]
pub mod watch;
