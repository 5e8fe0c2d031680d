//! The files in `.memory` that are not in the set: unlisted `.md` files (a hand copy, a record
//! a crash left unlisted, a repair's leftover) and `.<id>.tmp` files a writer left behind. One
//! can be read, adopted into the set (an unlisted record file, listed as it is through the
//! transaction), or deleted; all under the lock, and only if it is still what the caller saw.

use std::fs;

use super::error::{Result, StoreError};
use super::txn::Next;
use super::{Commit, Store, StoredRecord, codec, index, manifest};
use crate::fs::{create_exclusive, remove_replaced, sync_dir};

/// Which kind of file outside the set `file` is, by name (as `inspect` sorts them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrayKind {
    /// A `.md` file the manifest does not list.
    Unlisted,
    /// A `.<name>.tmp` file a writer left behind.
    Temp,
}

impl StrayKind {
    pub fn of(file: &str) -> Option<Self> {
        if file.contains('/') || file == "." || file == ".." {
            None
        } else if file.starts_with('.') && file.ends_with(".tmp") {
            Some(StrayKind::Temp)
        } else if file.ends_with(".md") && file != index::INDEX_FILE {
            Some(StrayKind::Unlisted)
        } else {
            None
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            StrayKind::Unlisted => "unlisted",
            StrayKind::Temp => "temp",
        }
    }
}

impl Store {
    /// The bytes of a file outside the set, read as a record file is (never through a link out
    /// of `.memory`, never blocking, capped at the record budget).
    pub(crate) fn stray_bytes(&self, file: &str) -> Result<Vec<u8>> {
        let refuse = |rule: &str| StoreError::StrayRefused {
            file: file.to_owned(),
            rule: rule.into(),
        };
        StrayKind::of(file).ok_or_else(|| refuse("not an unlisted or temp file"))?;
        let dir = self.open_root()?;
        let (bytes, _) = self.read_entry_file(dir.as_ref(), file)?;
        Ok(bytes)
    }

    /// Lists the unlisted record file `file` in the set as it is (its bytes stay byte for
    /// byte), through the transaction: it must still hold `seen`, read as a valid record whose
    /// name the set does not hold, and the set's rules (the index budget) must hold after.
    pub fn adopt(&self, file: &str, seen: &[u8]) -> Result<Commit> {
        let refuse = |rule: String| StoreError::StrayRefused {
            file: file.to_owned(),
            rule,
        };
        if StrayKind::of(file) != Some(StrayKind::Unlisted) {
            return Err(refuse("only an unlisted .md file can be adopted".into()));
        }
        if !manifest::is_safe_file_name(file) {
            return Err(refuse(
                "its name is not one the manifest can list (lower-case letters, digits and dashes); add its memory with memwb add instead".into(),
            ));
        }
        let lock = self.lock_for_write()?;
        self.recover_observer()?;
        let current = self.read()?;
        if current.entries.iter().any(|e| e.file == file) {
            return Err(refuse("it is already listed in the manifest".into()));
        }
        let bytes = self.stray_bytes(file)?;
        if bytes != seen {
            return Err(StoreError::Conflict {
                detail: format!("{file} changed since it was shown; look again before adopting it"),
            });
        }
        let record = codec::parse(&bytes)
            .map_err(|e| refuse(format!("it does not read as a memory: {e}")))?;
        if current.get(record.name()).is_some() {
            return Err(refuse(format!("a memory named {:?} exists", record.name())));
        }
        let mut next: Vec<Next> = current.entries.iter().cloned().map(Next::Keep).collect();
        next.push(Next::Adopt(StoredRecord {
            file: file.to_owned(),
            record,
        }));
        self.commit_next(&lock, &current, next)
    }

