//! A `.memory` set summed up: its inspection's findings, valid records and index budget.

use super::FORMAT;
use super::MemoryBackend;
use crate::formats::{IndexUse, Summary};

impl MemoryBackend<'_> {
    pub(super) fn summarize(&self) -> Summary {
        let inspection = self.store.inspect();
        let budget = &inspection.budget;
        let modified = std::fs::symlink_metadata(self.store.manifest_path())
            .and_then(|m| m.modified())
            .ok();
        Summary::counted(
            FORMAT,
            self.store.root().display().to_string(),
            inspection.valid_records().count(),
            &inspection.findings(),
            Some(IndexUse {
                lines: budget.index_lines,
                max_lines: budget.max_index_lines,
                size: budget.index_bytes,
                max_size: budget.max_index_bytes,
                unit: "bytes",
            }),
            modified,
        )
    }
}
