//! The workbench's reading of the open folder ([`Shown`]): one value, whatever the format,
//! that its list, memory and index panes draw and its flows ask about a memory. What differs
//! by format is answered here, beside the backends, so that the workbench holds one reading
//! and asks it, never which format it is.

use std::path::Path;
use std::sync::Arc;

use super::Open;
use super::claude::ClaudeView;
use crate::claude::{ClaudeFolder, Snapshot};
use crate::memory::Memory;
use crate::store::inspect::{Inspection, ManifestEntry};
use crate::store::{MemorySet, Record};

/// A folder as the workbench shows it: the `.memory` set as inspected (its manifest's entries
/// with their states, the strays, the lock and the index budget), or a Claude Code folder's
/// topic files with their health. A new format adds its variant here and answers each method.
#[derive(Debug, Clone)]
pub enum Shown {
    Memory(Arc<Inspection>),
    Claude(Arc<ClaudeView>),
}

impl From<Arc<Inspection>> for Shown {
    fn from(inspection: Arc<Inspection>) -> Self {
        Self::Memory(inspection)
    }
}

impl Open {
    /// The folder as its watcher read it (`seen`), as the workbench shows it.
    #[cfg(feature = "watch")]
    pub fn shown_seen(&self, seen: super::Seen) -> Shown {
        match (self, seen) {
            (_, super::Seen::Memory(inspection)) => Shown::Memory(inspection),
            (Self::Claude(folder), super::Seen::Claude(snapshot)) => {
                Shown::of_topics(folder, snapshot)
            }
            (Self::Memory(_), super::Seen::Claude(snapshot)) => Shown::Claude(Arc::new(
                ClaudeView::new(snapshot, crate::claude::LoadLimits::default()),
            )),
        }
    }
}

impl Shown {
    /// `snapshot` of the Claude Code folder `folder`, measured against its load limits.
    pub fn of_topics(folder: &ClaudeFolder, snapshot: Arc<Snapshot>) -> Self {
        Self::Claude(Arc::new(ClaudeView::new(snapshot, folder.limits())))
    }

    /// Whether each memory is a file the workbench reads and writes whole, as text, when it
    /// edits or deletes it (a topic file), rather than a record the reading holds parsed,
    /// which the record editor opens as it is (`.memory`).
    pub fn memories_are_files(&self) -> bool {
        match self {
            Self::Memory(_) => false,
            Self::Claude(_) => true,
        }
    }

    /// The record row `i` holds, where the reading holds its memories as the record editor's
    /// records (`None`: it does not read, or the format's memories are files read whole).
    pub fn record_at(&self, i: usize) -> Option<&Record> {
        match self {
            Self::Memory(inspection) => inspection.entries.get(i)?.record(),
            Self::Claude(_) => None,
        }
    }

    /// The record named `name` as read, where the reading holds its memories as the record
    /// editor's records (`None`: none by that name reads, or the format's memories are files
    /// read whole).
    pub fn record_named(&self, name: &str) -> Option<&Record> {
        match self {
            Self::Memory(inspection) => inspection.valid_records().find(|r| r.name() == name),
            Self::Claude(_) => None,
        }
    }

    /// The memory folder the reading is of.
    pub fn root(&self) -> &Path {
        match self {
            Self::Memory(inspection) => &inspection.root,
            Self::Claude(view) => &view.snapshot.root,
        }
    }

    /// The folder a person works in: the workspace holding `.memory`, or the memory folder
    /// itself where the format has no workspace of its own.
    pub fn workspace(&self) -> &Path {
        match self {
            Self::Memory(inspection) => &inspection.workspace,
            Self::Claude(view) => &view.snapshot.root,
        }
    }

    /// Whether an agent can read the set: a `.memory` manifest that parses, whose every
    /// entry reads (a topic file that does not read is passed by, not a broken set).
    pub fn is_readable(&self) -> bool {
        match self {
            Self::Memory(inspection) => inspection.is_readable(),
            Self::Claude(_) => true,
        }
    }

    /// The records a `.memory` proposal is checked against (a Claude Code folder's proposals
    /// are checked against its files when they load: none here).
    pub fn valid_set(&self) -> MemorySet {
        match self {
            Self::Memory(inspection) => inspection.valid_set(),
            Self::Claude(_) => MemorySet::default(),
        }
    }

    /// Whether the memories an agent would choose among differ from `other`'s (a query's
    /// answer is then out of date).
    pub fn memories_differ(&self, other: &Shown) -> bool {
        match (self, other) {
            (Self::Memory(a), Self::Memory(b)) => {
                a.is_readable() != b.is_readable() || !a.valid_records().eq(b.valid_records())
            }
            (Self::Claude(a), Self::Claude(b)) => a.snapshot.topics != b.snapshot.topics,
            _ => true,
        }
    }

