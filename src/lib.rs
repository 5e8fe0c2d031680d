//! memwb: audit and curate the file memory of coding agents.
//!
//! - [`store`]: the engine, the `.memory/` on-disk contract shared with the reference agents.
//! - [`session`]: the agent lifecycle (selection, extraction, consolidation) and model clients.
//! - [`review`]: proposals a person approves or rejects, the journal and undo.
//! - [`cli`]: the `memwb` command line.
pub mod cli;
pub mod review;
pub mod session;
pub mod store;
pub mod tui;
pub mod watch;
