//! The files a planned change read under the folder's lock, kept open for its compare.
//!
//! A change planned from the folder as it is now ([`super::apply_reading`], an undo) reads
//! each file once: the plan's read is the compare's. The compare then only checks that the
//! name still holds the very file the plan read (same device and inode: a file another
//! program renamed into place since is read again and compared as before), and the handle
//! kept open since the plan's read is the one [`super::witness`] reads again after the
//! renames, so a plain write into the file at any moment from the plan's read to the rename
//! is caught there, as one after the compare always was.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs::File;

use rustix::fs::Stat;

use super::files::Root;

/// Which file a name held: its device and inode.
type Identity = (u64, u64);

fn identity(stat: &Stat) -> Identity {
    (stat.st_dev, stat.st_ino)
}

/// One file as the plan read it.
struct Read {
    text: String,
    file: File,
    identity: Identity,
}

/// What a plan read of the folder, by file name.
pub(crate) struct Reads<'r> {
    root: &'r Root,
    kept: RefCell<HashMap<String, Read>>,
}

impl<'r> Reads<'r> {
    pub(super) fn new(root: &'r Root) -> Self {
        Self {
            root,
            kept: RefCell::new(HashMap::new()),
        }
    }

    /// The text of `file` (a checked name) now, as the engine reads it (no link, no FIFO, only
    /// UTF-8, under memwb's read limit). `None`: absent; or not readable so, when it is the
    /// compare that says why, reading it again. A file read twice is read once.
    pub(crate) fn current(&self, file: &str) -> Option<String> {
        if let Some(read) = self.kept.borrow().get(file) {
            return Some(read.text.clone());
        }
        match self.root.read_open_stat(file) {
            Ok(Some((text, opened, stat))) => {
                self.kept.borrow_mut().insert(
                    file.to_owned(),
                    Read {
                        text: text.clone(),
                        file: opened,
                        identity: identity(&stat),
                    },
                );
                Some(text)
            }
            Ok(None) => None,
            // As a plan has always read a file the engine refuses: through its path.
            Err(_) => {
                let path = self.root.shown(file);
                crate::claude::fsread::read_regular(&path, crate::claude::fsread::MAX_FILE_BYTES)
                    .ok()
                    .flatten()
                    .and_then(|bytes| String::from_utf8(bytes).ok())
            }
        }
    }

    /// The text of `file` and the file it was read from, when the plan read it and its name
    /// still holds that very file; `None`: the compare reads it itself.
    pub(super) fn take_unmoved(&self, file: &str) -> Option<(String, File)> {
        let read = self.kept.borrow_mut().remove(file)?;
        let now = self.root.stat(file)?;
        (identity(&now) == read.identity).then_some((read.text, read.file))
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::super::{FileWrite, apply_reading};
    use crate::claude::{ClaudeError, ClaudeFolder, LoadLimits};

    /// A folder holding `a.md` ("old\n"), its state beside it.
    fn folder(dir: &std::path::Path) -> ClaudeFolder {
        let memory = dir.join("memory");
        fs::create_dir(&memory).expect("mkdir");
        fs::write(memory.join("a.md"), "old\n").expect("write");
        ClaudeFolder::open(&memory, LoadLimits::default())
            .expect("open")
            .with_state_root(dir.join("state"))
    }

    /// Applies "new\n" over `a.md` as read by the plan, after `meanwhile` ran in the plan
    /// (another program writing between the plan's read and the compare).
    fn apply_after(
        folder: &ClaudeFolder,
        meanwhile: impl Fn(&std::path::Path),
    ) -> crate::claude::Result<super::super::Applied> {
        apply_reading(
            folder,
            &mut |reads| {
                let base = reads.current("a.md");
                meanwhile(&folder.root().join("a.md"));
                Ok(vec![FileWrite {
                    file: "a.md".into(),
                    base,
                    after: Some("new\n".into()),
                }])
            },
            None,
        )
    }

    /// Nothing touched the file after the plan read it: the compare takes that read and the
    /// change is written. (That the file is read once is counted in the benchmark's `strace`, not
    /// here: no test hook counts reads.)
    #[test]
    fn an_untouched_file_is_written_from_the_plans_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = folder(dir.path());
        let applied = apply_after(&folder, |_| {}).expect("applied");
        assert_eq!(applied.images.len(), 1);
        let text = fs::read_to_string(folder.root().join("a.md")).expect("read");
        assert_eq!(text, "new\n");
    }

    /// Another program renames its own file into place after the plan read the old one: the
    /// compare sees a different file there, reads it, and refuses before writing anything.
    #[test]
    fn a_file_renamed_into_place_after_the_plans_read_is_a_conflict() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = folder(dir.path());
        let error = apply_after(&folder, |path| {
            let theirs = path.with_file_name("theirs.tmp");
            fs::write(&theirs, "theirs\n").expect("write");
            fs::rename(&theirs, path).expect("rename");
        })
        .expect_err("refused");
        match error {
            ClaudeError::Conflict { current, raced, .. } => {
                assert_eq!(current.as_deref(), Some("theirs\n"));
                assert!(!raced, "found by the compare, before any write");
            }
            other => panic!("a conflict expected, got {other:?}"),
        }
        let text = fs::read_to_string(folder.root().join("a.md")).expect("read");
        assert_eq!(text, "theirs\n");
    }

    /// Another program writes into the file in place after the plan read it: the file kept
    /// open since that read shows it after the renames, and the change is put back.
    #[test]
    fn a_write_in_place_after_the_plans_read_is_caught_and_kept() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = folder(dir.path());
        let error = apply_after(&folder, |path| {
            fs::write(path, "theirs in place\n").expect("write");
        })
        .expect_err("refused");
        assert!(
            matches!(error, ClaudeError::Conflict { raced: true, .. }),
            "{error:?}"
        );
        let text = fs::read_to_string(folder.root().join("a.md")).expect("read");
        assert_eq!(text, "theirs in place\n");
    }
}