    /// What a query chooses among (the memories that read) and the catalog an agent is given
    /// (`None`: the set does not read, so an agent selects nothing).
    pub fn corpus(&self) -> (Vec<Memory>, Option<String>) {
        match self {
            Self::Memory(inspection) => (
                inspection.valid_set().memories(),
                inspection.index.derived.clone(),
            ),
            Self::Claude(view) => (view.candidates(), Some(view.catalog())),
        }
    }

    /// What the index pane shows, and the index's gauges.
    pub fn index_view(&self) -> super::IndexView {
        match self {
            Self::Memory(inspection) => super::memory::view::index_view(inspection),
            Self::Claude(view) => view.index_view(),
        }
    }

    /// What the list pane shows around its rows.
    pub fn list_view(&self) -> super::ListView {
        match self {
            Self::Memory(inspection) => super::memory::view::list_view(inspection),
            Self::Claude(view) => view.list_view(),
        }
    }

    /// Row `i` of the list as the list pane draws it.
    pub fn row_at(&self, i: usize) -> Option<super::ListRow<'_>> {
        match self {
            Self::Memory(inspection) => super::memory::view::row_at(inspection, i),
            Self::Claude(view) => view.row_at(i),
        }
    }

    /// Row `i`'s memory as the memory pane draws it.
    pub fn memory_view(&self, i: usize) -> Option<super::MemoryView> {
        match self {
            Self::Memory(inspection) => super::memory::view::memory_view(inspection, i),
            Self::Claude(view) => view.memory_view(i),
        }
    }

    /// The worst of the format's own findings about row `i`'s memory (`None`: none, or the
    /// format's problems with a memory are its row's state).
    pub fn health_at(&self, i: usize) -> Option<crate::finding::Severity> {
        match self {
            Self::Memory(_) => None,
            Self::Claude(view) => view.order.get(i).and_then(|file| view.health(file)),
        }
    }

    /// How many rows the list has (the strays below a `.memory` list not counted).
    pub fn len(&self) -> usize {
        match self {
            Self::Memory(inspection) => inspection.entries.len(),
            Self::Claude(view) => view.order.len(),
        }
    }

    /// Whether the list has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What identifies row `i` across readings: a memory's name (a `.memory` entry that does
    /// not read: its file), a topic file's file.
    pub fn key_at(&self, i: usize) -> Option<&str> {
        match self {
            Self::Memory(inspection) => inspection.entries.get(i).map(entry_key),
            Self::Claude(view) => view.order.get(i).map(String::as_str),
        }
    }

    /// The name row `i` shows (a file that does not read: its file) and its file.
    pub fn name_and_file_at(&self, i: usize) -> Option<(&str, &str)> {
        match self {
            Self::Memory(inspection) => {
                let entry = inspection.entries.get(i)?;
                Some((entry_key(entry), &entry.file))
            }
            Self::Claude(view) => {
                let file = view.order.get(i)?;
                let name = view.topic(file).map_or(file.as_str(), |t| t.name());
                Some((name, file))
            }
        }
    }

    /// What a list filter looks through for row `i`: name, type, description, file and body
    /// (a file that does not read: its file).
    pub fn haystack_at(&self, i: usize) -> String {
        match self {
            Self::Memory(inspection) => match inspection.entries.get(i) {
                Some(entry) => match entry.record() {
                    Some(r) => format!(
                        "{} {} {} {} {}",
                        r.name(),
                        r.kind(),
                        r.description(),
                        entry.file,
                        r.body()
                    ),
                    None => entry.file.clone(),
                },
                None => String::new(),
            },
            Self::Claude(view) => view
                .order
                .get(i)
                .map_or_else(String::new, |file| view.haystack(file)),
        }
    }

    /// The files in the folder a list shows below its rows, not in the set (`.memory`'s
    /// unlisted and temp files; a topic file is always a row).
    pub fn strays(&self) -> Vec<super::Stray> {
        match self {
            Self::Memory(inspection) => super::memory::view::strays(inspection),
            Self::Claude(_) => Vec::new(),
        }
    }

    /// What the bytes of one of [`Self::strays`] read as: a memory in words, or why they do
    /// not (text as read: untrusted).
    pub fn stray_reading(&self, bytes: &[u8]) -> Result<String, String> {
        match self {
            Self::Memory(_) => super::memory::view::stray_reading(bytes),
            Self::Claude(_) => Err("this folder keeps no files outside its list".to_owned()),
        }
    }

    /// Whether the set's own list of its memories does not parse (`.memory`'s
    /// `manifest.json`): nothing can be written to the set until it is mended.
    pub fn list_unreadable(&self) -> bool {
        match self {
            Self::Memory(inspection) => {
                matches!(
                    inspection.manifest,
                    crate::store::inspect::ManifestState::Invalid(_)
                )
            }
            Self::Claude(_) => false,
        }
    }

    /// Whether the index an agent is given cannot be derived now (a `.memory` set whose
    /// entries do not all read; a topic file that does not read is passed by).
    pub fn index_underivable(&self) -> bool {
        match self {
            Self::Memory(inspection) => inspection.index.derived.is_none(),
            Self::Claude(_) => false,
        }
    }

    /// The text row `i`'s file held when it was read but does not read as a memory (what a
    /// repair starts from and a drop compares against; `None`: it reads, or nothing was read).
    pub fn raw_at(&self, i: usize) -> Option<&str> {
        match self {
            Self::Memory(inspection) => match &inspection.entries.get(i)?.state {
                crate::store::inspect::EntryState::Invalid { raw, .. } => Some(raw),
                _ => None,
            },
            Self::Claude(_) => None,
        }
    }

    /// The list's key of the memory named `name` (`None`: the folder holds none by that name).
    pub fn key_of(&self, name: &str) -> Option<String> {
        match self {
            Self::Memory(_) => Some(name.to_owned()),
            Self::Claude(view) => view.file_named(name),
        }
    }

    /// Whether `file` is one of the list's rows (the Findings view's marks are kept for those).
    pub fn holds_file(&self, file: &str) -> bool {
        match self {
            Self::Memory(inspection) => inspection.entries.iter().any(|e| e.file == file),
            Self::Claude(view) => view.topic(file).is_some(),
        }
    }

    /// Whether the file `file`, opened for an edit as `opened`, still holds the same memory
    /// (`None`: it went). Only a format whose memories are whole files answers; a `.memory`
    /// record's editor compares records.
    pub fn opened_unchanged(&self, file: &str, opened: &str) -> Option<bool> {
        match self {
            Self::Memory(_) => Some(true),
            Self::Claude(view) => {
                let topic = view.snapshot.topic(file)?;
                Some(topic.parsed() == Some(&crate::claude::frontmatter::parse(opened)))
            }
        }
    }

    /// Whether the folder is in the same state as `other` shows it (a job's result and the
    /// watcher's report of that same change).
    pub fn same_state(&self, other: &Shown) -> bool {
        match (self, other) {
            (Self::Memory(a), Self::Memory(b)) => a.diff(b).is_empty(),
            (Self::Claude(a), Self::Claude(b)) => *a.snapshot == *b.snapshot,
            _ => false,
        }
    }

    /// Where a finding about the memory `name` or the file `file` (with `code`, at `line`)
    /// takes the list: the row's key and the words for the line in the status; or why there
    /// is nothing to jump to.
    pub fn finding_target(
        &self,
        code: &str,
        name: Option<&str>,
        file: Option<&str>,
        line: Option<usize>,
    ) -> Result<(String, String), String> {
        match self {
            Self::Memory(inspection) => {
                let entries = &inspection.entries;
                let entry = name
                    .and_then(|name| {
                        entries
                            .iter()
                            .find(|e| e.record().is_some_and(|r| r.name() == name))
                    })
                    .or_else(|| entries.iter().find(|e| Some(e.file.as_str()) == file));
                let Some(entry) = entry else {
                    return Err(format!(
                        "{code} is about {}, not a record of the manifest: nothing to jump to",
                        crate::sanitize::line(file.unwrap_or("the set"))
                    ));
                };
                let at = line.map(|l| format!(", line {l}")).unwrap_or_default();
                Ok((entry_key(entry).to_owned(), at))
            }
            Self::Claude(view) => {
                let Some(file) = file.filter(|f| view.topic(f).is_some()) else {
                    return Err(format!(
                        "{code} is about the folder, not a topic file: nothing to jump to"
                    ));
                };
                let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
                Ok((file.to_owned(), at))
            }
        }
    }
}

