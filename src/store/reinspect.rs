//! Inspecting a `.memory` folder again after a change, reading only the record files that may
//! have changed since an earlier inspection.
//!
//! Record files are immutable by contract (a new version is a new file name), so after a commit
//! the manifest names what is new: the entries it lists that the earlier inspection did not
//! hold. A file edited in place, replaced or removed by hand is not named by the manifest; the
//! caller (the watcher, which sees every file event in `.memory`) says which file names were
//! touched, and those are read again too. A caller must know every event up to the reading:
//! the watcher waits for its barrier after reading, and reads again what came late
//! (`watch/barrier.rs`). Everything that is not a record file (the manifest,
//! MEMORY.md, the folder listing, the lock) is read again every time: it is one read each.

use std::collections::{BTreeSet, HashMap};

use super::Store;
use super::inspect::{EntryState, Inspection};

/// Which files may differ from an earlier reading: record files in `.memory`
/// ([`Store::reinspect`]), or topic files of a Claude Code folder
/// (`ClaudeFolder::reread`), by their path in the folder, `/`-separated. A folder's path stands
/// for everything under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Touched {
    /// Anything may have changed (the watch overflowed, `.memory` itself moved, nothing is
    /// known): every listed file is read.
    All,
    /// Only files (or folders) with these paths were created, written, renamed, removed or had
    /// their metadata changed since the earlier reading.
    Files(BTreeSet<String>),
}

impl Default for Touched {
    fn default() -> Self {
        Self::Files(BTreeSet::new())
    }
}

impl Touched {
    /// Adds the file (or folder) at `name` to what was touched.
    pub fn file(&mut self, name: &str) {
        if let Self::Files(files) = self {
            files.insert(name.to_owned());
        }
    }

    /// Anything may have changed from now on.
    pub fn all(&mut self) {
        *self = Self::All;
    }

    /// Whether the file at `name`, or a folder it is in, was touched.
    pub(crate) fn may_have_changed(&self, name: &str) -> bool {
        match self {
            Self::All => true,
            Self::Files(files) => {
                files.contains(name)
                    || name
                        .match_indices('/')
                        .any(|(end, _)| files.contains(&name[..end]))
            }
        }
    }
}

impl Store {
    /// The folder as [`Store::inspect`] reports it, given `previous` (an inspection of this same
    /// store) and every record file `touched` since it was taken: an entry that `previous`
    /// holds as a valid record, under the same file name, and that was not touched is taken
    /// from `previous` unread; every other listed file is read as `inspect` reads it.
    pub fn reinspect(&self, previous: &Inspection, touched: &Touched) -> Inspection {
        let usable = matches!(touched, Touched::Files(_))
            && previous.root == self.root
            && previous.root_error.is_none();
        if !usable {
            return self.inspect();
        }
        let known: HashMap<&str, &EntryState> = previous
            .entries
            .iter()
            .filter(|e| matches!(e.state, EntryState::Valid(_)))
            .map(|e| (e.file.as_str(), &e.state))
            .collect();
        self.inspect_reusing(&|file| {
            if touched.may_have_changed(file) {
                return None;
            }
            known.get(file).map(|state| (*state).clone())
        })
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::Touched;
    use crate::store::{MemoryType, Record, Store, StoreOptions};

    fn record(name: &str, body: &str) -> Record {
        Record::new(name, MemoryType::Project, "a fact", body).expect("valid record")
    }

    fn seeded() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path(), StoreOptions::default()).expect("open");
        store
            .extend(vec![record("one", "first"), record("two", "second")])
            .expect("extend");
        (dir, store)
    }

    #[test]
    fn a_folder_stands_for_everything_under_it() {
        let mut touched = Touched::default();
        touched.file("notes");
        assert!(touched.may_have_changed("notes"));
        assert!(touched.may_have_changed("notes/a.md"));
        assert!(touched.may_have_changed("notes/deeper/b.md"));
        assert!(!touched.may_have_changed("notes.md"));
        assert!(!touched.may_have_changed("other/notes/a.md"));
        touched.all();
        assert!(touched.may_have_changed("anything.md"));
    }

    #[test]
    fn a_commit_is_seen_without_naming_a_file() {
        let (_dir, store) = seeded();
        let before = store.inspect();
        let writer = Store::open(store.workspace(), StoreOptions::default()).expect("open");
        writer.extend(vec![record("three", "third")]).expect("add");
        let one = before.entries[0].record().expect("valid").clone();
        writer.remove(&[one]).expect("remove");
        let after = store.reinspect(&before, &Touched::default());
        assert_eq!(after, store.inspect());
        let names: Vec<&str> = after.valid_records().map(Record::name).collect();
        assert_eq!(names, ["two", "three"]);
    }

    #[test]
    fn an_untouched_entry_is_taken_from_the_earlier_inspection_and_a_touched_one_is_read() {
        let (_dir, store) = seeded();
        let before = store.inspect();
        let file = before.entries[0].file.clone();
        let path = store.root().join(&file);
        let text = fs::read_to_string(&path).expect("read");
        fs::write(&path, text.replace("first", "FIRST")).expect("edit in place");
        // Not named: the earlier reading stands (the watcher names every file it sees change).
        let stale = store.reinspect(&before, &Touched::default());
        assert_eq!(stale.entries[0], before.entries[0]);
        let mut touched = Touched::default();
        touched.file(&file);
        let fresh = store.reinspect(&before, &touched);
        assert_eq!(fresh.entries[0].record().expect("valid").body(), "FIRST");
        assert_eq!(fresh, store.inspect());
        assert_eq!(store.reinspect(&before, &Touched::All), store.inspect());
    }

    #[test]
    fn an_entry_that_did_not_read_is_read_again() {
        let (_dir, store) = seeded();
        let file = store.inspect().entries[1].file.clone();
        let path = store.root().join(&file);
        let text = fs::read_to_string(&path).expect("read");
        fs::write(&path, "not a record").expect("break");
        let broken = store.inspect();
        assert!(!broken.is_readable());
        fs::write(&path, text).expect("mend");
        let after = store.reinspect(&broken, &Touched::default());
        assert!(after.is_readable());
        assert_eq!(after, store.inspect());
    }

    #[test]
    fn an_inspection_of_another_folder_is_not_used() {
        let (_dir, store) = seeded();
        // A copy under the same file names, one of them edited in place.
        let other_dir = tempfile::tempdir().expect("temp dir");
        let other_root = other_dir.path().join(".memory");
        fs::create_dir(&other_root).expect("mkdir");
        for entry in fs::read_dir(store.root()).expect("list") {
            let entry = entry.expect("entry");
            if entry.file_type().expect("type").is_file() {
                fs::copy(entry.path(), other_root.join(entry.file_name())).expect("copy");
            }
        }
        let file = store.inspect().entries[0].file.clone();
        let text = fs::read_to_string(store.root().join(&file)).expect("read");
        fs::write(other_root.join(&file), text.replace("first", "OTHER")).expect("edit");
        let other = Store::open(other_dir.path(), StoreOptions::default()).expect("open");
        let theirs = other.inspect();
        assert_eq!(theirs.entries[0].record().expect("valid").body(), "OTHER");
        assert_eq!(
            store.reinspect(&theirs, &Touched::default()),
            store.inspect()
        );
    }
}
