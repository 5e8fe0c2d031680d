//! Writing a Claude Code folder: one safe primitive, a multi-file compare-and-swap.
//!
//! Claude Code takes no lock and writes its files with plain writes, so the only safety there
//! is, is never to write over a change memwb did not see: every file of a change names the
//! exact text it was based on, and [`apply`] re-reads each one under memwb's state lock and
//! refuses the whole change when any differs. Each file is then replaced atomically (a temp
//! file in its own directory, fsync, rename; each directory fsynced once after the last
//! rename: `batch::Batch`), and an observer (the journal)
//! keeps every before and after image, so a crash in the middle is resolved at the next
//! `apply` (see [`recover`] and docs/claude-code.md).

mod batch;
mod files;
mod reads;
mod recover;
mod witness;

use std::collections::HashSet;

use super::error::{ClaudeError, Result};
use super::folder::{CONSOLIDATE_LOCK, ClaudeFolder, read_consolidation};
use super::index::{ARCHIVE_FILE, INDEX_FILE};
use super::state::ClaudeState;
pub use crate::change::FileImage;
use files::Root;
pub use files::{TEMP_PREFIX, TEMP_SUFFIX};
pub(crate) use reads::Reads;
pub use recover::recover;

/// One file of a change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileWrite {
    /// Relative to the folder, `/`-separated, no `..`, ending in `.md`.
    pub file: String,
    /// The exact text the change was based on; `None`: the file must not exist.
    pub base: Option<String>,
    /// What to write; `None`: delete the file.
    pub after: Option<String>,
}

/// What [`apply`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    /// The images of the files that changed (a write whose `after` is its `base` changes
    /// nothing and is left out).
    pub images: Vec<FileImage>,
    /// Every file is in place, but a directory sync after the renames failed: why. Every
    /// reader sees the change, and it stands (putting the files back would be a second change
    /// that could fail the same way), but a power loss before the file system writes the
    /// directory out may still lose it.
    pub not_durable: Option<String>,
}

/// What watches a change as [`apply`] makes it, inside the state lock: the journal.
///
/// `pending` and `resolved` are crash recovery: the change an earlier `apply` announced in
/// `prepare` and never reported `committed` or `aborted` for.
pub trait ChangeObserver {
    /// The images of an announced, unresolved change, as the observer keeps them.
    fn pending(&self, folder: &ClaudeFolder) -> Result<Option<Vec<FileImage>>>;
    /// Whether `kept` (an image as the observer keeps it, say with credentials redacted)
    /// stands for the text `current` on disk.
    fn stands_for(&self, kept: &str, current: &str) -> bool {
        kept == current
    }
    /// The pending change was found complete (`took_effect`) or was rolled back.
    fn resolved(&self, folder: &ClaudeFolder, took_effect: bool) -> Result<()>;
    /// The change is about to be written: its images must be kept durably before this returns.
    fn prepare(&self, folder: &ClaudeFolder, images: &[FileImage]) -> Result<()>;
    /// Every file is written.
    fn committed(&self, folder: &ClaudeFolder, images: &[FileImage]);
    /// Nothing of the change is left on disk.
    fn aborted(&self, folder: &ClaudeFolder);
}

/// Whether memwb may write `file` in a Claude Code folder: a topic file (`*.md`, in the
/// folder or a subfolder that is not hidden), `MEMORY.md` or `MEMORY-archive.md`.
pub fn check_name(folder: &ClaudeFolder, file: &str) -> Result<()> {
    let rule = if file.is_empty() {
        Some("the file name is empty")
    } else if file.starts_with('/') {
        Some("the name must be relative to the folder")
    } else if file.contains('\0') {
        Some("the name holds a NUL byte")
    } else if !file.ends_with(".md") {
        Some("only Markdown files (*.md) are memories here")
    } else if file
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
    {
        Some("the name has an empty, `.` or `..` component")
    } else if file.split('/').any(|part| part.starts_with('.')) {
        Some("hidden files and folders are not memories (Claude Code skips them)")
    } else {
        None
    };
    match rule {
        Some(rule) => Err(ClaudeError::WriteRefused {
            path: folder.root().join(file),
            rule: rule.into(),
        }),
        None => Ok(()),
    }
}

/// Why memwb refuses to write `text` as a file: one over its read limit could not be read
/// back (nor undone, nor removed through memwb).
pub fn size_rule(text: &str) -> Option<String> {
    let max = super::fsread::MAX_FILE_BYTES;
    (text.len() > max).then(|| {
        format!(
            "it would be {} bytes, over memwb's read limit of {max} bytes, so memwb could not read it back",
            text.len()
        )
    })
}

