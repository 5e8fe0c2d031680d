//! The workbench's reading of the open folder ([`Shown`]): one value, whatever the format,
//! that its list, memory and index panes draw and its flows ask about a memory. Each format
//! answers the questions ([`FolderView`]) over its own reading, in its backend's `view.rs`, so
//! that the workbench holds one reading and asks it, never which format it is, and a new
//! format registers its reading by implementing the trait, adding nothing here.

use std::any::Any;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
#[cfg(feature = "tui")]
use std::sync::OnceLock;

use super::{IndexView, ListRow, ListView, MemoryView, Stray};
use crate::finding::Severity;
use crate::memory::Memory;
use crate::review::{Proposal, State};

/// A folder as the workbench shows it: a format's own reading (the `.memory` set as
/// inspected, a Claude Code folder's topic files with their health) behind the questions the
/// workbench asks of it ([`FolderView`], which `Shown` dereferences to). Cheap to clone: the
/// reading is shared, and so is what a query chooses among, made from it at most once.
#[derive(Debug, Clone)]
pub struct Shown {
    reading: Arc<dyn FolderView>,
    /// [`FolderView::corpus`], made the first time a pane or a flow asks for it: the
    /// proposals, the eval cases and the query all choose among the same memories of one
    /// reading, and making them costs a copy of every memory.
    #[cfg(feature = "tui")]
    corpus: Arc<OnceLock<(Vec<Memory>, Option<String>)>>,
}

/// What the workbench asks of a format's reading of its folder, answered by each backend in
/// `src/formats/<name>/view.rs` over the reading it makes (`Backend::shown`, its watcher's
/// news). A method with a default is one a format answers only when it has the thing (files
/// outside its list, memories that do not read, records the record editor opens).
pub trait FolderView: std::fmt::Debug + Send + Sync + Any {
    /// The memory folder the reading is of.
    fn root(&self) -> &Path;

    /// The folder a person works in: the workspace holding the memory folder, or the memory
    /// folder itself where the format has no workspace of its own.
    fn workspace(&self) -> &Path {
        self.root()
    }

    /// Whether an agent can read the set (a `.memory` manifest that parses, whose every entry
    /// reads; by default it can: a file that does not read is passed by, not a broken set).
    fn is_readable(&self) -> bool {
        true
    }

    /// The state of each of `proposals` the reading tells, by id: on `.memory`, each checked
    /// against the set as read, so a change to the set restales a proposal with no reload of
    /// the proposals. By default none: a format whose proposals are checked against its files
    /// when they load (`Backend::filed` answers their states).
    fn proposal_states(&self, _proposals: &[Proposal]) -> HashMap<String, State> {
        HashMap::new()
    }

    /// Whether the memories an agent would choose among differ from `other`'s (a query's
    /// answer is then out of date); a reading of another format always differs.
    fn memories_differ(&self, other: &Shown) -> bool;

    /// Whether the folder is in the same state as `other` shows it (a job's result and the
    /// watcher's report of that same change); a reading of another format never is.
    fn same_state(&self, other: &Shown) -> bool;

    /// What differs from `before` in the memories, in the words a change is summed up in
    /// ("added a; changed b"): `None` when they hold the same memories (a change already
    /// shown, the workbench's own), or `before` is a reading of another format.
    #[cfg(feature = "watch")]
    fn news_since(&self, before: &Shown) -> Option<String>;

    /// What a query chooses among (the memories that read) and the catalog an agent is given
    /// (`None`: the set does not read, so an agent selects nothing).
    fn corpus(&self) -> (Vec<Memory>, Option<String>);

    /// What the index pane shows, and the index's gauges.
    fn index_view(&self) -> IndexView;

    /// What the list pane shows around its rows.
    fn list_view(&self) -> ListView;

    /// Row `i` of the list as the list pane draws it.
    fn row_at(&self, i: usize) -> Option<ListRow<'_>>;

    /// Row `i`'s memory as the memory pane draws it.
    fn memory_view(&self, i: usize) -> Option<MemoryView>;

