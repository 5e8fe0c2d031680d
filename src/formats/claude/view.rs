//! What a reader (the workbench) needs from a Claude Code reading: topic files in index
//! order with their health and findings, the candidates a query chooses among and the catalog
//! it is given; the workbench's questions about the folder ([`FolderView`]) answered from it.

use std::path::Path;
use std::sync::Arc;

use super::super::view::{
    Gauge, HeadLine, IndexLine, IndexMark, IndexView, ListRow, ListView, Look, MemoryText,
    MemoryView, RowState, Segment, StateLine, Tone,
};
use super::super::{FolderView, Shown};
use crate::claude::folder::IndexFile;
use crate::claude::frontmatter::{Frontmatter, display_value};
use crate::claude::index::{LineKind, Load};
use crate::claude::{ClaudeFolder, LoadLimits, Snapshot, Topic, audit};
use crate::finding::{Finding, Severity};
use crate::memory::Memory;
use crate::redact::{redact, redact_json};

/// The topic files a reading the workbench shows holds (`None`: a reading of another format):
/// what the tests look into.
pub fn shown_topics(shown: &Shown) -> Option<Arc<ClaudeView>> {
    shown.downcast()
}

/// The Claude Code backend's reading, as the workbench's one value: defined here, beside the
/// reading, so that `formats::Shown` names no format.
impl Shown {
    /// `snapshot` of the Claude Code folder `folder`, measured against its load limits.
    pub fn of_topics(folder: &ClaudeFolder, snapshot: Arc<Snapshot>) -> Self {
        Self::from(Arc::new(ClaudeView::new(snapshot, folder.limits())))
    }
}

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

/// The workbench's questions about a Claude Code folder, answered from its topic files: its
/// rows are the topic files (index order, then the unlisted ones), each a file the editors
/// read and write whole; every topic file is a row, and one that does not read is passed by.
impl FolderView for ClaudeView {
    fn root(&self) -> &Path {
        &self.snapshot.root
    }

    fn memories_differ(&self, other: &Shown) -> bool {
        other
            .downcast_ref::<Self>()
            .is_none_or(|other| self.snapshot.topics != other.snapshot.topics)
    }

    fn same_state(&self, other: &Shown) -> bool {
        other
            .downcast_ref::<Self>()
            .is_some_and(|other| *self.snapshot == *other.snapshot)
    }

    #[cfg(feature = "watch")]
    fn news_since(&self, before: &Shown) -> Option<String> {
        let before = before.downcast_ref::<Self>()?;
        (before.snapshot != self.snapshot).then(|| {
            let news = crate::claude_watch::diff(&before.snapshot, &self.snapshot);
            crate::review::summary::commit_summary(&news)
        })
    }

    fn corpus(&self) -> (Vec<Memory>, Option<String>) {
        (self.candidates(), Some(self.catalog()))
    }

    fn health_at(&self, i: usize) -> Option<Severity> {
        self.order.get(i).and_then(|file| self.health(file))
    }

    fn len(&self) -> usize {
        self.order.len()
    }

    fn key_at(&self, i: usize) -> Option<&str> {
        self.order.get(i).map(String::as_str)
    }

    fn name_and_file_at(&self, i: usize) -> Option<(&str, &str)> {
        let file = self.order.get(i)?;
        let name = self.topic(file).map_or(file.as_str(), |t| t.name());
        Some((name, file))
    }

    fn haystack_at(&self, i: usize) -> String {
        self.order
            .get(i)
            .map_or_else(String::new, |file| self.haystack(file))
    }

    fn key_of(&self, name: &str) -> Option<String> {
        self.file_named(name)
    }

    fn holds_file(&self, file: &str) -> bool {
        self.topic(file).is_some()
    }

    fn finding_target(
        &self,
        code: &str,
        _name: Option<&str>,
        file: Option<&str>,
        line: Option<usize>,
    ) -> Result<(String, String), String> {
        let Some(file) = file.filter(|f| self.topic(f).is_some()) else {
            return Err(format!(
                "{code} is about the folder, not a topic file: nothing to jump to"
            ));
        };
        let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
        Ok((file.to_owned(), at))
    }

    fn memories_are_files(&self) -> bool {
        true
    }

    fn opened_unchanged(&self, file: &str, opened: &str) -> Option<bool> {
        let topic = self.snapshot.topic(file)?;
        Some(topic.parsed() == Some(&crate::claude::frontmatter::parse(opened)))
    }