/// Every name is one memwb may write ([`check_name`]), none is named twice, and no file
/// would be over memwb's read limit ([`size_rule`]).
fn check_names(folder: &ClaudeFolder, writes: &[FileWrite]) -> Result<()> {
    let mut seen = HashSet::new();
    for write in writes {
        if let Some(rule) = write.after.as_deref().and_then(size_rule) {
            return Err(ClaudeError::WriteRefused {
                path: folder.root().join(&write.file),
                rule,
            });
        }
        check_name(folder, &write.file)?;
        if !seen.insert(write.file.as_str()) {
            return Err(ClaudeError::WriteRefused {
                path: folder.root().join(&write.file),
                rule: "the change names this file twice".into(),
            });
        }
    }
    Ok(())
}

/// Refuses while `.consolidate-lock` names a running process (auto dream is rewriting the
/// folder; its writes and ours would interleave).
pub fn refuse_while_consolidating(folder: &ClaudeFolder) -> Result<()> {
    let path = folder.root().join(CONSOLIDATE_LOCK);
    match read_consolidation(&path) {
        Some(lock) if lock.live => Err(ClaudeError::Consolidating {
            path,
            pid: lock.pid,
        }),
        _ => Ok(()),
    }
}

/// The order files are written in: topic files first, then the archive, then MEMORY.md, then
/// deletions, so that at every moment between steps an index entry links to a file that
/// exists (the new one is there before its entry; a removed one's entry goes before it).
fn write_order(image: &FileImage) -> u8 {
    match (image.after.is_some(), image.file.as_str()) {
        (false, _) => 3,
        (true, INDEX_FILE) => 2,
        (true, ARCHIVE_FILE) => 1,
        (true, _) => 0,
    }
}

/// Applies `writes` as one change: all of them, or none when any file is not its `base`.
///
/// Under the folder's state lock: the change is refused while Claude Code consolidates the
/// folder; an earlier change a crash interrupted is resolved first ([`recover`]); every file
/// is re-read and compared with its base ([`ClaudeError::Conflict`] carries the current text);
/// `observer.prepare` keeps the images; then every new text is written and synced beside its
/// file, each file replaced (renamed into place) or removed atomically in `write_order`,
/// and each directory synced once. A
/// failure part-way puts back what was written (the before images are in memory), then tells
/// the observer `aborted`; when even that fails, the observer's intent stays for the next
/// `apply` to resolve. A directory sync that fails once every file is in place does not undo
/// the change: it is `committed`, and said in [`Applied::not_durable`]. Returns the images
/// of the files that changed. An empty `writes` only recovers.
pub fn apply(
    folder: &ClaudeFolder,
    writes: Vec<FileWrite>,
    observer: Option<&dyn ChangeObserver>,
) -> Result<Applied> {
    check_names(folder, &writes)?;
    let mut writes = Some(writes);
    apply_planned(
        folder,
        &mut || Ok(writes.take().unwrap_or_default()),
        observer,
    )
}

/// [`apply`] of the writes `plan` makes under the lock, after recovery: whatever the plan
/// reads to make them (the current MEMORY.md a change derives its lines from, a proposal's
/// files) no other memwb process can change before the compare. An error from the plan
/// writes nothing.
pub fn apply_planned(
    folder: &ClaudeFolder,
    plan: &mut dyn FnMut() -> Result<Vec<FileWrite>>,
    observer: Option<&dyn ChangeObserver>,
) -> Result<Applied> {
    apply_reading(folder, &mut |_| plan(), observer)
}

