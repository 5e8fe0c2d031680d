//! `memwb hooks status` for Claude Code: where memwb's hooks are installed, with which matcher
//! and mode, and whether the gate works right now (memwb on PATH, the settings parse, the
//! folder resolves, the hook's last answer).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::agent::user_settings;
use super::hook::Mode;
use super::hook::config::Config;
use super::hook::settings::{self, EVENTS, command_mode};
use crate::agents::AgentError;
use crate::agents::hook_log;
use crate::claude::locate::{locate, process_env, project_root};
use crate::claude::state::{key, state_root};
use crate::sanitize::inert;

/// Reads a settings file's text; `None` when there is none.
type ReadSettings<'a> = &'a dyn Fn(&Path) -> Result<Option<String>, String>;

/// `println!` into the report's lines.
macro_rules! say {
    ($lines:expr, $($arg:tt)*) => {
        $lines.push(format!($($arg)*))
    };
}

pub(super) fn report(
    project: Option<&Path>,
    read: ReadSettings<'_>,
) -> Result<Vec<String>, AgentError> {
    let mut out = Vec::new();
    let mut files = Vec::new();
    if project.is_none() {
        files.push(("user", user_settings()?));
    }
    let project = match project {
        Some(dir) => Some(dir.to_owned()),
        None => std::env::current_dir().ok().map(|d| project_root(&d)),
    };
    if let Some(project) = &project {
        files.push(("project", project.join(".claude").join("settings.json")));
        files.push(("local", project.join(".claude").join("settings.local.json")));
    }
    let mut commands = Vec::new();
    let mut gaps: Vec<String> = Vec::new();
    for (label, path) in &files {
        let shown = inert(&path.display().to_string());
        let map = match parsed(path, read) {
            Ok(Some(map)) => map,
            Ok(None) => {
                say!(out, "{label} settings {shown}: no file");
                continue;
            }
            Err(e) => {
                say!(out, "{label} settings {shown}: unreadable: {}", inert(&e));
                gaps.push(format!("the {label} settings do not parse"));
                continue;
            }
        };
        let found = settings::installed(&map);
        if found.is_empty() {
            say!(
                out,
                "{label} settings {shown}: memwb's hooks are not installed"
            );
            continue;
        }
        let events: Vec<&str> = found.iter().map(|(event, _, _)| event.as_str()).collect();
        let missing: Vec<&str> = EVENTS
            .iter()
            .map(|(event, _)| *event)
            .filter(|event| !events.contains(event))
            .collect();
        say!(out, "{label} settings {shown}: installed");
        for (event, matcher, command) in &found {
            let shown_matcher = matcher
                .as_deref()
                .map(|m| format!(" [{}]", inert(m)))
                .unwrap_or_default();
            say!(out, "  {event}{shown_matcher}: {}", inert(command));
            if settings::is_narrow_matcher(event, matcher.as_deref()) {
                say!(
                    out,
                    "  warning: this {event} matcher leaves tools out, so their writes are not seen; run memwb hooks install again to match every tool"
                );
                gaps.push(format!("{event} does not see every tool"));
            }
            commands.push(command.clone());
        }
        if !missing.is_empty() {
            say!(
                out,
                "  missing: {} (run memwb hooks install again)",
                missing.join(", ")
            );
            gaps.push(format!("{} not installed", missing.join(", ")));
        }
    }
    let Some(command) = commands.first() else {
        say!(
            out,
            "gate: not effective: memwb's hooks are not installed (memwb hooks install)"
        );
        return Ok(out);
    };
    let installed = command_mode(command).and_then(Mode::parse);
    let (mode, from) = effective_mode(installed);
    say!(out, "mode: {} ({from})", mode.as_str());
    if mode == Mode::Off {
        gaps.push("the mode is off".into());
    }
    let (runs, found) = which_memwb(command);
    say!(out, "{runs}");
    if !found {
        gaps.push("memwb is not on PATH".into());
    }
    let folder = project.as_deref().map(memory_folder);
    match &folder {
        Some(Ok(folder)) => say!(
            out,
            "memory folder: {}",
            inert(&folder.display().to_string())
        ),
        Some(Err(e)) => {
            say!(out, "memory folder: not found: {}", inert(e));
            gaps.push("the memory folder does not resolve".into());
        }
        None => {}
    }
    let folder = folder.and_then(Result::ok);
    let lines = log_lines(folder.as_deref());
    let decision = hook_log::last_decision(&lines);
    say!(
        out,
        "last decision: {}",
        inert(decision.as_deref().unwrap_or("none in hook.log"))
    );
    match lines.last() {
        Some(line) => say!(out, "last hook.log entry: {}", inert(line)),
        None => say!(out, "last hook.log entry: none"),
    }
    if gaps.is_empty() {
        say!(out, "gate: effective");
    } else {
        say!(out, "gate: not effective: {}", gaps.join("; "));
    }
    Ok(out)
}

/// A settings file's object: `None` when there is no file; an error when it does not parse
/// (Claude Code then ignores it, and the hooks in it with it).
fn parsed(path: &Path, read: ReadSettings<'_>) -> Result<Option<Map<String, Value>>, String> {
    let Some(text) = read(path)? else {
        return Ok(None);
    };
    if text.trim().is_empty() {
        return Ok(Some(Map::new()));
    }
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// The auto memory folder of `project`, found exactly as the hook finds it.
fn memory_folder(project: &Path) -> Result<PathBuf, String> {
    locate(project, &process_env)
        .map(|location| location.folder)
        .map_err(|e| e.to_string())
}

/// The lines of `hook.log` in the folder's state directory and in the state root (where the
/// hook logs before it knows a folder), oldest first (each starts with its time).
fn log_lines(folder: Option<&Path>) -> Vec<String> {
    let Ok(root) = state_root() else {
        return Vec::new();
    };
    let mut dirs = vec![root.clone()];
    if let Some(real) = folder.and_then(|f| std::fs::canonicalize(f).ok()) {
        dirs.push(root.join("claude").join(key(&real)));
    }
    hook_log::lines(&dirs)
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

/// Which binary Claude Code would run for `command`, and whether it is this one; whether it
/// found one at all.
fn which_memwb(command: &str) -> (String, bool) {
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
    let said = match &found {
        None => format!(
            "Claude Code runs `{program}` from PATH, and no {program} is on this PATH: the hooks fail open (install memwb with cargo install --path . or put it on PATH)"
        ),
        Some(path) => {
            let real = std::fs::canonicalize(path).ok();
            let shown = inert(&path.display().to_string());
            if real.is_some() && real == this {
                format!("Claude Code runs {shown}: this binary")
            } else {
                let this = this.map_or("unknown".into(), |p| inert(&p.display().to_string()));
                format!("Claude Code runs {shown}: not this binary ({this})")
            }
        }
    };
    (said, found.is_some())
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
