//! What a reader (the workbench) needs from a Claude Code reading: topic files in index
//! order with their health and findings, the candidates a query chooses among and the catalog
//! it is given.

use std::sync::Arc;

use crate::claude::{LoadLimits, Snapshot, Topic, audit};
use crate::finding::{Finding, Severity};
use crate::memory::Memory;

/// A reading of a Claude Code folder as the workbench shows it.
#[derive(Debug, Clone)]
pub struct ClaudeView {
    pub snapshot: Arc<Snapshot>,
    pub findings: Vec<Finding>,
    /// Topic files, index order first, then the unlisted ones: what the list shows.
    pub order: Vec<String>,
    /// The load limits the index is measured against.
    pub limits: LoadLimits,
    /// Every topic file as the read model, in `order`.
    pub memories: Vec<Memory>,
}

impl ClaudeView {
    pub fn new(snapshot: Arc<Snapshot>, limits: LoadLimits) -> Self {
        let findings = audit(&snapshot);
        let memories = snapshot.memories();
        let order = memories.iter().map(|m| m.file.clone()).collect();
        Self {
            snapshot,
            findings,
            order,
            limits,
            memories,
        }
    }

    pub fn topic(&self, file: &str) -> Option<&Topic> {
        self.snapshot.topic(file)
    }

    /// The findings about one file.
    pub fn findings_for<'a>(&'a self, file: &'a str) -> impl Iterator<Item = &'a Finding> {
        self.findings
            .iter()
            .filter(move |f| f.file.as_deref() == Some(file))
    }

    /// Whether the file's only index entries are past the cut: Claude Code does not load it.
    pub fn past_cut(&self, file: &str) -> bool {
        self.findings
            .iter()
            .filter_map(|f| f.cut.as_ref())
            .any(|cut| cut.iter().any(|c| c == file))
    }

    /// The worst finding's severity for a file (info findings are not a health problem).
    pub fn health(&self, file: &str) -> Option<Severity> {
        let mut worst = None;
        for finding in self.findings_for(file) {
            match finding.severity {
                Severity::Error => return Some(Severity::Error),
                Severity::Warning => worst = Some(Severity::Warning),
                Severity::Info => {}
            }
        }
        worst
    }

    /// What a filter looks through: name, type, description, file and body.
    pub fn haystack(&self, file: &str) -> String {
        self.memories
            .iter()
            .find(|m| m.file == file)
            .map_or_else(|| file.to_owned(), Memory::haystack)
    }

    /// The topic files a query chooses among (those that read), in index order.
    pub fn candidates(&self) -> Vec<Memory> {
        Memory::readable(&self.memories)
    }

    /// The index as Claude Code loads it: the catalog an agent's selection is given.
    pub fn catalog(&self) -> String {
        self.snapshot
            .parsed_index()
            .map(|i| i.loaded_text())
            .unwrap_or_default()
    }

    /// The file of the topic named `name` (or whose file is `name`).
    pub fn file_named(&self, name: &str) -> Option<String> {
        self.snapshot.find(name).map(|t| t.file.clone())
    }
}
