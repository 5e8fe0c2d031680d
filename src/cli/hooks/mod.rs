//! `memwb hooks install|uninstall|status`: memwb's entries in an agent program's settings
//! file (docs/claude-code.md, "Put memwb in front of Claude Code"). The agent knows the file's
//! place and shape ([`crate::agents::Agent`]); this keeps what any edit of it needs: a
//! backup, an atomic replace, a note of what memwb created.

use std::path::{Path, PathBuf};

mod files;

use anyhow::Context;

use super::EXIT_OK;
use super::hook::{mode_values, per_agent};
use super::output::inert;
use crate::agents::{AGENTS, Agent, ModeUse, SettingsRefusal, mode_named, modes_for};

/// The agent program whose settings `memwb hooks` edits.
fn agent() -> &'static dyn Agent {
    AGENTS[0]
}

#[derive(clap::Args, Debug)]
pub(super) struct HooksArgs {
    #[command(subcommand)]
    pub action: HooksAction,
}

#[derive(clap::Subcommand, Debug)]
pub(super) enum HooksAction {
    /// Add memwb's hooks (PreToolUse, PostToolUse, SessionStart) to a Claude Code settings file.
    Install(InstallArgs),
    /// Remove memwb's hooks from a settings file, and nothing else.
    Uninstall(WhereArgs),
    /// Where memwb's hooks are installed, in which mode, what Claude Code runs, and whether
    /// that `memwb` is this binary.
    Status(WhereArgs),
}

#[derive(clap::Args, Debug, Default)]
pub(super) struct WhereArgs {
    /// The user's settings ($CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json; the default).
    #[arg(long, conflicts_with = "project")]
    pub user: bool,
    /// The project's shared settings, DIR/.claude/settings.json.
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub(super) struct InstallArgs {
    #[command(flatten)]
    pub place: WhereArgs,
    // Its values and help are the agents' own (`Agent::modes`); `install` checks that the
    // value is one the agent installs.
    #[arg(
        long,
        value_name = "MODE",
        value_parser = mode_values(ModeUse::Install),
        help = install_mode_help()
    )]
    pub mode: Option<String>,
}

/// `install --mode`'s help: each installable mode and what it does, the agent's words.
fn install_mode_help() -> String {
    per_agent(|agent| {
        let modes: Vec<String> = modes_for(agent, ModeUse::Install)
            .iter()
            .map(|m| format!("{}: {}", m.name, m.help))
            .collect();
        format!("{}.", modes.join("; "))
    })
}

fn settings_path(place: &WhereArgs) -> anyhow::Result<PathBuf> {
    if let Some(dir) = &place.project
        && !dir.is_dir()
    {
        anyhow::bail!(
            "--project {}: no such folder; nothing was changed",
            inert(&dir.display().to_string())
        );
    }
    Ok(agent().settings_file(place.project.as_deref())?)
}

/// A refusal of the file's shape, as the error the command ends with.
fn refused(path: &Path, e: SettingsRefusal) -> anyhow::Error {
    anyhow::anyhow!(
        "settings file {} {}; nothing was changed",
        path.display(),
        if e.rule.starts_with("is not") {
            e.rule
        } else {
            format!("cannot be edited: {}", e.rule)
        }
    )
}

pub(super) fn run(args: &HooksArgs) -> anyhow::Result<u8> {
    match &args.action {
        HooksAction::Install(args) => install(args),
        HooksAction::Uninstall(place) => uninstall(place),
        HooksAction::Status(place) => status(place),
    }
}

fn install(args: &InstallArgs) -> anyhow::Result<u8> {
    if let Some(mode) = &args.mode {
        mode_named(agent(), mode, ModeUse::Install)
            .map_err(|refusal| anyhow::anyhow!("{refusal}; nothing was changed"))?;
    }
    let path = settings_path(&args.place)?;
    let target = files::real_target(&path);
    files::clear_leftovers(&target);
    let current = files::read(&target)?;
    let command = agent().hook_command(args.mode.as_deref());
    let text = current.as_ref().map_or("", |c| c.text.as_str());
    let shown = inert(&path.display().to_string());
    let Some(new) = agent()
        .with_hooks(text, &command)
        .map_err(|e| refused(&path, e))?
    else {
        say!("memwb's hooks are already installed in {shown}; nothing changed")?;
        return Ok(EXIT_OK);
    };
    match &current {
        Some(current) => {
            let backup = files::back_up(&target, &current.bytes)?;
            files::replace(&target, &current.with_bom(&new), Some(current))?;
            say!("installed memwb's hooks in {shown}: {command}")?;
            say!(
                "the previous file is kept in {}",
                inert(&backup.display().to_string())
            )?;
        }
        None => {
            let dir = target.parent().unwrap_or(Path::new("."));
            // A note without its file is an install a crash cut short: what it says stands.
            let created = files::Created {
                folder: !dir.exists() || files::created(&target).is_some_and(|c| c.folder),
            };
            std::fs::create_dir_all(dir).with_context(|| format!("create {}", dir.display()))?;
            files::note_created(&target, created)?;
            files::replace(&target, new.as_bytes(), None)?;
            say!("installed memwb's hooks in {shown}: {command}")?;
        }
    }
    Ok(EXIT_OK)
}

fn uninstall(place: &WhereArgs) -> anyhow::Result<u8> {
    let path = settings_path(place)?;
    let target = files::real_target(&path);
    files::clear_leftovers(&target);
    let shown = inert(&path.display().to_string());
    let Some(current) = files::read(&target)? else {
        say!("{shown} does not exist; nothing to remove")?;
        return Ok(EXIT_OK);
    };
    let Some(new) = agent()
        .without_hooks(&current.text)
        .map_err(|e| refused(&path, e))?
    else {
        say!("memwb's hooks are not in {shown}; nothing changed")?;
        return Ok(EXIT_OK);
    };
    if let Some(created) = files::created(&target)
        && agent().means_nothing(&agent().meaning(&new))
    {
        files::remove_created(&target, created)?;
        say!("removed memwb's hooks from {shown}, and the file, which memwb had created")?;
        return Ok(EXIT_OK);
    }
    let backup = files::back_up(&target, &current.bytes)?;
    files::replace(
        &target,
        &as_written_before(&target, &new, &current),
        Some(&current),
    )?;
    say!("removed memwb's hooks from {shown}")?;
    say!(
        "the previous file is kept in {}",
        inert(&backup.display().to_string())
    )?;
    Ok(EXIT_OK)
}

/// The bytes to write for `new` (the file without memwb's entries): the newest backup without
/// memwb's entries, byte for byte, when it says the same up to layout (the file as it was
/// before memwb's install, not a re-laid-out copy); else `new` itself.
fn as_written_before(target: &Path, new: &str, current: &files::Current) -> Vec<u8> {
    let wanted = agent().meaning(new);
    let before = files::backups(target)
        .into_iter()
        .rev()
        .find_map(|(_, path)| {
            let old = files::read(&path).ok()??;
            matches!(agent().without_hooks(&old.text), Ok(None)).then_some(old)
        });
    match before {
        Some(old) if agent().meaning(&old.text) == wanted => old.bytes,
        _ => current.with_bom(new),
    }
}

/// `memwb hooks status`: the agent's report, each settings file read as `install` reads it.
fn status(place: &WhereArgs) -> anyhow::Result<u8> {
    let read = |path: &Path| {
        files::read(path)
            .map(|current| current.map(|c| c.text))
            .map_err(|e| format!("{e:#}"))
    };
    for line in agent().status(place.project.as_deref(), &read)? {
        say!("{line}")?;
    }
    Ok(EXIT_OK)
}
