//! The format-neutral view of a memory folder, shared by the CLI and the workbench.
//!
//! Two backends sit behind it: the `.memory` contract ([`crate::store`], read and written
//! through its transactions) and Claude Code's auto memory ([`crate::claude`], read-only for
//! now). This module says which one a folder is, finds every folder on a machine
//! ([`sets`]) and sums each up the same way; one open folder of either format is
//! [`crate::formats::Open`].

pub mod copy;
pub mod sets;

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Serialize;

use crate::claude::fsread::read_regular;
use crate::claude::{self, ClaudeFolder, LoadLimits};
use crate::finding::Severity;
use crate::store::{Store, StoreOptions, manifest};

/// Which on-disk convention a memory folder follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The `.memory` contract: manifest, derived index, lock.
    Memory,
    /// Claude Code's auto memory: topic files and an agent-written MEMORY.md.
    Claude,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Memory => "memory",
            Self::Claude => "claude",
        }
    }

    /// For titles and messages.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Memory => ".memory contract",
            Self::Claude => "Claude Code auto memory",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "memory" => Ok(Self::Memory),
            "claude" => Ok(Self::Claude),
            other => Err(format!("unknown format {other:?}: use memory or claude")),
        }
    }
}

/// What [`detect`] makes of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detected {
    Format(Format),
    /// A `manifest.json` of another tool's schema: neither format; nothing may be written.
    Foreign {
        manifest: PathBuf,
        rule: String,
    },
}

/// The `.memory` contract when `dir/manifest.json` parses as its manifest; Claude Code when
/// there is no `manifest.json`; otherwise [`Detected::Foreign`]. Reads one file, writes nothing.
pub fn detect(dir: &Path) -> Detected {
    let path = dir.join(manifest::MANIFEST_FILE);
    let foreign = |rule: String| Detected::Foreign {
        manifest: path.clone(),
        rule,
    };
    match read_regular(&path, claude::fsread::MAX_FILE_BYTES) {
        Ok(None) => Detected::Format(Format::Claude),
        Ok(Some(bytes)) => match manifest::parse_lenient(&bytes) {
            Ok(_) => Detected::Format(Format::Memory),
            Err(e) => foreign(e.to_string()),
        },
        Err(e) => foreign(e.to_string()),
    }
}

/// How much of its index budget a folder uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IndexUse {
    pub lines: usize,
    pub max_lines: usize,
    pub size: usize,
    pub max_size: usize,
    /// `bytes` for the contract; the configured unit for Claude Code.
    pub unit: &'static str,
}

/// The project a Claude Code folder belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Project {
    pub slug: String,
    /// The existing directory the slug matches, when one was found.
    pub path: Option<String>,
}

/// One row of `memwb sets`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub format: Format,
    pub path: String,
    pub project: Option<Project>,
    pub records: usize,
    pub errors: usize,
    pub warnings: usize,
    /// `None` for a Claude Code folder without MEMORY.md (said as "no MEMORY.md").
    pub index: Option<IndexUse>,
    /// RFC 3339, UTC.
    pub last_change: Option<String>,
}

fn count(severities: impl Iterator<Item = Severity>) -> (usize, usize) {
    severities.fold((0, 0), |(e, w), s| match s {
        Severity::Error => (e + 1, w),
        Severity::Warning => (e, w + 1),
        Severity::Info => (e, w),
    })
}

fn rfc3339(time: Option<SystemTime>) -> Option<String> {
    time.map(|t| crate::store::time::rfc3339(t, crate::store::time::Precision::Seconds))
}

/// Sums up the `.memory` folder of `store`.
pub fn summarize_store(store: &Store) -> Summary {
    let inspection = store.inspect();
    let findings = inspection.findings();
    let (errors, warnings) = count(findings.iter().map(|f| f.severity));
    let budget = inspection.budget;
    let modified = std::fs::symlink_metadata(store.manifest_path())
        .and_then(|m| m.modified())
        .ok();
    Summary {
        format: Format::Memory,
        path: store.root().display().to_string(),
        project: None,
        records: inspection.valid_records().count(),
        errors,
        warnings,
        index: Some(IndexUse {
            lines: budget.index_lines,
            max_lines: budget.max_index_lines,
            size: budget.index_bytes,
            max_size: budget.max_index_bytes,
            unit: "bytes",
        }),
        last_change: rfc3339(modified),
    }
}

/// Sums up a Claude Code folder.
pub fn summarize_claude(folder: &ClaudeFolder, project: Option<Project>) -> Summary {
    let snapshot = folder.read();
    let findings = claude::audit(&snapshot);
    let (errors, warnings) = count(findings.iter().map(|f| f.severity));
    let limits = folder.limits();
    // An unreadable MEMORY.md exists (its finding says why); only a missing one has no use.
    let (lines, size) = snapshot
        .parsed_index()
        .map_or((0, 0), |i| (i.counted_lines, i.counted_size));
    let has_index = !matches!(snapshot.index, claude::folder::IndexFile::Missing);
    Summary {
        format: Format::Claude,
        path: folder.root().display().to_string(),
        project,
        records: snapshot.topics.len(),
        errors,
        warnings,
        index: has_index.then_some(IndexUse {
            lines,
            max_lines: limits.lines,
            size,
            max_size: limits.size,
            unit: match limits.unit {
                claude::SizeUnit::Utf16 => "utf16",
                claude::SizeUnit::Bytes => "bytes",
            },
        }),
        last_change: rfc3339(snapshot.last_change()),
    }
}

/// Options both backends need to open a folder.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    pub store: StoreOptions,
    pub claude: LoadLimits,
}
