//! memwb: audit and curate the file memory of coding agents.
//!
//! # The library's surface
//!
//! What an embedder uses (docs/architecture.md, "The library's surface"); every other item is
//! `pub(crate)`:
//! - [`formats`]: a folder of any format behind one trait, [`formats::Backend`]: which
//!   format it is and how it opens, read it, find a memory, show it, audit it, sum it up.
//! - [`memory`]: the read model, one memory whatever the format.
//! - [`finding`]: one finding of any audit.
//! - [`folder`]: the memory folders under a directory, one summary of each.
//! - [`store`]: the `.memory/` engine, shared byte for byte with the reference agents; its
//!   codec, manifest, index and lock are public for tools that must agree with that contract.
//! - [`claude`]: the Claude Code backend: locate a project's auto memory, read, audit and
//!   write it.
//! - [`content`]: the content audit (credentials, stale paths, dates, duplicates, conflicts).
//! - [`review`]: proposals a person approves or rejects, the journal and undo, on every format.
//! - [`eval`]: selection evaluation: a memory set's own regression queries, scored.
//! - [`session`]: the agent lifecycle (selection, extraction, consolidation) and model clients.
//! - [`agents`]: integrations with the agent programs (Claude Code's hook), beside the format
//!   backends.
//! - [`redact`]: the one place credentials in memory text are found and redacted.
//! - [`sanitize`]: the one place untrusted text is made inert for a terminal.
//! - `watch`, `claude_watch` (feature `watch`): the folder watchers the workbench and
//!   `memwb watch` share.
//!
//! Public for the binary and for this repository's tests, not an API (no stability promised):
//! - `cli` (feature `cli`): `cli::main` is what the `memwb` binary runs; `cli::select` is
//!   public for the selection tests, which run it in process.
//! - `tui` (feature `tui`): the workbench; its state, editor and panes are public because
//!   the workbench tests drive them by keys and read the screen.
//!
//! `tests/architecture.rs` keeps this list and the `pub mod`s below the same, and keeps the
//! number of `pub` items in `cli` and `tui` from growing.
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
// Every item the library does not document is pub(crate) (docs/architecture.md, "The
// library's surface"). Here rather than in Cargo.toml's [lints]: there it would also hold the
// test and bench crates, whose shared helpers are `pub` for their sibling modules.
#![warn(unreachable_pub)]

pub mod agents;
pub(crate) mod change;
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
pub(crate) mod frontmatter;
pub(crate) mod fs;
pub(crate) mod locks;
pub mod memory;
pub mod redact;
pub mod review;
pub mod sanitize;
pub mod session;
pub mod store;
pub(crate) mod text_memo;
pub(crate) mod time;
#[cfg(feature = "tui")]
pub mod tui;
#[cfg(feature = "watch")]
pub mod watch;
pub(crate) mod who;
