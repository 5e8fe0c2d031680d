//! The command line: subcommands, human and `--json` output, exit codes.
//!
//! Exit codes: 0 success; 1 `check` found an error; 2 anything refused or failed, with a
//! one-line message on stderr that starts with `error:`, then any `hint:` lines.

/// `println!` that returns the write error instead of panicking (a closed pipe, as in
/// `memwb log | head`, then ends the command quietly; see `main`).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod check;
pub mod eval;
mod hints;
mod input;
mod model_args;
mod output;
mod records;
mod review;
pub mod select;
mod tui;
mod watch;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::store::{LockTiming, Store, StoreOptions};

pub const EXIT_OK: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_FAILED: u8 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "memwb",
    version,
    about = "Audit and curate the file memory of coding agents"
)]
pub struct Cli {
    /// The workspace whose `.memory` to use (default: the current directory).
    #[arg(short = 'C', long = "workspace", global = true, value_name = "DIR")]
    workspace: Option<PathBuf>,
    #[command(flatten)]
    budgets: Budgets,
    /// Without a subcommand, the workbench opens.
    #[command(subcommand)]
    command: Option<Command>,
}

/// Limits shared with the reference agents; change them only if every agent on the folder agrees.
#[derive(clap::Args, Debug)]
struct Budgets {
    /// Most lines (and so records) in MEMORY.md.
    #[arg(
        long,
        global = true,
        env = "MEMWB_MAX_INDEX_LINES",
        default_value_t = 200
    )]
    max_index_lines: usize,
    /// Most UTF-8 bytes in MEMORY.md.
    #[arg(
        long,
        global = true,
        env = "MEMWB_MAX_INDEX_BYTES",
        default_value_t = 4096
    )]
    max_index_bytes: usize,
    /// Seconds to wait for a lock held by another process.
    #[arg(
        long,
        global = true,
        env = "MEMWB_LOCK_TIMEOUT",
        default_value_t = 60.0,
        value_name = "SECS"
    )]
    lock_timeout: f64,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the set in manifest order.
    Ls(records::LsArgs),
    /// Show one record.
    Show(records::ShowArgs),
    /// Add records (one from flags, or a JSON array, all or nothing).
    Add(records::AddArgs),
    /// Edit one record (a rename is `--name NEW`), based on the version read just before.
    Set(records::SetArgs),
    /// Remove records.
    Rm(records::RmArgs),
    /// Apply a consolidation plan `{"source_names":[...],"records":[...]}`.
    Consolidate(records::ConsolidateArgs),
    /// Fix a manifest entry that does not read: replace it with a corrected file, or drop it.
    Repair(records::RepairArgs),
    /// Print the MEMORY.md the manifest derives, or rewrite it.
    Index(records::IndexArgs),
    /// Audit the folder: exit 1 when any finding is an error.
    Check(check::CheckArgs),
    /// The memories an agent would be given for QUERY (model or keyword fallback).
    Select(select::SelectArgs),
    /// Run the set's regression queries: recall@k, precision@k, MRR, forbidden hits.
    Eval(eval::EvalArgs),
    /// File a proposal (a pending change a person approves or rejects); prints its id.
    Propose(review::ProposeArgs),
    /// List pending proposals with their state (ready or stale).
    Proposals(review::ProposalsArgs),
    /// Apply a proposal, based on the records it was made against.
    Approve(review::ApproveArgs),
    /// Close a proposal without applying it.
    Reject(review::RejectArgs),
    /// Show the journal of changes made through memwb, oldest first.
    Log(review::LogArgs),
    /// Revert a journal entry (the last change by default) as a new transaction.
    Undo(review::UndoArgs),
    /// Open the workbench (the default without a subcommand).
    Tui(tui::TuiArgs),
    /// Open the workbench on a copy of the demo workspace.
    Demo(tui::DemoArgs),
    /// Print one line per commit to the set, until interrupted.
    Watch(watch::WatchArgs),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        // The reader went away (`memwb log | head`): what was asked for was read; stop quietly.
        Err(error) if is_broken_pipe(&error) => ExitCode::from(EXIT_OK),
        Err(error) => {
            let message = format!("{error:#}").replace('\n', " ");
            eprintln!("error: {}", output::inert(&message));
            for hint in hints::for_error(&error) {
                eprintln!("hint: {}", output::inert(&hint));
            }
            ExitCode::from(EXIT_FAILED)
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    let store = open_store(&cli)?;
    let Some(command) = &cli.command else {
        return tui::run(&store, &tui::TuiArgs::default());
    };
    match command {
        Command::Ls(args) => records::ls(&store, args),
        Command::Show(args) => records::show(&store, args),
        Command::Add(args) => records::add(&store, args),
        Command::Set(args) => records::set(&store, args),
        Command::Rm(args) => records::rm(&store, args),
        Command::Consolidate(args) => records::consolidate(&store, args),
        Command::Index(args) => records::index(&store, args),
        Command::Repair(args) => records::repair(&store, args),
        Command::Check(args) => check::run(&store, args),
        Command::Select(args) => select::run(&store, args),
        Command::Eval(args) => eval::run(&store, args),
        Command::Propose(args) => review::propose(&store, args),
        Command::Proposals(args) => review::proposals(&store, args),
        Command::Approve(args) => review::approve(&store, args),
        Command::Reject(args) => review::reject(&store, args),
        Command::Log(args) => review::log(&store, args),
        Command::Undo(args) => review::undo(&store, args),
        Command::Tui(args) => tui::run(&store, args),
        Command::Demo(args) => tui::demo(&store, args),
        Command::Watch(args) => watch::run(&store, args),
    }
}

fn open_store(cli: &Cli) -> anyhow::Result<Store> {
    let workspace = match &cli.workspace {
        Some(dir) => dir.clone(),
        None => std::env::current_dir()?,
    };
    let budgets = &cli.budgets;
    if !(budgets.lock_timeout.is_finite() && budgets.lock_timeout >= 0.0) {
        anyhow::bail!("--lock-timeout must be a non-negative number of seconds");
    }
    let options = StoreOptions {
        max_index_lines: budgets.max_index_lines,
        max_index_bytes: budgets.max_index_bytes,
        lock: LockTiming {
            timeout: Duration::from_secs_f64(budgets.lock_timeout),
            ..LockTiming::default()
        },
        ..StoreOptions::default()
    };
    Ok(Store::open(workspace, options)?)
}
