//! `memwb hooks install|uninstall|status`: memwb's entries in an agent program's settings
//! file (docs/claude-code.md, "Put memwb in front of Claude Code"). The agent knows the file's
//! place and shape ([`crate::agents::Agent`]); this keeps what any edit of it needs: a
//! backup, an atomic replace, a note of what memwb created.

use std::path::{Path, PathBuf};

mod files;

use anyhow::Context;

use super::EXIT_OK;
use super::hook::{agent_names, mode_values, per_agent};
use super::output::inert;
use crate::agents::{
    AGENTS, Agent, ModeUse, SettingsRefusal, default_agent, mode_named, modes_for, named,
};

#[derive(clap::Args, Debug)]
pub(super) struct HooksArgs {
    #[command(subcommand)]
    pub action: HooksAction,
}

#[derive(clap::Subcommand, Debug)]
pub(super) enum HooksAction {
    /// Add memwb's hooks to an agent program's settings file (claude: PreToolUse, PostToolUse
    /// and SessionStart in a Claude Code settings file).
    Install(InstallArgs),
    /// Remove memwb's hooks from an agent program's settings file, and nothing else.
    Uninstall(EditArgs),
    /// Where memwb's hooks are installed, in which mode, what the agent program runs, and
    /// whether that `memwb` is this binary: for AGENT, else for every agent memwb knows.
    Status(StatusArgs),
}

#[derive(clap::Args, Debug, Default)]
pub(super) struct WhereArgs {
    /// The user's settings, the default (claude: $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json).
    #[arg(long, conflicts_with = "project")]
    pub user: bool,
    /// The project's shared settings under DIR (claude: DIR/.claude/settings.json).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

/// The agent program whose settings `install` and `uninstall` edit, and where.
#[derive(clap::Args, Debug)]
pub(super) struct EditArgs {
    /// The agent program whose settings to edit.
    #[arg(value_name = "AGENT", value_parser = agent_names(), default_value = default_agent().name())]
    agent: String,
    #[command(flatten)]
    place: WhereArgs,
}

#[derive(clap::Args, Debug)]
pub(super) struct InstallArgs {
    #[command(flatten)]
    edit: EditArgs,
    // Its values and help are the agents' own (`Agent::modes`); `install` checks that the
    // value is one the named agent installs.
    #[arg(
        long,
        value_name = "MODE",
        value_parser = mode_values(ModeUse::Install),
        help = install_mode_help()
    )]
    pub mode: Option<String>,
}

#[derive(clap::Args, Debug)]
pub(super) struct StatusArgs {
    /// The agent program to report on (every one memwb knows, without it).
    #[arg(value_name = "AGENT", value_parser = agent_names())]
    agent: Option<String>,
    #[command(flatten)]
    place: WhereArgs,
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

/// The registered agent `name` (clap admits no other).
fn agent(name: &str) -> anyhow::Result<&'static dyn Agent> {
    named(name).ok_or_else(|| anyhow::anyhow!("no agent program named {}", inert(name)))
}

fn settings_path(agent: &dyn Agent, place: &WhereArgs) -> anyhow::Result<PathBuf> {
    if let Some(dir) = &place.project
        && !dir.is_dir()
    {
        anyhow::bail!(
            "--project {}: no such folder; nothing was changed",
            inert(&dir.display().to_string())
        );
    }
    Ok(agent.settings_file(place.project.as_deref())?)
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
        HooksAction::Uninstall(args) => uninstall(agent(&args.agent)?, &args.place),
        HooksAction::Status(args) => status(args),
    }
}

fn install(args: &InstallArgs) -> anyhow::Result<u8> {
    let agent = agent(&args.edit.agent)?;
    if let Some(mode) = &args.mode {
        mode_named(agent, mode, ModeUse::Install)
            .map_err(|refusal| anyhow::anyhow!("{refusal}; nothing was changed"))?;
    }
    let path = settings_path(agent, &args.edit.place)?;
    let target = files::real_target(&path);
    files::clear_leftovers(&target);
    let current = files::read(&target)?;
    let command = agent.hook_command(args.mode.as_deref());
    let text = current.as_ref().map_or("", |c| c.text.as_str());
    let shown = inert(&path.display().to_string());
    let Some(new) = agent
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

fn uninstall(agent: &dyn Agent, place: &WhereArgs) -> anyhow::Result<u8> {
    let path = settings_path(agent, place)?;
    let target = files::real_target(&path);
    files::clear_leftovers(&target);
    let shown = inert(&path.display().to_string());
    let Some(current) = files::read(&target)? else {
        say!("{shown} does not exist; nothing to remove")?;
        return Ok(EXIT_OK);
    };
    let Some(new) = agent
        .without_hooks(&current.text)
        .map_err(|e| refused(&path, e))?
    else {
        say!("memwb's hooks are not in {shown}; nothing changed")?;
        return Ok(EXIT_OK);
    };
    if let Some(created) = files::created(&target)
        && agent.means_nothing(&agent.meaning(&new))
    {
        files::remove_created(&target, created)?;
        say!("removed memwb's hooks from {shown}, and the file, which memwb had created")?;
        return Ok(EXIT_OK);
    }
    let backup = files::back_up(&target, &current.bytes)?;
    files::replace(
        &target,
        &as_written_before(agent, &target, &new, &current),
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
fn as_written_before(
    agent: &dyn Agent,
    target: &Path,
    new: &str,
    current: &files::Current,
) -> Vec<u8> {
    let wanted = agent.meaning(new);
    let before = files::backups(target)
        .into_iter()
        .rev()
        .find_map(|(_, path)| {
            let old = files::read(&path).ok()??;
            matches!(agent.without_hooks(&old.text), Ok(None)).then_some(old)
        });
    match before {
        Some(old) if agent.meaning(&old.text) == wanted => old.bytes,
        _ => current.with_bom(new),
    }
}

/// `memwb hooks status`: the named agent's report, else every registered agent's, each
/// settings file read as `install` reads it.
fn status(args: &StatusArgs) -> anyhow::Result<u8> {
    let read = |path: &Path| {
        files::read(path)
            .map(|current| current.map(|c| c.text))
            .map_err(|e| format!("{e:#}"))
    };
    let agents = match &args.agent {
        Some(name) => vec![agent(name)?],
        None => AGENTS.to_vec(),
    };
    let mut reports = Vec::new();
    for agent in agents {
        let report = agent.status(args.place.project.as_deref(), &read)?;
        reports.push((agent.name(), report));
    }
    for line in one_report(reports) {
        say!("{line}")?;
    }
    Ok(EXIT_OK)
}

/// The agents' reports as one: a single report as it is; several each under a heading with
/// the agent's name, a blank line between them (as `head` heads several files).
fn one_report(reports: Vec<(&str, Vec<String>)>) -> Vec<String> {
    if reports.len() == 1 {
        return reports.into_iter().flat_map(|(_, lines)| lines).collect();
    }
    let mut out = Vec::new();
    for (name, lines) in reports {
        if !out.is_empty() {
            out.push(String::new());
        }
        out.push(format!("==> {name} <=="));
        out.extend(lines);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn several_reports_are_headed_by_their_agent_and_one_is_as_it_is() {
        let report = |name, line: &str| (name, vec![line.to_owned()]);
        assert_eq!(
            one_report(vec![report("a", "gate: effective")]),
            ["gate: effective"]
        );
        assert_eq!(
            one_report(vec![report("a", "gate: effective"), report("b", "no file")]),
            ["==> a <==", "gate: effective", "", "==> b <==", "no file"]
        );
    }
}
