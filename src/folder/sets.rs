//! Finding every memory folder: Claude Code's under its config folder, and `.memory` and
//! subagent folders under the roots given.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::{Detected, Format, Project, Summary, detect, summarize_claude, summarize_store};
use crate::claude::locate::slug;
use crate::claude::{ClaudeFolder, LoadLimits};
use crate::store::{MEMORY_DIR, Store, StoreOptions};

/// Folders never descended into while scanning a root.
pub const SKIPPED_DIRS: [&str; 3] = [".git", "node_modules", "target"];

/// One folder found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub format: Format,
    /// Resolved.
    pub path: PathBuf,
    /// For `<config>/projects/<slug>/memory`.
    pub slug: Option<String>,
}

/// A folder that looks like a memory folder but is neither format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    pub why: String,
}

#[derive(Debug, Default)]
pub struct Discovery {
    pub found: Vec<Found>,
    pub skipped: Vec<Skipped>,
}

impl Discovery {
    fn add(
        &mut self,
        seen: &mut HashSet<PathBuf>,
        format: Format,
        path: &Path,
        slug: Option<String>,
    ) {
        let Ok(real) = fs::canonicalize(path) else {
            return;
        };
        if real.is_dir() && seen.insert(real.clone()) {
            self.found.push(Found {
                format,
                path: real,
                slug,
            });
        }
    }
}

/// Every folder under `config` (Claude Code's `projects/*/memory` and `agent-memory/*`), then
/// under each root (recursive, skipping [`SKIPPED_DIRS`]): every `.memory` and every
/// `.claude/agent-memory*/*`. `progress` is called with each directory entered under a root.
pub fn discover(
    config: Option<&Path>,
    roots: &[PathBuf],
    progress: &mut dyn FnMut(&Path),
) -> Discovery {
    let mut out = Discovery::default();
    let mut seen = HashSet::new();
    if let Some(config) = config {
        for (slug_dir, _) in children(&config.join("projects")) {
            let memory = slug_dir.join("memory");
            if memory.is_dir() {
                let slug = slug_dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned());
                out.add(&mut seen, Format::Claude, &memory, slug);
            }
        }
        for (agent, _) in children(&config.join("agent-memory")) {
            out.add(&mut seen, Format::Claude, &agent, None);
        }
    }
    for root in roots {
        let walker = walkdir::WalkDir::new(root)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| {
                !(e.file_type().is_dir()
                    && e.depth() > 0
                    && SKIPPED_DIRS.iter().any(|s| e.file_name() == *s))
            });
        let mut walker = walker;
        while let Some(entry) = walker.next() {
            let Ok(entry) = entry else { continue };
            if !entry.file_type().is_dir() {
                continue;
            }
            progress(entry.path());
            let name = entry.file_name();
            if name == MEMORY_DIR {
                match detect(entry.path()) {
                    Detected::Format(Format::Memory) => {
                        out.add(&mut seen, Format::Memory, entry.path(), None);
                    }
                    // A `.memory` without a manifest is the contract with an empty set, unless
                    // it holds topic files the way Claude Code writes them.
                    Detected::Format(Format::Claude) => {
                        let format = if entry.path().join(crate::claude::index::INDEX_FILE).exists()
                        {
                            Format::Claude
                        } else {
                            Format::Memory
                        };
                        out.add(&mut seen, format, entry.path(), None);
                    }
                    Detected::Foreign { rule, .. } => out.skipped.push(Skipped {
                        path: entry.path().to_owned(),
                        why: format!("manifest.json of another schema ({rule})"),
                    }),
                }
                walker.skip_current_dir();
            } else if name == ".claude" {
                for (dir, name) in children(entry.path()) {
                    if name.starts_with("agent-memory") {
                        for (agent, _) in children(&dir) {
                            out.add(&mut seen, Format::Claude, &agent, None);
                        }
                    }
                }
                walker.skip_current_dir();
            }
        }
    }
    out
}

/// Sums up one folder found; `None` when it cannot be opened any more.
pub fn summarize(found: &Found, store: &StoreOptions, limits: LoadLimits) -> Option<Summary> {
    match found.format {
        Format::Memory => {
            let workspace = found.path.parent()?;
            Some(summarize_store(
                &Store::open(workspace, store.clone()).ok()?,
            ))
        }
        Format::Claude => {
            let folder = ClaudeFolder::open(&found.path, limits).ok()?;
            Some(summarize_claude(
                &folder,
                found.slug.as_deref().map(project_of),
            ))
        }
    }
}

/// The subdirectories of `dir`, sorted, with their names.
fn children(dir: &Path) -> Vec<(PathBuf, String)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(PathBuf, String)> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| Some((e.path(), e.file_name().into_string().ok()?)))
        .collect();
    out.sort();
    out
}

/// How many directories [`project_of`] may list while matching one slug.
const MATCH_BUDGET: usize = 4096;

/// The project a slug stands for, with the existing directory it matches when there is one
/// (a slug loses `/`, `.` and `_` alike, so the match walks the file system from `/`).
pub fn project_of(slug_text: &str) -> Project {
    let mut budget = MATCH_BUDGET;
    let path = slug_text
        .strip_prefix('-')
        .and_then(|rest| match_slug(Path::new("/"), rest, &mut budget))
        .map(|p| p.display().to_string());
    Project {
        slug: slug_text.to_owned(),
        path,
    }
}

/// The project of a folder at `<config>/projects/<slug>/memory`, when its slug matches an
/// existing directory ([`project_of`]).
pub fn project_of_folder(folder: &Path) -> Option<PathBuf> {
    let slug_dir = folder.parent()?;
    let is_projects = slug_dir
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == "projects");
    if folder.file_name()? != "memory" || !is_projects {
        return None;
    }
    project_of(slug_dir.file_name()?.to_str()?)
        .path
        .map(PathBuf::from)
}

fn match_slug(dir: &Path, rest: &str, budget: &mut usize) -> Option<PathBuf> {
    if rest.is_empty() {
        return Some(dir.to_owned());
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    for (child, name) in children(dir) {
        let part = slug(Path::new(&name));
        if rest == part {
            return Some(child);
        }
        if let Some(tail) = rest
            .strip_prefix(part.as_str())
            .and_then(|t| t.strip_prefix('-'))
            && let Some(found) = match_slug(&child, tail, budget)
        {
            return Some(found);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_matches_its_directory() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = fs::canonicalize(dir.path()).expect("realpath");
        let project = real.join("my.proj").join("sub_dir");
        fs::create_dir_all(&project).expect("mkdir");
        let found = project_of(&slug(&project));
        assert_eq!(found.path, Some(project.display().to_string()));
        assert_eq!(project_of("-no-such-place-anywhere-42").path, None);
    }
}
