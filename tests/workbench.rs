//! The workbench's tests (the `tui` feature), through its state and screen text or on a
//! pseudo-terminal: one binary for all of them, as tests/engine.rs explains; a new
//! tests/*.rs file of this kind goes in the lists below.

mod common;
mod tui_harness;

mod claude_tui;
mod tui_app;
mod tui_daily;
mod tui_eval;
mod tui_findings;
mod tui_fixes;
mod tui_keys;
mod tui_lists;
mod tui_panes;
mod tui_review;
mod tui_screen;
mod tui_secrets;
mod tui_words;

// These also run the `memwb` binary.
#[cfg(feature = "cli")]
mod claude_tui_pty;
// The conformance suite: each case on both formats, through the binary and the workbench.
#[cfg(feature = "cli")]
mod conformance;
#[cfg(feature = "cli")]
mod selection_glue;
#[cfg(feature = "cli")]
mod tui_pty;
