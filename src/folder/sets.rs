//! Finding every memory folder: Claude Code's under its config folder, and under the roots
//! given every folder of either format, recognised by its shape rather than its name.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::claude::locate::{auto_memory_setting, process_env};
use crate::claude::shape;
use crate::formats::{Detected, Format, OpenOptions, Summary, detect};
use crate::fs::subdirectories as children;
use crate::store::MEMORY_DIR;

/// Folders never descended into while scanning a root: version control, dependencies, build
/// output and caches, which hold no memory but can hold millions of files.
pub const SKIPPED_DIRS: [&str; 16] = [
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "bower_components",
    "target",
    ".venv",
    "venv",
    "__pycache__",
    ".tox",
    ".cache",
    ".next",
    ".gradle",
    ".terraform",
    ".cargo",
    ".rustup",
];

/// How far a scan of the roots goes: depth below each root, directories entered, time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScanBounds {
    pub max_depth: usize,
    pub max_dirs: usize,
    pub max_time: Duration,
}

impl Default for ScanBounds {
    fn default() -> Self {
        Self {
            max_depth: 12,
            max_dirs: 200_000,
            max_time: Duration::from_secs(60),
        }
    }
}

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
    /// Set when a bound of [`ScanBounds`] stopped the scan before it saw everything.
    pub cut_short: Option<String>,
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

    /// Each subagent folder of an `agent-memory*` group is a set; the group never is one.
    /// Under `.claude` (Claude Code made it) every subfolder counts, elsewhere only one that
    /// looks like memory.
    fn add_group(&mut self, seen: &mut HashSet<PathBuf>, group: &Path, made_by_claude: bool) {
        for (agent, _) in children(group) {
            if made_by_claude || shape::looks_like_memory(&agent) {
                self.add(seen, Format::Claude, &agent, None);
            }
        }
    }
}

/// Whether a folder name is a group of subagent memory folders (`agent-memory`,
/// `agent-memory-local`).
fn is_agent_group(name: &str) -> bool {
    name.starts_with("agent-memory")
}

/// [`discover_within`] with the default [`ScanBounds`].
pub fn discover(
    config: Option<&Path>,
    roots: &[PathBuf],
    progress: &mut dyn FnMut(&Path),
) -> Discovery {
    discover_within(config, roots, ScanBounds::default(), progress)
}

/// Every memory folder: under `config`, Claude Code's `projects/*/memory`, each subagent
/// folder of `agent-memory/` and the folder `autoMemoryDirectory` in its `settings.json`
/// names; then under each root (not following links, skipping [`SKIPPED_DIRS`], within
/// `bounds`): every `.memory`, each subagent folder of an `agent-memory*` group, the folders
/// the `autoMemoryDirectory` of a project's `.claude/settings*.json` names, and every other
/// folder shaped like Claude Code's memory (a MEMORY.md, or topic files of the four types).
/// Inside a folder found by shape, a subfolder is a set of its own only with its own
/// MEMORY.md (the others are its topic subfolders). `progress` is called with each directory
/// entered under a root.
pub fn discover_within(
    config: Option<&Path>,
    roots: &[PathBuf],
    bounds: ScanBounds,
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
        out.add_group(&mut seen, &config.join("agent-memory"), true);
        if let Some(moved) = auto_memory_setting(&config.join("settings.json"), &process_env) {
            out.add(&mut seen, Format::Claude, &moved, None);
        }
    }
    let started = Instant::now();
    let mut entered = 0usize;
    for root in roots {
        if out.cut_short.is_some() {
            break;
        }
        scan_root(
            root,
            bounds,
            started,
            &mut entered,
            &mut seen,
            &mut out,
            progress,
        );
    }
    out
}

fn scan_root(
    root: &Path,
    bounds: ScanBounds,
    started: Instant,
    entered: &mut usize,
    seen: &mut HashSet<PathBuf>,
    out: &mut Discovery,
    progress: &mut dyn FnMut(&Path),
) {
    let mut walker = walkdir::WalkDir::new(root)
        .follow_links(false)
        .max_depth(bounds.max_depth)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            !(e.file_type().is_dir()
                && e.depth() > 0
                && SKIPPED_DIRS.iter().any(|s| e.file_name() == *s))
        });
    // The folders found by shape that the walk is inside of, innermost last.
    let mut inside: Vec<PathBuf> = Vec::new();
    while let Some(entry) = walker.next() {
        let Ok(entry) = entry else { continue };
        if !entry.file_type().is_dir() {
            continue;
        }
        *entered += 1;
        if *entered > bounds.max_dirs || started.elapsed() > bounds.max_time {
            out.cut_short = Some(format!(
                "the scan stopped after {} directories and {:.0?}; give a narrower root to see the rest",
                *entered - 1,
                started.elapsed()
            ));
            return;
        }
        let path = entry.path();
        progress(path);
        while inside.last().is_some_and(|set| !path.starts_with(set)) {
            inside.pop();
        }
        let name = entry.file_name().to_string_lossy();
        if name == MEMORY_DIR {
            add_dot_memory(path, seen, out);
            walker.skip_current_dir();
            continue;
        }
        if entry.depth() > 0 && is_agent_group(&name) {
            let made_by_claude = path
                .parent()
                .and_then(Path::file_name)
                .is_some_and(|p| p == ".claude");
            out.add_group(seen, path, made_by_claude);
            walker.skip_current_dir();
            continue;
        }
        if name == ".claude" {
            for settings in ["settings.local.json", "settings.json"] {
                if let Some(moved) = auto_memory_setting(&path.join(settings), &process_env) {
                    out.add(seen, Format::Claude, &moved, None);
                }
            }
        }
        let is_set = if inside.is_empty() {
            shape::looks_like_memory(path)
        } else {
            shape::has_index(path)
        };
        if is_set {
            out.add(seen, Format::Claude, path, None);
            inside.push(path.to_owned());
        }
    }
}

fn add_dot_memory(path: &Path, seen: &mut HashSet<PathBuf>, out: &mut Discovery) {
    match detect(path) {
        Detected::Format(Format::Memory) => out.add(seen, Format::Memory, path, None),
        // A `.memory` without a manifest is the contract with an empty set, unless it holds
        // topic files the way Claude Code writes them.
        Detected::Format(Format::Claude) => {
            let format = if shape::has_index(path) {
                Format::Claude
            } else {
                Format::Memory
            };
            out.add(seen, format, path, None);
        }
        Detected::Foreign { rule, .. } => out.skipped.push(Skipped {
            path: path.to_owned(),
            why: format!("manifest.json of another schema ({rule})"),
        }),
    }
}

/// Sums up one folder found through its backend; `None` when it cannot be opened any more.
pub fn summarize(found: &Found, options: &OpenOptions) -> Option<Summary> {
    let open = crate::formats::open(&found.path, Some(found.format), options).ok()?;
    Some(open.backend().summary())
}