    /// The worst of the format's own findings about row `i`'s memory (`None`: none, or the
    /// format's problems with a memory are its row's state).
    fn health_at(&self, _i: usize) -> Option<Severity> {
        None
    }

    /// How many rows the list has (the strays below it not counted).
    fn len(&self) -> usize;

    /// Whether the list has no rows.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What identifies row `i` across readings (a memory's name, a file's path).
    fn key_at(&self, i: usize) -> Option<&str>;

    /// The name row `i` shows (a file that does not read: its file) and its file.
    fn name_and_file_at(&self, i: usize) -> Option<(&str, &str)>;

    /// What a list filter looks through for row `i`: name, type, description, file and body
    /// (a file that does not read: its file).
    fn haystack_at(&self, i: usize) -> String;

    /// The list's key of the memory named `name` (`None`: the folder holds none by that name).
    fn key_of(&self, name: &str) -> Option<String>;

    /// Whether `file` is one of the list's rows (the Findings view's marks are kept for those).
    fn holds_file(&self, file: &str) -> bool;

    /// Where a finding about the memory `name` or the file `file` (with `code`, at `line`)
    /// takes the list: the row's key and the words for the line in the status; or why there
    /// is nothing to jump to.
    fn finding_target(
        &self,
        code: &str,
        name: Option<&str>,
        file: Option<&str>,
        line: Option<usize>,
    ) -> Result<(String, String), String>;

    /// The files in the folder a list shows below its rows, not in the set (by default none:
    /// every file of the format's is a row).
    fn strays(&self) -> Vec<Stray> {
        Vec::new()
    }

    /// What the bytes of one of [`Self::strays`] read as: a memory in words, or why they do
    /// not (text as read: untrusted).
    fn stray_reading(&self, _bytes: &[u8]) -> Result<String, String> {
        Err("this folder keeps no files outside its list".to_owned())
    }

    /// Why the folder does not read as a set, each error with its file (`None`: it does; by
    /// default it always does: a file that does not read is listed with why).
    #[cfg(feature = "watch")]
    fn unreadable_reason(&self) -> Option<String> {
        None
    }

    /// Whether the set's own list of its memories does not parse (`.memory`'s
    /// `manifest.json`): nothing can be written to the set until it is mended.
    fn list_unreadable(&self) -> bool {
        false
    }

    /// Whether the index an agent is given cannot be derived now (a `.memory` set whose
    /// entries do not all read; by default it can: a file that does not read is passed by).
    fn index_underivable(&self) -> bool {
        false
    }

    /// The text row `i`'s file held when it was read but does not read as a memory (what a
    /// repair starts from and a drop compares against; `None`: it reads, or nothing was read).
    fn raw_at(&self, _i: usize) -> Option<&str> {
        None
    }

    /// Whether each memory is a file the workbench reads and writes whole, as text, when it
    /// edits or deletes it (a topic file), rather than a record the reading holds parsed,
    /// which the record editor opens as it is (`.memory`).
    fn memories_are_files(&self) -> bool;

    /// Whether the memory file `file`, opened for an edit as `opened`, still holds the same
    /// memory (`None`: it went); on `.memory`, the record of the opened one's name, as a
    /// change writes a record under a new file.
    fn opened_unchanged(&self, file: &str, opened: &str) -> Option<bool>;
}

impl<V: FolderView> From<Arc<V>> for Shown {
    fn from(view: Arc<V>) -> Self {
        Self {
            reading: view,
            #[cfg(feature = "tui")]
            corpus: Arc::default(),
        }
    }
}

impl std::ops::Deref for Shown {
    type Target = dyn FolderView;

    fn deref(&self) -> &Self::Target {
        &*self.reading
    }
}

impl Shown {
    /// The format's own reading, when it is a `V`: what a backend's own methods (and the
    /// tests, through the backend) start from.
    pub(crate) fn downcast<V: FolderView>(&self) -> Option<Arc<V>> {
        let any: Arc<dyn Any + Send + Sync> = self.reading.clone();
        any.downcast().ok()
    }

