//! The tests that run the `memwb` binary (the `cli` feature): one binary for all of them,
//! as tests/engine.rs explains; a new tests/*.rs file of this kind goes in the list below.

mod common;
// The docs' pictures of the workbench are checked against what it draws (docs_current).
#[cfg(feature = "tui")]
mod tui_harness;

mod audit_accuracy;
mod audit_cli;
mod audit_duplicates;
mod check_gaps;
mod claude_cli;
mod claude_curate_cli;
mod claude_fix;
mod claude_hook;
mod claude_index_fix;
mod claude_journal_repair;
mod claude_review;
mod claude_undo_lines;
mod claude_write_safety;
mod cli;
mod cli_args;
mod cli_formats;
mod cli_messages;
mod cli_output;
mod discovery;
mod docs_current;
mod eval_claude;
mod eval_cli;
mod hooks_install;
mod hostile_files;
mod journal_costs;
mod journal_state;
mod lock_wait;
mod memory_dir_refusal;
mod names_and_places;
mod real_claude;
mod repair;
mod repair_drop;
mod review;
mod review_sources;
mod secrets_everywhere;
mod secrets_state;
mod select_cli;
mod signals;
mod stalled_writer;
mod store_cache;
mod store_processes;
mod undo_chains;
mod watch;
