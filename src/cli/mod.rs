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

mod budgets;
mod check;
mod copy;
pub(crate) mod eval;
mod hints;
mod hook;
mod hooks;
mod input;
mod model_args;
mod output;
mod read;
mod records;
mod review;
pub mod select;
mod sets;
mod shell;
mod target;
#[cfg(feature = "tui")]
mod tui;
mod watch;
mod watch_record;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use budgets::Budgets;

use crate::formats::{LockWait, Locking, OpenOptions, WaitNotice, close_for_exit};

pub const EXIT_OK: u8 = 0;
pub const EXIT_FINDINGS: u8 = 1;
pub const EXIT_FAILED: u8 = 2;

/// The heading global options are listed under, once, in every command's help.
const GLOBAL: &str = "Global options";

#[derive(Parser, Debug)]
#[command(
    name = "memwb",
    version,
    about = "Audit and curate the file memory of coding agents"
)]
pub struct Cli {
    /// The workspace whose `.memory` to use (default: the current directory).
    #[arg(
        short = 'C',
        long = "workspace",
        global = true,
        value_name = "DIR",
        help_heading = GLOBAL
    )]
    workspace: Option<PathBuf>,
    #[command(flatten)]
    folder: target::FolderArgs,
    #[command(flatten)]
    budgets: Budgets,
    /// Without a subcommand, the workbench opens.
    #[command(subcommand)]
    command: Option<Command>,
}