/// What identifies a `.memory` entry across reloads: the record name, or the file of an
/// invalid entry.
pub fn entry_key(entry: &ManifestEntry) -> &str {
    entry.record().map(|r| r.name()).unwrap_or(&entry.file)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::Shown;
    use crate::claude::{ClaudeFolder, LoadLimits};
    use crate::store::{MemoryType, Record, Store, StoreOptions};

    #[test]
    fn a_record_is_found_by_row_and_name_where_the_reading_holds_records() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
        let records = ["one", "two"].map(|name| {
            Record::new(name, MemoryType::User, "a fact", "body").expect("valid record")
        });
        store.extend(records.to_vec()).expect("extend");
        let memory = Shown::from(Arc::new(store.inspect()));
        assert!(!memory.memories_are_files());
        assert_eq!(memory.record_at(1), Some(&records[1]));
        assert_eq!(memory.record_at(2), None);
        assert_eq!(memory.record_named("one"), Some(&records[0]));
        assert_eq!(memory.record_named("three"), None);

        let dir = tempfile::tempdir().expect("temp dir");
        let topic = "---\nname: one\ndescription: a fact\ntype: user\n---\nbody\n";
        std::fs::write(dir.path().join("user_one.md"), topic).expect("write topic");
        let folder = ClaudeFolder::open(dir.path(), LoadLimits::default()).expect("open");
        let topics = Shown::of_topics(&folder, Arc::new(folder.read()));
        assert!(topics.memories_are_files());
        assert_eq!(topics.len(), 1);
        assert_eq!(topics.record_at(0), None);
        assert_eq!(topics.record_named("one"), None);
    }
}