    /// The list pane's row `i`: a topic file with its health, and whether Claude Code loads it.
    fn row_at(&self, i: usize) -> Option<ListRow<'_>> {
        let memory = self.memories.get(i)?;
        let file = &memory.file;
        let mut notes = Vec::new();
        if !self.snapshot.is_listed(file) {
            notes.push("unlisted");
        }
        if memory.name_from_file {
            notes.push("no name: file name shown");
        }
        let (state, about) = match &memory.unreadable {
            Some(why) => (RowState::Unreadable, why.clone()),
            None => (
                RowState::Reads {
                    health: self.health(file),
                    past_cut: self.past_cut(file),
                },
                memory.description.clone().unwrap_or_else(|| file.clone()),
            ),
        };
        Some(ListRow {
            name: &memory.name,
            kind: memory.kind.as_deref(),
            about,
            state,
            notes,
        })
    }

    /// What the list pane shows around the topic files: whether a consolidation runs.
    fn list_view(&self) -> ListView {
        let state = self.snapshot.consolidation.as_ref().map(|lock| {
            let (words, tone) = if lock.live {
                (
                    format!("consolidation running (process {})", lock.pid),
                    Tone::Warning,
                )
            } else {
                ("no consolidation running".to_owned(), Tone::Dim)
            };
            StateLine {
                label: None,
                words,
                tone,
            }
        });
        ListView {
            problems: Vec::new(),
            empty: "(no topic files)",
            strays_heading: "not in the set:",
            state,
            marks_beside: false,
        }
    }

    /// The memory pane's view of row `i`: the topic file's every frontmatter field (a nested
    /// block indented below its key), its findings, whether Claude Code loads it, its body.
    fn memory_view(&self, i: usize) -> Option<MemoryView> {
        let file = self.order.get(i)?;
        let topic = self.topic(file)?;
        let mut head = vec![HeadLine::field("file", &topic.file)];
        match topic.frontmatter() {
            None => head.push(HeadLine::toned("unreadable", "", Look::Tone(Tone::Error))),
            Some(Frontmatter::Missing) => head.push(HeadLine::toned(
                "frontmatter",
                "none",
                Look::Tone(Tone::Warning),
            )),
            Some(Frontmatter::Invalid { line, message }) => head.push(HeadLine::toned(
                "frontmatter",
                &format!("invalid YAML at line {line}: {message}"),
                Look::Tone(Tone::Error),
            )),
            Some(Frontmatter::Fields(fields)) => {
                for (key, value) in fields {
                    // credentials redacted, nested fields included
                    let mut value = value.clone();
                    redact_json(&mut value);
                    push_field(&mut head, &redact(key), 0, &value);
                }
            }
        }
        let mut after = Vec::new();
        if self.past_cut(file) {
            // what the row's `✂` says, in words
            after.push((
                "✂ not loaded: its MEMORY.md entry is past the load cut".to_owned(),
                Tone::Warning,
            ));
        }
        Some(MemoryView {
            name: topic.name().to_owned(),
            file: topic.file.clone(),
            notes: if topic.name_from_file() {
                vec!["no name: file name shown"]
            } else {
                Vec::new()
            },
            head,
            findings: self.findings_for(file).cloned().collect(),
            reason: None,
            after,
            text: Some(MemoryText {
                text: redact(topic.body()).into_owned(),
                first_line: self.memories.get(i).map_or(1, |memory| memory.body_line),
                numbered: None,
            }),
            description_at: None,
        })
    }

    /// The index pane: MEMORY.md as Claude Code has it, a cut line where loading stops,
    /// dangling entries, content lines and the lines that do not load marked, then each topic
    /// file no entry links to; and the index's use of its load limits.
    fn index_view(&self) -> IndexView {
        let snapshot = &self.snapshot;
        let line = |mark, text: String| IndexLine { mark, text };
        let (heading, tone, mut lines) = match &snapshot.index {
            IndexFile::Missing => (
                "missing: Claude Code loads no index".to_owned(),
                Tone::Error,
                Vec::new(),
            ),
            IndexFile::Unreadable(why) => (
                "unreadable".to_owned(),
                Tone::Error,
                vec![line(IndexMark::Dangling, why.clone())],
            ),
            IndexFile::Read(index) => {
                let mut lines = Vec::new();
                let cut_at = index.cut_at();
                for (i, read) in index.lines.iter().enumerate() {
                    if Some(i) == cut_at {
                        lines.push(line(
                            IndexMark::Cut,
                            format!(
                                "── not loaded past here: {} entries ──",
                                index.dropped_entries().count()
                            ),
                        ));
                    }
                    let mark = match (&read.kind, read.load) {
                        (_, Load::Stripped) => IndexMark::NotLoaded,
                        (LineKind::Entry { file, .. }, _)
                            if file.as_deref().and_then(|f| snapshot.topic(f)).is_none() =>
                        {
                            IndexMark::Dangling
                        }
                        (LineKind::Text, _) => IndexMark::Content,
                        (_, Load::Dropped) => IndexMark::NotLoaded,
                        _ => IndexMark::Same,
                    };
                    lines.push(line(mark, read.text.clone()));
                }
                let loaded = index
                    .lines
                    .iter()
                    .filter(|l| l.load == Load::Loaded)
                    .count();
                let (heading, tone) = if index.cut_by.is_some() {
                    (format!("CUT, {loaded} lines loaded"), Tone::Error)
                } else {
                    (format!("all {loaded} lines load"), Tone::Ok)
                };
                (heading, tone, lines)
            }
        };
        for file in &self.order {
            if !snapshot.is_listed(file) {
                lines.push(line(IndexMark::Unlisted, format!("unlisted: {file}")));
            }
        }
        let (used_lines, used_size) = snapshot
            .parsed_index()
            .map_or((0, 0), |i| (i.counted_lines, i.counted_size));
        IndexView {
            heading,
            tone,
            rebuildable: false,
            lines,
            gauges: vec![
                Gauge {
                    label: "index lines".to_owned(),
                    used: used_lines,
                    max: self.limits.lines,
                },
                Gauge {
                    label: format!("index {}", self.limits.unit.label()),
                    used: used_size,
                    max: self.limits.size,
                },
            ],
        }
    }
}

/// One frontmatter field; a nested block (`metadata:`) a line of its own, its fields below
/// it, indented.
fn push_field(head: &mut Vec<HeadLine>, key: &str, depth: usize, value: &serde_json::Value) {
    let value = match value {
        serde_json::Value::Object(map) => {
            head.push(HeadLine::Field {
                label: key.to_owned(),
                depth,
                value: Vec::new(),
            });
            for (inner, value) in map {
                push_field(head, inner, depth + 1, value);
            }
            return;
        }
        other => display_value(other),
    };
    head.push(HeadLine::Field {
        label: key.to_owned(),
        depth,
        value: vec![Segment {
            text: value,
            look: Look::Plain,
        }],
    });
}