/// [`apply_planned`] of a plan that reads the files it writes through `Reads`: each is then
/// read once, the plan's read serving as the compare's (`reads`: the compare checks that the
/// name still holds the file read, and the witness reads that file again after the renames).
pub(crate) fn apply_reading(
    folder: &ClaudeFolder,
    plan: &mut dyn FnMut(&Reads) -> Result<Vec<FileWrite>>,
    observer: Option<&dyn ChangeObserver>,
) -> Result<Applied> {
    let state = ClaudeState::for_folder(folder)?;
    let _lock = state.lock()?;
    // Before recovery too: putting back an interrupted change is a write like any other.
    refuse_while_consolidating(folder)?;
    let root = Root::open(folder.root(), folder.hooks())?;
    recover::recover_locked(folder, &root, observer, &[])?;
    let reads = Reads::new(&root);
    let writes = plan(&reads)?;
    check_names(folder, &writes)?;
    if writes.is_empty() {
        return Ok(Applied::default());
    }
    // The folders of the files about to be written hold no temp file of an earlier crash.
    let touched: Vec<&str> = writes.iter().map(|w| w.file.as_str()).collect();
    recover::remove_temps_beside_all(&root, &touched)?;
    let mut images = Vec::with_capacity(writes.len());
    let mut compared = witness::Compared::default();
    for write in writes {
        let read = match reads.take_unmoved(&write.file) {
            Some(read) => Some(read),
            None => root.read_open(&write.file)?,
        };
        let (current, handle) = match read {
            Some((text, handle)) => (Some(text), Some(handle)),
            None => (None, None),
        };
        if current != write.base {
            return Err(ClaudeError::Conflict {
                path: root.shown(&write.file),
                file: write.file,
                current,
                raced: false,
            });
        }
        if write.after != current {
            if let (Some(handle), Some(text)) = (handle, &current) {
                compared.keep(&write.file, handle, text);
            }
            images.push(FileImage {
                file: write.file,
                before: current,
                after: write.after,
            });
        }
    }
    if images.is_empty() {
        return Ok(Applied::default());
    }
    images.sort_by_key(write_order);
    if let Some(observer) = observer {
        observer.prepare(folder, &images)?;
    }
    // How many files were renamed into place or removed (the one that failed included): what
    // a failure rolls back.
    let mut written = 0;
    let mut batch = root.batch();
    let outcome = images
        .iter()
        .filter_map(|image| Some((&image.file, image.after.as_ref()?)))
        .try_for_each(|(file, after)| batch.stage(file, after.as_bytes()))
        .and_then(|()| {
            images.iter().try_for_each(|image| {
                written += 1;
                match &image.after {
                    Some(_) => batch
                        .put(&image.file, image.before.is_none())
                        .map_err(|e| named_conflict(e, &image.file)),
                    None => batch.remove(&image.file),
                }
            })
        });
    // Every file is in place: every reader sees the change from here on, so a failing
    // directory sync is said with it rather than undo it.
    let not_durable = match outcome {
        Ok(()) => batch.sync().err(),
        Err(_) => None,
    };
    drop(batch);
    if outcome.is_ok() {
        // After every rename: a plain write into a file between its compare and its rename.
        let raced = compared.written_since(&images, root.path());
        compared.release();
        if let Some((file, theirs)) = raced.first() {
            if put_back_raced(&root, &images, &raced)
                && let Some(observer) = observer
            {
                observer.aborted(folder);
            }
            return Err(ClaudeError::Conflict {
                path: root.shown(file),
                file: file.clone(),
                current: String::from_utf8(theirs.clone()).ok(),
                raced: true,
            });
        }
    }
    match outcome {
        Ok(()) => {
            if let Some(error) = &not_durable {
                tracing::error!(%error, "written, but the directory sync after it failed");
            }
            if let Some(observer) = observer {
                observer.committed(folder, &images);
            }
            Ok(Applied {
                images,
                not_durable: not_durable.map(|e| e.to_string()),
            })
        }
        Err(error) => {
            // The step that failed may have left its file either way: it is looked at too.
            let put_back =
                recover::roll_back(&root, &images[..written], &|kept, current| kept == current);
            match put_back {
                Ok(()) => {
                    if let Some(observer) = observer {
                        observer.aborted(folder);
                    }
                }
                Err(e) => tracing::error!(
                    error = %e,
                    "could not put a failed change back; the next change to the folder resolves it"
                ),
            }
            Err(error)
        }
    }
}

/// A new file's rename refused because a file of its name appeared: the conflict names it.
fn named_conflict(error: ClaudeError, file: &str) -> ClaudeError {
    match error {
        ClaudeError::Conflict {
            path, raced: true, ..
        } => ClaudeError::Conflict {
            path,
            file: file.to_owned(),
            current: None,
            raced: true,
        },
        other => other,
    }
}

/// Puts back what other writers wrote into files of the change meanwhile (`raced`), then the
/// rest of the change. The raced files go first: should putting back fail part-way, the
/// journal's intent stays, and recovery leaves a file that holds neither of its images.
/// Returns whether everything was put back.
fn put_back_raced(root: &Root, images: &[FileImage], raced: &[(String, Vec<u8>)]) -> bool {
    let mut failed = false;
    for (file, theirs) in raced {
        if let Err(e) = root.write_bytes(file, theirs, false) {
            failed = true;
            tracing::error!(error = %e, file, "could not put back another program's write");
        }
    }
    let rest: Vec<FileImage> = images
        .iter()
        .filter(|image| !raced.iter().any(|(file, _)| *file == image.file))
        .cloned()
        .collect();
    if let Err(e) = recover::roll_back(root, &rest, &|kept, current| kept == current) {
        failed = true;
        tracing::error!(error = %e, "could not put a raced change back");
    }
    if failed {
        tracing::error!("the next change to the folder resolves the rest");
    }
    !failed
}
