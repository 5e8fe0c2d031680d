//! A Claude Code folder summed up: its own audit, its topic files, how much of Claude Code's
//! load limits MEMORY.md uses.

use super::ClaudeBackend;
use super::FORMAT;
use super::project::{project_of, slug_of_folder};
use crate::claude::{self, SizeUnit};
use crate::formats::{IndexUse, Summary};

impl ClaudeBackend<'_> {
    pub(super) fn summarize(&self) -> Summary {
        let snapshot = self.folder.read();
        let limits = self.folder.limits();
        // An unreadable MEMORY.md exists (its finding says why); only a missing one has no use.
        let (lines, size) = snapshot
            .parsed_index()
            .map_or((0, 0), |i| (i.counted_lines, i.counted_size));
        let has_index = !matches!(snapshot.index, claude::folder::IndexFile::Missing);
        let mut summary = Summary::counted(
            FORMAT,
            self.folder.root().display().to_string(),
            snapshot.topics.len(),
            &claude::audit(&snapshot),
            has_index.then_some(IndexUse {
                lines,
                max_lines: limits.lines,
                size,
                max_size: limits.size,
                unit: match limits.unit {
                    SizeUnit::Utf16 => "utf16",
                    SizeUnit::Bytes => "bytes",
                },
            }),
            snapshot.last_change(),
        );
        summary.project = slug_of_folder(self.folder.root()).map(project_of);
        summary
    }
}
