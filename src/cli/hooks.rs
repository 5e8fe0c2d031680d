//! `memwb hooks install|uninstall|status`: memwb's entries in a Claude Code settings file
//! (docs/claude-code.md, "Put memwb in front of Claude Code").

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::{Map, Value};

use super::EXIT_OK;
use super::output::inert;
use crate::claude::hook::Mode;
use crate::claude::hook::config::Config;
use crate::claude::hook::settings::{self, EVENTS, command_mode};
use crate::claude::locate::{config_dir, process_env, project_root};
use crate::store::fsutil::{IoHooks, Links, atomic_replace, read_regular};

#[derive(clap::Args, Debug)]
pub struct HooksArgs {
    #[command(subcommand)]
    pub action: HooksAction,
}

#[derive(clap::Subcommand, Debug)]
pub enum HooksAction {
    /// Add memwb's hooks (PreToolUse, PostToolUse, SessionStart) to a Claude Code settings file.
    Install(InstallArgs),
    /// Remove memwb's hooks from a settings file, and nothing else.
    Uninstall(WhereArgs),
    /// Where memwb's hooks are installed, in which mode, what Claude Code runs, and whether
    /// that `memwb` is this binary.
    Status(WhereArgs),
}

#[derive(clap::Args, Debug, Default)]
pub struct WhereArgs {
    /// The user's settings ($CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json; the default).
    #[arg(long, conflicts_with = "project")]
    pub user: bool,
    /// The project's shared settings, DIR/.claude/settings.json.
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct InstallArgs {
    #[command(flatten)]
    pub place: WhereArgs,
    /// review: memory writes become proposals (the default); record: they go through and are journaled.
    #[arg(long, value_name = "MODE", value_parser = ["review", "record"])]
    pub mode: Option<String>,
}

/// Most of a settings file that is read.
const MAX_SETTINGS_BYTES: usize = 4 * 1024 * 1024;

fn settings_path(place: &WhereArgs) -> anyhow::Result<PathBuf> {
    Ok(match &place.project {
        Some(dir) => dir.join(".claude").join("settings.json"),
        None => config_dir(&process_env)?.join("settings.json"),
    })
}

/// A settings file's bytes and its parsed object.
type Settings = (Vec<u8>, Map<String, Value>);

fn read_settings(path: &Path) -> anyhow::Result<Option<Settings>> {
    let Some(bytes) = read_regular(path, MAX_SETTINGS_BYTES, Links::Follow)? else {
        return Ok(None);
    };
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    if text.iter().all(u8::is_ascii_whitespace) {
        return Ok(Some((bytes, Map::new())));
    }
    match serde_json::from_slice::<Value>(text) {
        Ok(Value::Object(map)) => Ok(Some((bytes, map))),
        Ok(_) => anyhow::bail!(
            "settings file {} is not a JSON object; nothing was changed",
            path.display()
        ),
        Err(e) => anyhow::bail!(
            "settings file {} is not JSON ({e}); nothing was changed",
            path.display()
        ),
    }
}

/// Writes the new settings atomically (through a link to the file it points at), after
/// keeping the previous bytes in `<file>.memwb-backup`.
fn write_settings(
    path: &Path,
    previous: Option<&[u8]>,
    settings: &Map<String, Value>,
) -> anyhow::Result<()> {
    let target = match std::fs::canonicalize(path) {
        Ok(real) => real,
        Err(_) => path.to_owned(),
    };
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("create {}", dir.display()))?;
    if let Some(previous) = previous {
        let backup = backup_path(&target);
        atomic_replace(&backup, previous, &IoHooks::default())?;
    }
    let mut text = serde_json::to_string_pretty(settings)?;
    text.push('\n');
    atomic_replace(&target, text.as_bytes(), &IoHooks::default())?;
    Ok(())
}

fn backup_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_owned();
    name.push(".memwb-backup");
    target.with_file_name(name)
}

fn hook_command(mode: Option<&str>) -> String {
    match mode {
        Some(mode) => format!("memwb hook claude --mode {mode}"),
        None => "memwb hook claude".to_owned(),
    }
}

pub fn run(args: &HooksArgs) -> anyhow::Result<u8> {
    match &args.action {
        HooksAction::Install(args) => install(args),
        HooksAction::Uninstall(place) => uninstall(place),
        HooksAction::Status(place) => status(place),
    }
}

fn install(args: &InstallArgs) -> anyhow::Result<u8> {
    let path = settings_path(&args.place)?;
    let (previous, mut map) = match read_settings(&path)? {
        Some((bytes, map)) => (Some(bytes), map),
        None => (None, Map::new()),
    };
    let command = hook_command(args.mode.as_deref());
    let changed = settings::install(&mut map, &command).map_err(|e| {
        anyhow::anyhow!(
            "settings file {}: {}; nothing was changed",
            path.display(),
            e.rule
        )
    })?;
    let shown = inert(&path.display().to_string());
    if !changed {
        say!("memwb's hooks are already installed in {shown}; nothing changed")?;
        return Ok(EXIT_OK);
    }
    write_settings(&path, previous.as_deref(), &map)?;
    say!("installed memwb's hooks in {shown}: {command}")?;
    if previous.is_some() {
        say!(
            "the previous file is kept in {}",
            inert(&backup_path(&path).display().to_string())
        )?;
    }
    Ok(EXIT_OK)
}

