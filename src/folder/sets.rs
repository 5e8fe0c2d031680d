//! Finding every memory folder: those each format keeps under the agents' config folder, and
//! under the roots given every folder of any format, recognised by its shape rather than its
//! name. The walk, its bounds and what it never enters are here; which directory is whose
//! folder each registered format says (`formats::FORMATS`, `look` and `known`).

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::formats::FORMATS;
use crate::formats::discover::{Entered, Look, Sightings};
use crate::formats::{Format, OpenOptions, Summary};

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

impl Sightings for Seen<'_> {
    fn folder(&mut self, format: Format, path: &Path, slug: Option<String>) {
        let Ok(real) = fs::canonicalize(path) else {
            return;
        };
        if real.is_dir() && self.paths.insert(real.clone()) {
            self.out.found.push(Found {
                format,
                path: real,
                slug,
            });
        }
    }

    fn skipped(&mut self, path: &Path, why: String) {
        self.out.skipped.push(Skipped {
            path: path.to_owned(),
            why,
        });
    }
}

/// What a scan found so far, each folder once (by its resolved path).
struct Seen<'a> {
    out: &'a mut Discovery,
    paths: HashSet<PathBuf>,
}

/// [`discover_within`] with the default [`ScanBounds`].
pub fn discover(
    config: Option<&Path>,
    roots: &[PathBuf],
    progress: &mut dyn FnMut(&Path),
) -> Discovery {
    discover_within(config, roots, ScanBounds::default(), progress)
}

/// Every memory folder: first those each format keeps under the agents' config folder
/// `config` (where the environment says agents keep it; Claude Code's `projects/*/memory`, its
/// subagent folders, the folder its settings move memory to); then under each root (not
/// following links, skipping [`SKIPPED_DIRS`], within `bounds`) every directory a format
/// takes for one of its folders (docs/cli.md, `sets`). `progress` is called with each
/// directory entered under a root.
pub fn discover_within(
    config: Option<&Path>,
    roots: &[PathBuf],
    bounds: ScanBounds,
    progress: &mut dyn FnMut(&Path),
) -> Discovery {
    let mut out = Discovery::default();
    let mut seen = Seen {
        out: &mut out,
        paths: HashSet::new(),
    };
    if let Some(config) = config {
        for format in FORMATS {
            (format.known)(config, &mut seen);
        }
    }
    let started = Instant::now();
    let mut entered = 0usize;
    for root in roots {
        if seen.out.cut_short.is_some() {
            break;
        }
        scan_root(root, bounds, started, &mut entered, &mut seen, progress);
    }
    out
}

fn scan_root(
    root: &Path,
    bounds: ScanBounds,
    started: Instant,
    entered: &mut usize,
    seen: &mut Seen<'_>,
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
            seen.out.cut_short = Some(format!(
                "the scan stopped after {} directories and {:.0?}; give a narrower root to see the rest",
                *entered - 1,
                started.elapsed()
            ));
            return;
        }
        let path = entry.path();
        progress(path);
        while inside
            .last()
            .is_some_and(|folder| !path.starts_with(folder))
        {
            inside.pop();
        }
        let name = entry.file_name().to_string_lossy();
        let dir = Entered {
            path,
            name: &name,
            depth: entry.depth(),
            inside_folder: !inside.is_empty(),
        };
        for format in FORMATS {
            match (format.look)(dir, seen) {
                Look::Pass => continue,
                Look::Folder => inside.push(path.to_owned()),
                Look::Done => walker.skip_current_dir(),
            }
            break;
        }
    }
}

/// Sums up one folder found through its backend; `None` when it cannot be opened any more.
pub fn summarize(found: &Found, options: &OpenOptions) -> Option<Summary> {
    let open = crate::formats::open(&found.path, Some(found.format), options).ok()?;
    Some(open.backend().summary())
}
