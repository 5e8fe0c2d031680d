//! Resolving a change a crash interrupted, from the images its observer kept.
//!
//! The rule (docs/claude-code.md, "Crash recovery"): when every file of the change holds its
//! after image, the change happened and is kept (rolled forward: the journal marks it
//! committed). Otherwise it is rolled back: each file that holds its after image gets its
//! before image back (or is removed, if it did not exist); a file that holds its before image
//! is left; a file that holds neither was changed by someone else since the crash and is left
//! as they wrote it. So the folder ends either as the whole change made it, or as if the change
//! had never started, plus whatever others wrote; nothing another writer wrote is overwritten.

use super::super::error::{ClaudeError, Result};
use super::super::folder::ClaudeFolder;
use super::super::state::ClaudeState;
use super::files::Root;
use super::{ChangeObserver, FileImage};

/// Whether a kept image (`None`: absent) stands for what is on disk now.
fn holds(
    kept: Option<&str>,
    current: Option<&str>,
    stands_for: &dyn Fn(&str, &str) -> bool,
) -> bool {
    match (kept, current) {
        (None, None) => true,
        (Some(kept), Some(current)) => stands_for(kept, current),
        _ => false,
    }
}

/// What a file of an interrupted change holds now: its text (`Ok(None)`: absent), or `None`
/// when it became something memwb does not read (a link, a FIFO, not UTF-8): someone else's,
/// which recovery leaves alone rather than failing every later change on it.
fn current(root: &Root, file: &str) -> Result<Option<Option<String>>> {
    match root.read(file) {
        Ok(text) => Ok(Some(text)),
        Err(ClaudeError::WriteRefused { .. } | ClaudeError::Fs(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether the file holds the kept image; a file memwb does not read holds none.
fn holds_now(
    kept: Option<&str>,
    now: &Option<Option<String>>,
    stands_for: &dyn Fn(&str, &str) -> bool,
) -> bool {
    now.as_ref()
        .is_some_and(|text| holds(kept, text.as_deref(), stands_for))
}

/// Puts back the before image of every file that holds its after image; leaves the rest.
pub(super) fn roll_back(
    root: &Root,
    images: &[FileImage],
    stands_for: &dyn Fn(&str, &str) -> bool,
) -> Result<()> {
    for image in images.iter().rev() {
        let now = current(root, &image.file)?;
        let at_after = holds_now(image.after.as_deref(), &now, stands_for);
        let at_before = holds_now(image.before.as_deref(), &now, stands_for);
        if at_after && !at_before {
            root.set(&image.file, image.before.as_deref())?;
        } else if !at_after && !at_before {
            tracing::warn!(
                file = %root.shown(&image.file).display(),
                "left a file another writer changed while a change to it was interrupted"
            );
        }
    }
    Ok(())
}

/// Resolves an interrupted change and removes memwb's leftover temp files, under the lock.
/// `touched` are the files the caller is about to write (their folders are swept too).
pub(super) fn recover_locked(
    folder: &ClaudeFolder,
    root: &Root,
    observer: Option<&dyn ChangeObserver>,
    touched: &[&str],
) -> Result<()> {
    let mut pending = match observer {
        Some(observer) => observer.pending(folder)?,
        None => None,
    };
    // Rolled back in the reverse of the order they were written in.
    if let Some(images) = &mut pending {
        images.sort_by_key(super::write_order);
    }
    let mut swept: Vec<&str> = vec![super::super::index::INDEX_FILE];
    swept.extend(touched);
    if let (Some(observer), Some(images)) = (observer, &pending) {
        swept.extend(images.iter().map(|i| i.file.as_str()));
        let stands_for = |kept: &str, current: &str| observer.stands_for(kept, current);
        let mut complete = true;
        for image in images {
            let now = current(root, &image.file)?;
            complete &= holds_now(image.after.as_deref(), &now, &stands_for);
        }
        if complete {
            observer.resolved(folder, true)?;
        } else {
            roll_back(root, images, &stands_for)?;
            observer.resolved(folder, false)?;
        }
        tracing::info!(
            folder = %root.path().display(),
            kept = complete,
            "resolved a change to a Claude Code folder that a crash interrupted"
        );
    }
    remove_temps_beside_all(root, &swept)
}

/// Removes memwb's leftover temp files from the folders of `files`.
pub(super) fn remove_temps_beside_all(root: &Root, files: &[&str]) -> Result<()> {
    let mut dirs: Vec<&str> = files
        .iter()
        .map(|file| file.rsplit_once('/').map_or("", |(dir, _)| dir))
        .collect();
    dirs.sort_unstable();
    dirs.dedup();
    for dir in dirs {
        let probe = if dir.is_empty() {
            "x.md".to_owned()
        } else {
            format!("{dir}/x.md")
        };
        root.remove_temps_beside(&probe)?;
    }
    Ok(())
}

/// Resolves a change a crash interrupted (see the module's rule), under the folder's lock.
pub fn recover(folder: &ClaudeFolder, observer: &dyn ChangeObserver) -> Result<()> {
    let state = ClaudeState::for_folder(folder)?;
    let _lock = state.lock()?;
    super::refuse_while_consolidating(folder)?;
    let root = Root::open(folder.root(), folder.hooks())?;
    recover_locked(folder, &root, Some(observer), &[])
}