    /// The format's own reading, when it is a `V`, borrowed.
    pub(crate) fn downcast_ref<V: FolderView>(&self) -> Option<&V> {
        let any: &dyn Any = &*self.reading;
        any.downcast_ref()
    }

    /// The memories a query chooses among, as [`FolderView::corpus`] makes them, made once
    /// per reading and shared by every clone of it.
    #[cfg(feature = "tui")]
    pub(crate) fn memories(&self) -> &[Memory] {
        &self.shared_corpus().0
    }

    /// The catalog an agent is given, made with [`Self::memories`] (`None`: the set does
    /// not read, so an agent selects nothing).
    #[cfg(feature = "tui")]
    pub(crate) fn catalog(&self) -> Option<&str> {
        self.shared_corpus().1.as_deref()
    }

    #[cfg(feature = "tui")]
    fn shared_corpus(&self) -> &(Vec<Memory>, Option<String>) {
        self.corpus.get_or_init(|| self.reading.corpus())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::Shown;
    use crate::claude::{ClaudeFolder, LoadLimits};
    use crate::store::{MemoryType, Record, Store, StoreOptions};

    #[test]
    fn memories_are_files_and_an_opened_record_is_found_by_its_name() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
        let records = ["one", "two"].map(|name| {
            Record::new(name, MemoryType::User, "a fact", "body").expect("valid record")
        });
        store.extend(records.to_vec()).expect("extend");
        let memory = Shown::from(Arc::new(store.inspect()));
        assert!(!memory.memories_are_files());
        // A record's file is replaced on every change: what the editor opened is found by name.
        let opened = records[0].to_file_text();
        assert_eq!(memory.opened_unchanged("any.md", &opened), Some(true));
        let changed = Record::new("one", MemoryType::User, "a fact", "new body").expect("valid");
        assert_eq!(
            memory.opened_unchanged("any.md", &changed.to_file_text()),
            Some(false)
        );
        let gone = Record::new("three", MemoryType::User, "a fact", "body").expect("valid");
        assert_eq!(
            memory.opened_unchanged("any.md", &gone.to_file_text()),
            None
        );

        let dir = tempfile::tempdir().expect("temp dir");
        let topic = "---\nname: one\ndescription: a fact\ntype: user\n---\nbody\n";
        std::fs::write(dir.path().join("user_one.md"), topic).expect("write topic");
        let folder = ClaudeFolder::open(dir.path(), LoadLimits::default()).expect("open");
        let topics = Shown::of_topics(&folder, Arc::new(folder.read()));
        assert!(topics.memories_are_files());
        assert_eq!(topics.len(), 1);
    }

    #[cfg(feature = "watch")]
    #[test]
    fn news_names_what_another_reading_changed_on_either_format() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
        let before = Shown::from(Arc::new(store.inspect()));
        let record = Record::new("one", MemoryType::User, "d", "b").expect("valid");
        store.extend(vec![record]).expect("extend");
        let after = Shown::from(Arc::new(store.inspect()));
        assert_eq!(after.news_since(&before).as_deref(), Some("added one"));
        assert_eq!(after.news_since(&after), None);

        let dir = tempfile::tempdir().expect("temp dir");
        let folder = ClaudeFolder::open(dir.path(), LoadLimits::default()).expect("open");
        let before = Shown::of_topics(&folder, Arc::new(folder.read()));
        let topic = "---\nname: role\ndescription: d\ntype: user\n---\nbody\n";
        std::fs::write(dir.path().join("user_role.md"), topic).expect("write");
        let after = Shown::of_topics(&folder, Arc::new(folder.read()));
        let news = after.news_since(&before).expect("a topic came");
        assert!(news.contains("role"), "{news}");
        assert_eq!(after.news_since(&after), None);
        // Readings of different formats are no news of one folder, nor the same state.
        let memory = Shown::from(Arc::new(store.inspect()));
        assert_eq!(after.news_since(&memory), None);
        assert_eq!(memory.news_since(&after), None);
        assert!(!memory.same_state(&after) && !after.same_state(&memory));
        assert!(memory.memories_differ(&after) && after.memories_differ(&memory));
    }
}
