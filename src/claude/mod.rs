//! The second backend: Claude Code's auto memory (`<config>/projects/<slug>/memory/`), found,
//! read and audited as it is, and written only through [`write::apply`] (a multi-file
//! compare-and-swap under memwb's state lock, [`state`]); [`edit`] plans changes to it as
//! text, for the write engine.
//!
//! Synchronous and UI-free, like [`crate::store`]; every error names its path and rule.
//! See docs/claude-code.md for what is read, how it is found and what each finding means.

pub mod audit;
pub mod copy;
pub mod edit;
pub mod error;
pub mod folder;
pub mod frontmatter;
mod frontmatter_lint;
pub mod fsread;
pub mod index;
mod loader;
pub mod locate;
pub(crate) mod shape;
pub mod state;
pub mod write;

pub use audit::audit;
pub use error::{ClaudeError, Result};
pub use folder::{ClaudeFolder, LockWaitPolicy, Snapshot, Topic, TopicContent};
pub use index::{LoadLimits, SizeUnit};
pub use locate::{Env, Location, locate};
pub use state::{ClaudeState, StateLock};
pub use write::{Applied, ChangeObserver, FileImage, FileWrite, apply, apply_planned};

/// Only these may be written in a memory folder: Claude Code reads nothing else as memory.
pub fn is_memory_file(file: &str) -> bool {
    file.ends_with(".md") && !file.split('/').any(|part| part.starts_with('.'))
}