    /// Under the caller's lock: `file` is an unlisted or temp file, a regular file holding
    /// `seen`, and the manifest (which must parse: while it does not, every record file looks
    /// unlisted) does not list it.
    pub(crate) fn check_stray(&self, file: &str, seen: &[u8]) -> Result<()> {
        let refuse = |rule: &str| StoreError::StrayRefused {
            file: file.to_owned(),
            rule: rule.into(),
        };
        StrayKind::of(file).ok_or_else(|| refuse("not an unlisted or temp file"))?;
        if self.listed_files()?.iter().any(|f| f == file) {
            return Err(refuse(
                "it is listed in the manifest: delete the record instead",
            ));
        }
        let path = self.root.join(file);
        if !fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            return Err(refuse("not a regular file; remove it by hand"));
        }
        if self.stray_bytes(file)? != seen {
            return Err(StoreError::Conflict {
                detail: format!("{file} changed since it was shown; look again before deleting it"),
            });
        }
        Ok(())
    }

    /// The files the manifest lists; refused while it does not parse.
    fn listed_files(&self) -> Result<Vec<String>> {
        match self.read_manifest_bytes()? {
            Some(bytes) => {
                manifest::parse_lenient(&bytes).map_err(|e| StoreError::ManifestInvalid {
                    path: self.manifest_path(),
                    rule: e.to_string(),
                })
            }
            None => Ok(Vec::new()),
        }
    }

    /// Under the caller's lock, after [`Store::check_stray`]: deletes `file`. An error means
    /// it is still there.
    pub(crate) fn delete_stray_file(&self, file: &str) -> Result<()> {
        remove_replaced(&self.root.join(file), &self.options.hooks)?;
        self.sync_after_stray_change();
        Ok(())
    }

    /// Once a stray is deleted or written, the change is made: a failing directory sync is
    /// logged, not returned (the caller must not report a change that happened as refused).
    fn sync_after_stray_change(&self) {
        if let Err(e) = sync_dir(&self.root, &self.options.hooks) {
            tracing::error!(error = %e, "a stray file changed, but the directory sync after it failed");
        }
    }

    /// Under the caller's lock: writes `bytes` back as the stray `file` (an undone deletion),
    /// exclusively: refused if the name is taken or listed.
    pub(crate) fn put_back_stray(&self, file: &str, bytes: &[u8]) -> Result<()> {
        let refuse = |rule: &str| StoreError::StrayRefused {
            file: file.to_owned(),
            rule: rule.into(),
        };
        StrayKind::of(file).ok_or_else(|| refuse("not an unlisted or temp file"))?;
        if self.listed_files()?.iter().any(|f| f == file) {
            return Err(StoreError::Conflict {
                detail: format!("{file} is listed in the manifest now"),
            });
        }
        if fs::symlink_metadata(self.root.join(file)).is_ok() {
            return Err(StoreError::Conflict {
                detail: format!("{file} is in .memory again"),
            });
        }
        create_exclusive(&self.root.join(file), bytes, &self.options.hooks)?;
        self.sync_after_stray_change();
        Ok(())
    }

    /// Takes the record in `base.file` out of the set and leaves its file in `.memory` as it is,
    /// an unlisted file again (the undo of [`Store::adopt`]). `base` must still be listed as read.
    pub(crate) fn unlist(&self, base: &StoredRecord) -> Result<Commit> {
        let lock = self.lock_for_write()?;
        self.recover_observer()?;
        let current = self.read()?;
        let Some(at) = current.entries.iter().position(|e| e.file == base.file) else {
            return Err(StoreError::Conflict {
                detail: format!("{:?} was removed since it was read", base.record.name()),
            });
        };
        if current.entries[at].record != base.record {
            return Err(StoreError::Conflict {
                detail: format!("{:?} was changed since it was read", base.record.name()),
            });
        }
        let next: Vec<Next> = current
            .entries
            .iter()
            .filter(|e| e.file != base.file)
            .cloned()
            .map(Next::Keep)
            .collect();
        let kept = std::iter::once(base.file.clone()).collect();
        self.commit_next_keeping(&lock, &current, next, &kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{MemoryType, Record, StoreOptions};

    fn record(name: &str) -> Record {
        Record::new(name, MemoryType::User, format!("about {name}"), "Body.").expect("valid")
    }

    fn store(options: StoreOptions) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(dir.path(), options).expect("open");
        store.extend(vec![record("alpha")]).expect("seed");
        (dir, store)
    }

    /// How `formats::memory::journal::strays` deletes a stray (it journals the bytes first): under the lock,
    /// checked against what was shown.
    fn remove_stray(store: &Store, file: &str, seen: &[u8]) -> Result<()> {
        let _lock = store.lock_for_write()?;
        store.check_stray(file, seen)?;
        store.delete_stray_file(file)
    }

    /// Writes `bytes` as `file` in `.memory`, outside the set.
    fn stray(store: &Store, file: &str, bytes: &[u8]) -> Vec<u8> {
        fs::write(store.root().join(file), bytes).expect("write");
        bytes.to_vec()
    }

    fn state(store: &Store) -> (Vec<u8>, Vec<u8>) {
        (
            fs::read(store.manifest_path()).expect("manifest"),
            fs::read(store.index_path()).expect("index"),
        )
    }

    #[test]
    fn an_unlisted_record_file_is_adopted_as_it_is() {
        let (_dir, store) = store(StoreOptions::default());
        let text = codec::serialize(&record("old-draft"));
        let bytes = stray(&store, "old-draft-0badf00d.md", text.as_bytes());
        assert_eq!(
            store.stray_bytes("old-draft-0badf00d.md").expect("read"),
            bytes
        );
        let commit = store.adopt("old-draft-0badf00d.md", &bytes).expect("adopt");
        assert_eq!(commit.added, ["old-draft"]);
        let set = store.read().expect("read");
        let adopted = set.get("old-draft").expect("in the set");
        assert_eq!(adopted.file, "old-draft-0badf00d.md");
        assert_eq!(
            fs::read(store.root().join(&adopted.file)).expect("file"),
            bytes
        );
        let index = String::from_utf8(state(&store).1).expect("utf-8");
        assert!(
            index.contains("[old-draft](old-draft-0badf00d.md)"),
            "{index}"
        );
        assert!(store.inspect().unlisted.is_empty());
    }

    #[test]
    fn adopting_is_refused_and_changes_nothing_unless_it_holds() {
        let (_dir, store) = store(StoreOptions {
            max_index_lines: 1,
            ..StoreOptions::default()
        });
        let good = codec::serialize(&record("beta"));
        let taken = codec::serialize(&record("alpha"));
        // (file, its bytes, what the caller saw if not those, the refusal)
        type Case<'a> = (&'a str, &'a [u8], Option<&'a [u8]>, &'a str);
        let cases: Vec<Case> = vec![
            (
                ".beta.tmp",
                good.as_bytes(),
                None,
                "only an unlisted .md file",
            ),
            (
                "Beta Draft.md",
                good.as_bytes(),
                None,
                "not one the manifest can list",
            ),
            (
                "beta-1.md",
                b"no frontmatter",
                None,
                "does not read as a memory",
            ),
            (
                "alpha-2.md",
                taken.as_bytes(),
                None,
                "a memory named \"alpha\" exists",
            ),
            (
                "beta-3.md",
                good.as_bytes(),
                Some(b"what was shown"),
                "changed since it was shown",
            ),
            // one index line is the budget, and alpha has it
            (
                "beta-4.md",
                good.as_bytes(),
                None,
                "more than the limit of 1",
            ),
        ];
        for (file, bytes, seen, expected) in cases {
            stray(&store, file, bytes);
            let before = state(&store);
            let err = store
                .adopt(file, seen.unwrap_or(bytes))
                .expect_err(file)
                .to_string();
            assert!(err.contains(expected), "{file}: {err}");
            assert_eq!(state(&store), before, "{file}");
            assert_eq!(fs::read(store.root().join(file)).expect("kept"), bytes);
        }
        let listed = store.read().expect("read").files();
        assert_eq!(listed.len(), 1);
        let err = store
            .adopt(&listed[0], b"")
            .expect_err("listed")
            .to_string();
        assert!(err.contains("already listed in the manifest"), "{err}");
    }

    /// Fails every rename into `manifest.json`: the commit point.
    #[derive(Debug)]
    struct FailManifestRename;

    impl crate::store::FaultHook for FailManifestRename {
        fn before(&self, op: crate::store::IoOp, path: &std::path::Path) -> std::io::Result<()> {
            if op == crate::store::IoOp::Rename && path.ends_with("manifest.json") {
                return Err(std::io::Error::other("injected"));
            }
            Ok(())
        }
    }

    #[test]
    fn a_failed_adoption_rolls_back_and_keeps_the_file() {
        let (dir, seeded) = store(StoreOptions::default());
        let text = codec::serialize(&record("old-draft"));
        let bytes = stray(&seeded, "old-draft-1.md", text.as_bytes());
        let before = state(&seeded);
        let failing = Store::open(
            dir.path(),
            StoreOptions {
                hooks: crate::store::IoHooks::new(std::sync::Arc::new(FailManifestRename)),
                ..StoreOptions::default()
            },
        )
        .expect("open");
        failing
            .adopt("old-draft-1.md", &bytes)
            .expect_err("injected");
        assert_eq!(state(&seeded), before);
        assert_eq!(
            fs::read(seeded.root().join("old-draft-1.md")).expect("kept"),
            bytes
        );
        assert_eq!(seeded.inspect().unlisted, ["old-draft-1.md"]);
    }

    #[test]
    fn a_stray_is_deleted_only_while_it_holds_what_was_shown() {
        let (_dir, store) = store(StoreOptions::default());
        let temp = stray(&store, ".alpha-5eed.tmp", b"half a record");
        let unlisted = stray(&store, "draft.md", b"notes");
        let err = remove_stray(&store, ".alpha-5eed.tmp", b"other").expect_err("changed");
        assert!(
            err.to_string().contains("changed since it was shown"),
            "{err}"
        );
        assert!(store.root().join(".alpha-5eed.tmp").exists());
        remove_stray(&store, ".alpha-5eed.tmp", &temp).expect("temp");
        remove_stray(&store, "draft.md", &unlisted).expect("unlisted");
        let inspection = store.inspect();
        assert!(inspection.temp_files.is_empty() && inspection.unlisted.is_empty());
        // a listed record, the index and the manifest are not strays
        let listed = store.read().expect("read").files().remove(0);
        let err = remove_stray(&store, &listed, b"")
            .expect_err("listed")
            .to_string();
        assert!(err.contains("delete the record instead"), "{err}");
        for file in ["MEMORY.md", "manifest.json", "../x.md"] {
            let err = remove_stray(&store, file, b"").expect_err(file).to_string();
            assert!(
                err.contains("not an unlisted or temp file"),
                "{file}: {err}"
            );
        }
        assert_eq!(store.read().expect("read").len(), 1);
    }

    #[test]
    fn a_stray_that_is_not_a_regular_file_is_left_alone() {
        let (_dir, store) = store(StoreOptions::default());
        let fifo = store.root().join("pipe.md");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .expect("mkfifo");
        // reading neither blocks nor succeeds; deleting is refused
        assert!(store.stray_bytes("pipe.md").is_err());
        let err = remove_stray(&store, "pipe.md", b"")
            .expect_err("fifo")
            .to_string();
        assert!(err.contains("not a regular file"), "{err}");
        assert!(fs::symlink_metadata(&fifo).is_ok());
    }
}
