//! Where Claude Code keeps memory folders: under its config folder (`projects/*/memory`, the
//! subagent folders of `agent-memory/`, the folder `autoMemoryDirectory` names), and, under a
//! root, any folder shaped like its memory (a MEMORY.md, or topic files of the four types),
//! each subagent folder of an `agent-memory*` group and the folders a project's
//! `.claude/settings*.json` moves it to.

use std::path::Path;

use super::FORMAT;
use crate::claude::locate::{auto_memory_setting, process_env};
use crate::claude::shape;
use crate::formats::discover::{Entered, Look, Sightings};
use crate::fs::subdirectories;

/// Claude Code's config folder, as the environment says (`$CLAUDE_CONFIG_DIR`, else
/// `~/.claude`): where discovery looks for the folders [`known`] reports.
#[cfg(any(feature = "cli", feature = "tui"))]
pub(crate) fn config_folder() -> Option<std::path::PathBuf> {
    crate::claude::locate::config_dir(&process_env).ok()
}

/// The folders Claude Code keeps under its config folder `config`.
pub(crate) fn known(config: &Path, sightings: &mut dyn Sightings) {
    for (slug_dir, _) in subdirectories(&config.join("projects")) {
        let memory = slug_dir.join("memory");
        if memory.is_dir() {
            let slug = slug_dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned());
            sightings.folder(FORMAT, &memory, slug);
        }
    }
    agent_group(&config.join("agent-memory"), true, sightings);
    if let Some(moved) = auto_memory_setting(&config.join("settings.json"), &process_env) {
        sightings.folder(FORMAT, &moved, None);
    }
}

/// A directory under a root: a subagent group is accounted for whole; a `.claude` reports the
/// folders its settings move memory to; a folder is one by its shape, and inside one only a
/// subfolder with its own MEMORY.md is (the others are its topic subfolders).
pub(crate) fn look(dir: Entered<'_>, sightings: &mut dyn Sightings) -> Look {
    if dir.depth > 0 && is_agent_group(dir.name) {
        let made_by_agent = dir
            .path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|p| p == ".claude");
        agent_group(dir.path, made_by_agent, sightings);
        return Look::Done;
    }
    if dir.name == ".claude" {
        for settings in ["settings.local.json", "settings.json"] {
            if let Some(moved) = auto_memory_setting(&dir.path.join(settings), &process_env) {
                sightings.folder(FORMAT, &moved, None);
            }
        }
    }
    let is_folder = if dir.inside_folder {
        shape::has_index(dir.path)
    } else {
        shape::looks_like_memory(dir.path)
    };
    if is_folder {
        sightings.folder(FORMAT, dir.path, None);
        return Look::Folder;
    }
    Look::Pass
}

/// Whether a folder name is a group of subagent memory folders (`agent-memory`,
/// `agent-memory-local`).
fn is_agent_group(name: &str) -> bool {
    name.starts_with("agent-memory")
}

/// Each subagent folder of an `agent-memory*` group is a folder; the group never is one.
/// Where Claude Code made it (under `.claude` or its config folder) every subfolder counts,
/// elsewhere only one that looks like memory.
fn agent_group(group: &Path, made_by_agent: bool, sightings: &mut dyn Sightings) {
    for (agent, _) in subdirectories(group) {
        if made_by_agent || shape::looks_like_memory(&agent) {
            sightings.folder(FORMAT, &agent, None);
        }
    }
}

/// Whether a `.memory` folder without a manifest holds topic files the way Claude Code writes
/// them (a MEMORY.md): then it is Claude Code's, else the contract's empty set.
pub(crate) fn holds_its_index(dir: &Path) -> bool {
    shape::has_index(dir)
}