fn uninstall(place: &WhereArgs) -> anyhow::Result<u8> {
    let path = settings_path(place)?;
    let shown = inert(&path.display().to_string());
    let Some((previous, mut map)) = read_settings(&path)? else {
        say!("{shown} does not exist; nothing to remove")?;
        return Ok(EXIT_OK);
    };
    let changed = settings::uninstall(&mut map).map_err(|e| {
        anyhow::anyhow!(
            "settings file {}: {}; nothing was changed",
            path.display(),
            e.rule
        )
    })?;
    if !changed {
        say!("memwb's hooks are not in {shown}; nothing changed")?;
        return Ok(EXIT_OK);
    }
    write_settings(&path, Some(&previous), &map)?;
    say!("removed memwb's hooks from {shown}")?;
    Ok(EXIT_OK)
}

fn status(place: &WhereArgs) -> anyhow::Result<u8> {
    let mut files = Vec::new();
    if place.project.is_none() {
        files.push(("user", config_dir(&process_env)?.join("settings.json")));
    }
    let project = match &place.project {
        Some(dir) => Some(dir.clone()),
        None => std::env::current_dir().ok().map(|d| project_root(&d)),
    };
    if let Some(project) = project {
        files.push(("project", project.join(".claude").join("settings.json")));
        files.push(("local", project.join(".claude").join("settings.local.json")));
    }
    let mut commands = Vec::new();
    for (label, path) in &files {
        let shown = inert(&path.display().to_string());
        let map = match read_settings(path) {
            Ok(Some((_, map))) => map,
            Ok(None) => {
                say!("{label} settings {shown}: no file")?;
                continue;
            }
            Err(e) => {
                say!(
                    "{label} settings {shown}: unreadable: {}",
                    inert(&format!("{e:#}"))
                )?;
                continue;
            }
        };
        let found = settings::installed(&map);
        if found.is_empty() {
            say!("{label} settings {shown}: memwb's hooks are not installed")?;
            continue;
        }
        let events: Vec<&str> = found.iter().map(|(event, _, _)| event.as_str()).collect();
        let missing: Vec<&str> = EVENTS
            .iter()
            .map(|(event, _)| *event)
            .filter(|event| !events.contains(event))
            .collect();
        say!("{label} settings {shown}: installed")?;
        for (event, matcher, command) in &found {
            let matcher = matcher
                .as_deref()
                .map(|m| format!(" [{m}]"))
                .unwrap_or_default();
            say!("  {event}{matcher}: {}", inert(command))?;
            commands.push(command.clone());
        }
        if !missing.is_empty() {
            say!(
                "  missing: {} (run memwb hooks install again)",
                missing.join(", ")
            )?;
        }
    }
    let Some(command) = commands.first() else {
        return Ok(EXIT_OK);
    };
    let installed = command_mode(command).and_then(Mode::parse);
    let (mode, from) = effective_mode(installed);
    say!("mode: {} ({from})", mode.as_str())?;
    say!("{}", which_memwb(command))?;
    Ok(EXIT_OK)
}

/// The mode a hook in the session's folder would use, and where it comes from.
fn effective_mode(installed: Option<Mode>) -> (Mode, String) {
    if let Some(mode) = process_env("MEMWB_CLAUDE_MODE").and_then(|m| Mode::parse(&m)) {
        return (mode, "MEMWB_CLAUDE_MODE".into());
    }
    match Config::load(&process_env) {
        Ok(config) => match config.claude.mode {
            Some(mode) => (mode, "the [claude] mode in memwb's config file".into()),
            None => match installed {
                Some(mode) => (mode, "--mode in the hook command".into()),
                None => (Mode::Review, "the default".into()),
            },
        },
        Err(e) => (
            installed.unwrap_or_default(),
            format!(
                "memwb's config file is unreadable, so the hook ignores it: {}",
                inert(&e.to_string())
            ),
        ),
    }
}

/// Which binary Claude Code would run for `command`, and whether it is this one.
fn which_memwb(command: &str) -> String {
    let program = command.split_whitespace().next().unwrap_or("memwb");
    let found = if program.contains('/') {
        Some(PathBuf::from(program))
    } else {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(program))
                .find(|candidate| is_executable(candidate))
        })
    };
    let this = std::env::current_exe().and_then(std::fs::canonicalize).ok();
    match found {
        None => format!(
            "Claude Code runs `{program}` from PATH, and no {program} is on this PATH: the hooks fail open (install memwb with cargo install --path . or put it on PATH)"
        ),
        Some(path) => {
            let real = std::fs::canonicalize(&path).ok();
            let shown = inert(&path.display().to_string());
            if real.is_some() && real == this {
                format!("Claude Code runs {shown}: this binary")
            } else {
                let this = this.map_or("unknown".into(), |p| inert(&p.display().to_string()));
                format!("Claude Code runs {shown}: not this binary ({this})")
            }
        }
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
