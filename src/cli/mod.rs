//! The command line: subcommands, human and `--json` output, exit codes.
//!
//! Exit codes: 0 success; 1 `check` found an error; 2 anything refused or failed, with a
//! one-line message on stderr that starts with `error:`.

mod check;
mod input;
mod output;
mod records;

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
    #[command(subcommand)]
    command: Command,
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
    /// Print the MEMORY.md the manifest derives, or rewrite it.
    Index(records::IndexArgs),
    /// Audit the folder: exit 1 when any finding is an error.
    Check(check::CheckArgs),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            let message = format!("{error:#}").replace('\n', " ");
            eprintln!("error: {}", output::inert(&message));
            ExitCode::from(EXIT_FAILED)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    let store = open_store(&cli)?;
    match &cli.command {
        Command::Ls(args) => records::ls(&store, args),
        Command::Show(args) => records::show(&store, args),
        Command::Add(args) => records::add(&store, args),
        Command::Set(args) => records::set(&store, args),
        Command::Rm(args) => records::rm(&store, args),
        Command::Consolidate(args) => records::consolidate(&store, args),
        Command::Index(args) => records::index(&store, args),
        Command::Check(args) => check::run(&store, args),
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