/// Limits shared with the reference agents; change them only if every agent on the folder agrees.
#[derive(Subcommand, Debug)]
enum Command {
    /// List the memories, in the folder's order.
    Ls(records::LsArgs),
    /// Show one memory.
    Show(records::ShowArgs),
    /// Add memories (one from flags, or a JSON array, all or nothing).
    Add(records::AddArgs),
    /// Edit one memory (a rename is `--name NEW`), based on the version read just before; it
    /// keeps its place.
    Set(records::SetArgs),
    /// Remove memories.
    Rm(records::RmArgs),
    /// Apply a consolidation plan `{"source_names":[...],"records":[...]}`.
    Consolidate(records::ConsolidateArgs),
    /// Fix a manifest entry that does not read: replace it with a corrected file, or drop it.
    Repair(records::RepairArgs),
    /// Print MEMORY.md as an agent is given it; `--fix` shows its fix, `--fix --yes` writes it.
    Index(records::IndexArgs),
    /// Audit the folder and its content: exit 1 when any unaccepted finding is an error.
    Check(check::CheckArgs),
    /// Accept a finding for a memory: `check` stops counting it (`--all-findings` lists it).
    Accept(check::AcceptArgs),
    /// The memories an agent would be given for QUERY (model or keyword fallback).
    Select(select::SelectArgs),
    /// Run the set's regression queries: recall@k, precision@k, MRR, forbidden hits.
    Eval(eval::EvalArgs),
    /// File a proposal (a pending change a person approves or rejects); prints its id.
    Propose(review::ProposeArgs),
    /// List pending proposals with their state (ready or stale).
    Proposals(review::ProposalsArgs),
    /// Apply a proposal, based on the memories it was made against.
    Approve(review::ApproveArgs),
    /// Close a proposal without applying it.
    Reject(review::RejectArgs),
    /// Propose bringing memories from another folder (either format) into this one; prints
    /// the proposal's id.
    Copy(copy::CopyArgs),
    /// Show the journal of changes made through memwb, oldest first.
    Log(review::LogArgs),
    /// Revert the newest change not undone yet (again: one further back), or entry N, as a
    /// new change (journaled).
    Undo(review::UndoArgs),
    /// Open the workbench (the default without a subcommand).
    #[cfg(feature = "tui")]
    Tui(tui::TuiArgs),
    /// Open the workbench on a copy of the demo workspace.
    #[cfg(feature = "tui")]
    Demo(tui::DemoArgs),
    /// Print one line per change to the folder, until interrupted.
    Watch(watch::WatchArgs),
    /// Print a shell completion script (e.g. `memwb completions bash > ~/.local/share/bash-completion/completions/memwb`).
    Completions(shell::CompletionsArgs),
    /// Print the manual page (roff; e.g. `memwb man | man -l -`), or write every page with --dir.
    Man(shell::ManArgs),
    /// List every memory folder found (Claude Code's, and under each ROOT).
    Sets(sets::SetsArgs),
    /// Run as an agent's hook: `memwb hook claude` reads a Claude Code hook input on stdin.
    Hook(hook::HookArgs),
    /// Install, remove or show memwb's hooks in an agent program's settings (claude: Claude
    /// Code's).
    Hooks(hooks::HooksArgs),
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Exit 2 from a hook blocks the agent's call: a hook invocation this binary cannot
        // parse (a setting or flag from another version) fails open instead.
        Err(error) => match hook::hook_invocation(std::env::args()) {
            Some(agent) if error.use_stderr() => {
                hook::log_unparsed(agent, &error.to_string());
                return ExitCode::from(EXIT_OK);
            }
            _ => error.exit(),
        },
    };
    #[cfg(feature = "tui")]
    let workbench = matches!(
        cli.command,
        None | Some(Command::Tui(_)) | Some(Command::Demo(_))
    );
    #[cfg(not(feature = "tui"))]
    let workbench = false;
    use crate::review::who::Tool;
    // Every change this process journals names the tool that made it.
    Tool::set(match &cli.command {
        _ if workbench => Tool::Workbench,
        Some(Command::Hook(_)) => Tool::Hook,
        Some(Command::Watch(args)) if args.record || args.all => Tool::Watch,
        _ => Tool::Cli,
    });
    let received = exit_on_signals(workbench);
    quiet_on_closed_stdout();
    // A print to a closed stdout panics (`println!`, clap_complete): unwound here, its
    // locks released on the way, and ended as quietly as a write error on it.
    let result = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(cli))) {
        Ok(result) => result,
        Err(payload) if is_closed_stdout_panic(payload.as_ref()) => Ok(EXIT_OK),
        Err(payload) => std::panic::resume_unwind(payload),
    };
    // A signal that came while the command finished: its exit code, as if it had waited.
    let signal = received.load(std::sync::atomic::Ordering::SeqCst);
    if signal != 0 {
        close_for_exit();
        std::process::exit(128 + signal as i32);
    }
    match result {
        Ok(code) => ExitCode::from(code),
        // The reader went away (`memwb log | head`): what was asked for was read; stop quietly.
        Err(error) if is_broken_pipe(&error) => ExitCode::from(EXIT_OK),
        // The change is in the set; only its journal entry waits: a warning, not a failure.
        Err(error) if is_not_journaled(&error) => {
            let message = format!("{error:#}").replace('\n', " ");
            eprintln!("warning: {}", output::inert(&message));
            ExitCode::from(EXIT_FINDINGS)
        }
        // Another program's write landed inside memwb's change and was kept: nothing is
        // lost, the change was not made; exit 1 as for a finding, not 2 as for a failure.
        Err(error) if is_raced_write(&error) => {
            let message = format!("{error:#}").replace('\n', " ");
            eprintln!("conflict: {}", output::inert(&message));
            ExitCode::from(EXIT_FINDINGS)
        }
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

/// The reader of stdout went away (`memwb completions bash | head -1`): whatever prints next
/// panics with a broken pipe; that panic says nothing (see [`main`], which ends quietly).
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !is_closed_stdout_panic(info.payload()) {
            default(info);
        }
    }));
}

fn is_closed_stdout_panic(payload: &(dyn std::any::Any + Send)) -> bool {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied());
    message.is_some_and(|m| m.contains("Broken pipe") || m.contains("os error 32"))
}

fn is_raced_write(error: &anyhow::Error) -> bool {
    error.chain().any(crate::formats::is_raced)
}

