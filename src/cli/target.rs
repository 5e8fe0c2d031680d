//! Which memory folder a command works on: `--memory-dir`, `--claude`, or the workspace's
//! `.memory` with Claude Code's auto memory as the fallback.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::claude::locate::{Location, Source, locate, process_env};
use crate::claude::{LoadLimits, SizeUnit};
use crate::formats::Open;
use crate::formats::{Detected, Format, OpenOptions, detect};
use crate::store::{MEMORY_DIR, Store, StoreOptions};

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
    /// Use the workspace's Claude Code auto memory.
    #[arg(long, global = true)]
    pub claude: bool,
    /// Lines of MEMORY.md Claude Code loads.
    #[arg(
        long,
        global = true,
        env = "MEMWB_CLAUDE_INDEX_LINES",
        default_value_t = LoadLimits::default().lines,
        value_name = "N"
    )]
    pub claude_index_lines: usize,
    /// Size of MEMORY.md Claude Code loads, in --claude-index-unit.
    #[arg(
        long,
        global = true,
        env = "MEMWB_CLAUDE_INDEX_SIZE",
        default_value_t = LoadLimits::default().size,
        value_name = "N"
    )]
    pub claude_index_size: usize,
    /// How the size is counted: utf16 (JavaScript string length) or bytes.
    #[arg(
        long,
        global = true,
        env = "MEMWB_CLAUDE_INDEX_UNIT",
        default_value = "utf16",
        value_name = "UNIT"
    )]
    pub claude_index_unit: SizeUnit,
}

impl FolderArgs {
    pub(super) fn limits(&self) -> LoadLimits {
        LoadLimits {
            lines: self.claude_index_lines,
            size: self.claude_index_size,
            unit: self.claude_index_unit,
        }
    }
}

/// Resolves the folder the command works on.
pub(super) fn resolve(
    args: &FolderArgs,
    workspace: &Path,
    options: StoreOptions,
) -> anyhow::Result<Open> {
    let on_terminal = options.on_lock_wait.is_some();
    let open = resolve_quietly(args, workspace, options)?;
    Ok(say_lock_waits(open, on_terminal))
}

fn resolve_quietly(
    args: &FolderArgs,
    workspace: &Path,
    options: StoreOptions,
) -> anyhow::Result<Open> {
    if let Some(dir) = &args.memory_dir {
        return open_dir(args, dir, options);
    }
    let forced = args.format;
    if args.claude || forced == Some(Format::Claude) {
        let workspace = resolve_workspace(workspace)?;
        let location = locate(&workspace, &process_env)?;
        let ignored: String = location
            .ignored
            .iter()
            .map(|why| format!("; {why}"))
            .collect();
        if !location.folder.is_dir() {
            let config = match std::env::var_os("CLAUDE_CONFIG_DIR") {
                Some(dir) => format!("CLAUDE_CONFIG_DIR is {}", Path::new(&dir).display()),
                None => "CLAUDE_CONFIG_DIR is not set, so ~/.claude was assumed".to_owned(),
            };
            anyhow::bail!(
                "no Claude Code auto memory for {}: looked for {}{}{ignored} ({config}); set CLAUDE_CONFIG_DIR to the folder Claude Code keeps its settings and projects in, or open a memory folder itself with --memory-dir PATH",
                location.project.display(),
                location.folder.display(),
                match &location.source {
                    Source::Default => String::new(),
                    Source::Setting(file) =>
                        format!(" (autoMemoryDirectory in {})", file.display()),
                }
            );
        }
        return open_located(location, args.limits(), options);
    }
    let store = Store::open(workspace, options.clone())?;
    if forced == Some(Format::Memory) || store.root().exists() {
        return Ok(Open::Memory(store));
    }
    // The fallback must never stand in the way of today's behaviour: any trouble finding
    // Claude Code's folder means "not there".
    if let Ok(location) = locate(store.workspace(), &process_env)
        && location.folder.is_dir()
    {
        eprintln!(
            "using Claude Code auto memory at {}",
            super::output::inert(&location.folder.display().to_string())
        );
        return open_located(location, args.limits(), options);
    }
    Ok(Open::Memory(store))
}

fn resolve_workspace(workspace: &Path) -> anyhow::Result<PathBuf> {
    std::fs::canonicalize(workspace)
        .with_context(|| format!("resolve workspace {}", workspace.display()))
}

fn open_located(
    location: Location,
    limits: LoadLimits,
    options: StoreOptions,
) -> anyhow::Result<Open> {
    if let Some(why) = &location.disabled {
        eprintln!(
            "note: Claude Code does not use auto memory here: {}",
            super::output::inert(why)
        );
    }
    let options = OpenOptions {
        store: options,
        claude: limits,
    };
    crate::formats::open(&location.folder, Some(Format::Claude), &options)
        .map_err(super::read::failed)
}

fn open_dir(args: &FolderArgs, dir: &Path, options: StoreOptions) -> anyhow::Result<Open> {
    if dir.is_dir() && !args.new_folder && detect(dir) == Detected::Format(Format::Claude) {
        refuse_unless_memory_folder(dir)?;
    }
    let options = OpenOptions {
        store: options,
        claude: args.limits(),
    };
    crate::formats::open(dir, args.format, &options).map_err(super::read::failed)
}

/// A folder with no manifest is taken for Claude Code auto memory only when it looks like one:
/// a project root, an empty folder, `/` or `$HOME` would otherwise audit clean and let `add`
/// write a MEMORY.md into it.
fn refuse_unless_memory_folder(dir: &Path) -> anyhow::Result<()> {
    if holds_memory_files(dir) {
        return Ok(());
    }
    let hint = if dir.join(MEMORY_DIR).is_dir() {
        format!(
            "it holds {MEMORY_DIR}/: open that workspace with -C {}",
            dir.display()
        )
    } else {
        "give the memory folder itself (the one holding MEMORY.md), or start a new one with --format FORMAT --new".to_owned()
    };
    anyhow::bail!(
        "{} is not a memory folder (no MEMORY.md, no topic files with frontmatter); nothing was read or written; {hint}",
        dir.display()
    )
}

/// MEMORY.md, or a Markdown file opening with a frontmatter fence.
fn holds_memory_files(dir: &Path) -> bool {
    use std::io::Read;
    const ENTRIES_LOOKED_AT: usize = 10_000;
    if dir.join(crate::claude::index::INDEX_FILE).exists() {
        return true;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries
        .take(ENTRIES_LOOKED_AT)
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "md"))
        .any(|entry| {
            let mut start = [0u8; 4];
            std::fs::File::open(entry.path())
                .and_then(|mut file| file.read_exact(&mut start))
                .is_ok_and(|()| start.starts_with(b"---\n") || start == *b"---\r")
        })
}

/// The folder, telling a person on a terminal when a change waits for another writer's lock
/// (`on_terminal`: see `store_options`).
fn say_lock_waits(open: Open, on_terminal: bool) -> Open {
    let label = open.lock_label();
    let notice = std::sync::Arc::new(move |wait| super::say_waiting_on(&label, wait))
        as crate::store::lock::WaitNotice;
    open.with_lock_notice(on_terminal.then_some(notice))
}
