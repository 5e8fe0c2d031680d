//! One folder summed up the same way whatever its format (`memwb sets`, the workbench's Sets
//! view): each backend fills a [`Summary`] from its own reading ([`super::Backend::summary`]).

use std::time::SystemTime;

use serde::Serialize;

use super::Format;
use crate::finding::{Finding, Severity};

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

/// The project a folder belongs to, when its path names one (a Claude Code
/// `<config>/projects/<slug>/memory`).
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
    /// `None` for a folder without an index file (said as "no MEMORY.md").
    pub index: Option<IndexUse>,
    /// RFC 3339, UTC.
    pub last_change: Option<String>,
}

impl Summary {
    /// A summary with the error and warning counts of `findings`, no project yet.
    pub(crate) fn counted(
        format: Format,
        path: String,
        records: usize,
        findings: &[Finding],
        index: Option<IndexUse>,
        last_change: Option<SystemTime>,
    ) -> Self {
        let count = |severity: Severity| findings.iter().filter(|f| f.severity == severity).count();
        Self {
            format,
            path,
            project: None,
            records,
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            index,
            last_change: last_change
                .map(|t| crate::time::rfc3339(t, crate::time::Precision::Seconds)),
        }
    }
}