fn is_not_journaled(error: &anyhow::Error) -> bool {
    matches!(
        error.downcast_ref::<crate::review::ReviewError>(),
        Some(crate::review::ReviewError::NotJournaled { .. })
    )
}

/// SIGINT, SIGTERM and SIGHUP end a command without leaving a `.lock` behind or a step half
/// done: a transaction in progress finishes (it commits, or fails and rolls back) and releases
/// its lock, no new one starts, then the process exits 130, 143 or 129 (128 + the signal).
/// In the `workbench` the terminal is restored too, after the transaction and before the exit
/// (its keys never raise SIGINT: the terminal is raw, `C-c` is a key).
/// Returns the last signal received (0: none), set inside the handler itself.
fn exit_on_signals(workbench: bool) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let received = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        if let Err(e) = signal_hook::flag::register_usize(signal, received.clone(), signal as usize)
        {
            tracing::warn!(error = %e, "signals are not handled: a signal may leave the lock");
        }
    }
    let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(signals) => signals,
        Err(e) => {
            tracing::warn!(error = %e, "signals are not handled: a signal may leave the lock");
            return received;
        }
    };
    let spawned = std::thread::Builder::new()
        .name("memwb-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                close_for_exit();
                #[cfg(feature = "tui")]
                if workbench {
                    crate::tui::terminal::restore_for_exit();
                }
                #[cfg(not(feature = "tui"))]
                let _ = workbench;
                std::process::exit(128 + signal);
            }
        });
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "signals are not handled: a signal may leave the lock");
    }
    received
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    // These describe the command line itself: no workspace needed.
    match &cli.command {
        Some(Command::Completions(args)) => return shell::completions(args),
        Some(Command::Man(args)) => return shell::man(args),
        // A hook answers fast and never fails, whatever the workspace holds.
        Some(Command::Hook(args)) => return hook::run(args),
        Some(Command::Hooks(args)) => return hooks::run(args),
        _ => {}
    }
    let open_options = open_options(&cli);
    if let Some(Command::Sets(args)) = &cli.command {
        return sets::run(args, &open_options);
    }
    if let Some(Command::Watch(args)) = &cli.command
        && args.all
    {
        return watch_record::run_all(&open_options, args.json);
    }
    let workspace = match (&cli.command, &cli.workspace) {
        // `memwb tui DIR` is `memwb -C DIR tui`.
        #[cfg(feature = "tui")]
        (Some(Command::Tui(tui::TuiArgs { dir: Some(dir) })), _) => dir.clone(),
        (_, Some(dir)) => dir.clone(),
        (_, None) => std::env::current_dir()?,
    };
    if let Some(Command::Check(args)) = &cli.command
        && let Some(roots) = &args.all
    {
        return check::run_all(&workspace, &open_options, args, roots);
    }
    // The demo opens its own copy: which folder the workspace holds does not matter.
    #[cfg(feature = "tui")]
    if let Some(Command::Demo(args)) = &cli.command {
        return tui::demo(&open_options, args);
    }
    let open = target::resolve(&cli.folder, &workspace, &open_options)?;
    // Where `check` looks up the paths memories mention: the workspace the folder was found
    // for; a folder named with --memory-dir knows its own.
    let project = cli.folder.memory_dir.is_none().then(|| workspace.clone());
    let Some(command) = &cli.command else {
        #[cfg(feature = "tui")]
        return tui::run(&open, &workspace, &open_options);
        #[cfg(not(feature = "tui"))]
        anyhow::bail!(
            "this memwb is built without the workbench (the `tui` feature); see `memwb --help`"
        );
    };
    let backend = open.backend();
    let backend = &*backend;
    match command {
        Command::Ls(args) => read::ls(backend, args),
        Command::Show(args) => read::show(backend, args),
        Command::Select(args) => read::select(backend, args),
        Command::Add(args) => records::add(backend, args),
        Command::Set(args) => records::set(backend, args),
        Command::Rm(args) => records::rm(backend, args),
        Command::Consolidate(args) => records::consolidate(backend, args),
        Command::Index(args) => records::index(backend, args),
        Command::Repair(args) => records::repair(backend, args),
        Command::Check(args) => check::run(backend, args, project),
        Command::Accept(args) => check::accept(backend, args),
        Command::Propose(args) => review::propose(backend, args),
        Command::Proposals(args) => review::proposals(backend, args),
        Command::Approve(args) => review::approve(backend, args),
        Command::Reject(args) => review::reject(backend, args),
        Command::Log(args) => review::log(backend, args),
        Command::Undo(args) => review::undo(backend, args),
        Command::Eval(args) => eval::run(&open, args),
        Command::Copy(args) => copy::run(&open, args, &open_options),
        Command::Watch(args) => watch::run(&open, args),
        #[cfg(feature = "tui")]
        Command::Tui(_) => tui::run(&open, &workspace, &open_options),
        #[cfg(feature = "tui")]
        Command::Demo(args) => tui::demo(&open_options, args),
        Command::Sets(args) => sets::run(args, &open_options),
        Command::Completions(args) => shell::completions(args),
        Command::Man(args) => shell::man(args),
        Command::Hook(args) => hook::run(args),
        Command::Hooks(args) => hooks::run(args),
    }
}

