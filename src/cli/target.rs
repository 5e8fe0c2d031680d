//! Which memory folder a command works on: `--memory-dir`, a format's own flag (`--claude`),
//! or the workspace's folder of the first registered format that finds one there
//! (`formats::FORMATS`: the workspace's `.memory`, then its Claude Code auto memory).

use std::path::{Path, PathBuf};

use crate::formats::{
    Format, FormatArgs, Open, OpenOptions, WaitNotice, open_given, open_workspace,
};

#[derive(clap::Args, Debug)]
#[command(next_help_heading = super::GLOBAL)]
pub(super) struct FolderArgs {
    /// Open this memory folder itself (format detected, or forced with --format).
    #[arg(long, global = true, value_name = "PATH")]
    pub memory_dir: Option<PathBuf>,
    /// Force the folder's format: memory (the .memory contract) or claude (Claude Code).
    #[arg(long, global = true, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// With --memory-dir and --format: start a new memory folder there (a folder holding no
    /// MEMORY.md and no topic files is refused without it).
    #[arg(
        long = "new",
        global = true,
        requires = "memory_dir",
        requires = "format"
    )]
    pub new_folder: bool,
    /// The flags each format declares for itself (`--claude`, its index's load limits).
    #[command(flatten)]
    pub formats: FormatArgs,
}

/// Resolves the folder the command works on.
pub(super) fn resolve(
    args: &FolderArgs,
    workspace: &Path,
    options: &OpenOptions,
) -> anyhow::Result<Open> {
    let on_terminal = options.store.on_lock_wait.is_some();
    let open = match &args.memory_dir {
        Some(dir) => open_dir(args, dir, options)?,
        None => in_workspace(args.formats.asked().or(args.format), workspace, options)?,
    };
    Ok(say_lock_waits(open, on_terminal))
}

/// The workspace's folder (`formats::open_workspace`), said on stderr when it is not the
/// first format's, with what a person is to be told about it.
fn in_workspace(
    asked: Option<Format>,
    workspace: &Path,
    options: &OpenOptions,
) -> anyhow::Result<Open> {
    let found = open_workspace(workspace, asked, options).map_err(super::read::failed)?;
    if found.fallback {
        eprintln!(
            "using {} at {}",
            found.open.format().describe(),
            super::output::inert(&found.open.root().display().to_string())
        );
    }
    for note in &found.notes {
        eprintln!("note: {}", super::output::inert(note));
    }
    Ok(found.open)
}

fn open_dir(args: &FolderArgs, dir: &Path, options: &OpenOptions) -> anyhow::Result<Open> {
    open_given(dir, args.format, args.new_folder, options).map_err(super::read::failed)
}

/// The folder, telling a person on a terminal when a change waits for another writer's lock
/// (`on_terminal`: see `store_options`).
fn say_lock_waits(open: Open, on_terminal: bool) -> Open {
    let label = open.lock_label();
    let notice = std::sync::Arc::new(move |wait| super::say_waiting_on(&label, wait)) as WaitNotice;
    open.with_lock_notice(on_terminal.then_some(notice))
}