/// What every folder opens with: each format's own flags, and the lock waited for as
/// `--lock-timeout` says, a writer told on a terminal while it waits.
fn open_options(cli: &Cli) -> OpenOptions {
    cli.folder.formats.open_options(Locking {
        timeout: cli.budgets.lock_timeout,
        notice: std::io::IsTerminal::is_terminal(&std::io::stderr())
            .then(|| std::sync::Arc::new(say_waiting) as WaitNotice),
    })
}

/// On a terminal only: a writer blocked by another process says who holds the lock.
fn say_waiting(wait: LockWait) {
    say_waiting_on(".memory", wait);
}

/// The same line for any folder's lock (a Claude Code folder's state lock names the folder).
pub(crate) fn say_waiting_on(what: &str, wait: LockWait) {
    let (clock, ago) = wait.held_since();
    eprintln!(
        "waiting for the lock on {} (held since {clock}, {ago} s ago)...",
        output::inert(what)
    );
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn every_command(
        command: &clap::Command,
        path: String,
        out: &mut Vec<(String, clap::Command)>,
    ) {
        out.push((path.clone(), command.clone()));
        for sub in command.get_subcommands() {
            every_command(sub, format!("{path} {}", sub.get_name()), out);
        }
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_command_flag_and_argument_has_help() {
        let mut commands = Vec::new();
        every_command(&Cli::command(), "memwb".into(), &mut commands);
        assert!(commands.len() > 20, "{}", commands.len());
        let mut missing = Vec::new();
        for (path, command) in &commands {
            if command.get_about().is_none() && path != "memwb" {
                missing.push(path.clone());
            }
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                if !matches!(id, "help" | "version") && arg.get_help().is_none() {
                    missing.push(format!("{path} {id}"));
                }
            }
        }
        assert!(missing.is_empty(), "no help: {missing:?}");
    }

    #[test]
    fn global_options_have_their_own_heading() {
        let command = Cli::command();
        let global: Vec<&clap::Arg> = command
            .get_arguments()
            .filter(|a| a.is_global_set())
            .collect();
        let ids: Vec<&str> = global.iter().map(|a| a.get_id().as_str()).collect();
        for id in [
            "workspace",
            "max_index_lines",
            "max_index_bytes",
            "lock_timeout",
        ] {
            assert!(ids.contains(&id), "{id} is global: {ids:?}");
        }
        for arg in global {
            assert_eq!(arg.get_help_heading(), Some(GLOBAL), "{}", arg.get_id());
        }
    }
}
