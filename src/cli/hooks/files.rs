//! The settings file on disk around an edit: read whole, replaced atomically with its mode and
//! owner kept, every earlier version kept as a numbered backup (0600, never overwritten), and
//! a note of what memwb created so that uninstall can take it away again.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

use crate::fs::{IoHooks, IoOp, Links, read_regular};

/// Most of a settings file that is read.
const MAX_SETTINGS_BYTES: usize = 4 * 1024 * 1024;
const UTF8_BOM: &str = "\u{feff}";
/// `<file>.memwb-backup-N`, N counting up from 1; the single `<file>.memwb-backup` an older
/// memwb wrote is generation 0.
const BACKUP_SUFFIX: &str = ".memwb-backup";
/// `<file>.memwb-created`: memwb made this file (and maybe its folder) on install.
const CREATED_SUFFIX: &str = ".memwb-created";
/// What memwb makes private: backups, a new settings file (it may come to hold an API key).
const PRIVATE: u32 = 0o600;

/// A settings file as read: its bytes, its text without a byte order mark, and its metadata.
pub(crate) struct Current {
    pub bytes: Vec<u8>,
    pub text: String,
    bom: bool,
    meta: fs::Metadata,
}

impl Current {
    /// `text` as it would be written back, with the file's byte order mark if it had one.
    pub(super) fn with_bom(&self, text: &str) -> Vec<u8> {
        if self.bom {
            [UTF8_BOM, text].concat().into_bytes()
        } else {
            text.as_bytes().to_vec()
        }
    }
}

/// The file a settings path names: through a link, the file it points at.
pub(crate) fn real_target(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
}

pub(crate) fn read(path: &Path) -> anyhow::Result<Option<Current>> {
    let Some(bytes) = read_regular(path, MAX_SETTINGS_BYTES, Links::Follow)? else {
        return Ok(None);
    };
    let meta = fs::metadata(path).with_context(|| format!("stat {}", path.display()))?;
    let Ok(text) = String::from_utf8(bytes.clone()) else {
        bail!(
            "settings file {} is not UTF-8 text; nothing was changed",
            path.display()
        );
    };
    let (text, bom) = match text.strip_prefix(UTF8_BOM) {
        Some(rest) => (rest.to_owned(), true),
        None => (text, false),
    };
    Ok(Some(Current {
        bytes,
        text,
        bom,
        meta,
    }))
}

fn sibling(target: &Path, suffix: &str) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_owned();
    name.push(suffix);
    target.with_file_name(name)
}

/// memwb's backups of `target`, oldest first: (generation, path).
pub(crate) fn backups(target: &Path) -> Vec<(u64, PathBuf)> {
    let legacy = sibling(target, BACKUP_SUFFIX);
    let numbered = format!(
        "{}-",
        legacy.file_name().unwrap_or_default().to_string_lossy()
    );
    let mut found: Vec<(u64, PathBuf)> = fs::read_dir(target.parent().unwrap_or(Path::new(".")))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let generation = if entry.path() == legacy {
                Some(0)
            } else {
                name.strip_prefix(&numbered)?.parse().ok()
            };
            generation.map(|g| (g, entry.path()))
        })
        .collect();
    found.sort();
    found
}

/// A temp file's name beside `target`: `.<name>.memwb-<uuid>.tmp`, so that one a crash left
/// is known as memwb's and cleared by the next edit.
fn temp_beside(target: &Path) -> PathBuf {
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    target.with_file_name(format!(
        ".{name}.memwb-{}.tmp",
        uuid::Uuid::new_v4().simple()
    ))
}

/// Removes the temp files an edit of `target` interrupted by a crash left beside it.
pub(crate) fn clear_leftovers(target: &Path) {
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let prefix = format!(".{name}.memwb-");
    let Ok(entries) = fs::read_dir(target.parent().unwrap_or(Path::new("."))) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        if file.starts_with(&prefix) && file.ends_with(".tmp") {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Writes `bytes` to a new private temp file beside `target`, synced; `like` gives it the mode
/// and owner of the file it will replace.
fn write_temp(target: &Path, bytes: &[u8], like: Option<&Current>) -> anyhow::Result<PathBuf> {
    let hooks = IoHooks::default();
    let temp = temp_beside(target);
    let written = (|| -> anyhow::Result<()> {
        hooks.step(IoOp::WriteTemp, "write", &temp)?;
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(PRIVATE)
            .open(&temp)
            .with_context(|| format!("create {}", temp.display()))?;
        match like {
            Some(like) => keep_owner_and_mode(&file, &like.meta, target)?,
            None => file
                .set_permissions(fs::Permissions::from_mode(PRIVATE))
                .with_context(|| format!("chmod {}", temp.display()))?,
        }
        file.write_all(bytes)
            .with_context(|| format!("write {}", temp.display()))?;
        hooks.step(IoOp::SyncTemp, "fsync", &temp)?;
        file.sync_all()
            .with_context(|| format!("fsync {}", temp.display()))
    })();
    match written {
        Ok(()) => Ok(temp),
        Err(e) => {
            let _ = fs::remove_file(&temp);
            Err(e)
        }
    }
}

/// Keeps `bytes` in a new backup generation, private to the user, whole or not at all (a temp
/// file linked to its name, which fails rather than replace an older backup); its path.
pub(crate) fn back_up(target: &Path, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    let temp = write_temp(target, bytes, None)?;
    let mut generation = backups(target).last().map_or(1, |(g, _)| g + 1);
    let linked = loop {
        let path = sibling(target, &format!("{BACKUP_SUFFIX}-{generation}"));
        if let Err(e) = IoHooks::default().step(IoOp::CreateRecord, "create", &path) {
            break Err(e.into());
        }
        match fs::hard_link(&temp, &path) {
            Ok(()) => break Ok(path),
            // Another install made it meanwhile: never overwrite, take the next number.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => generation += 1,
            Err(e) => break Err(e).with_context(|| format!("create {}", path.display())),
        }
    };
    let _ = fs::remove_file(&temp);
    linked
}

/// Replaces `target` atomically with `bytes`: the new file gets `like`'s mode and owner (the
/// file it replaces), or 0600 when there was none.
pub(crate) fn replace(target: &Path, bytes: &[u8], like: Option<&Current>) -> anyhow::Result<()> {
    let hooks = IoHooks::default();
    let temp = write_temp(target, bytes, like)?;
    let renamed = hooks
        .step(IoOp::Rename, "rename", target)
        .map_err(anyhow::Error::from)
        .and_then(|()| {
            fs::rename(&temp, target).with_context(|| format!("replace {}", target.display()))
        });
    if renamed.is_err() {
        let _ = fs::remove_file(&temp);
    }
    renamed?;
    let dir = target.parent().unwrap_or(Path::new("."));
    hooks.step(IoOp::SyncDir, "fsync", dir)?;
    File::open(dir)
        .and_then(|d| d.sync_all())
        .with_context(|| format!("fsync {}", dir.display()))
}

fn keep_owner_and_mode(file: &File, meta: &fs::Metadata, target: &Path) -> anyhow::Result<()> {
    if (meta.uid(), meta.gid()) != (file.metadata()?.uid(), file.metadata()?.gid()) {
        std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).with_context(|| {
            format!(
                "{} belongs to user {} group {}, and memwb cannot give its new version the same owner; nothing was changed",
                target.display(),
                meta.uid(),
                meta.gid()
            )
        })?;
    }
    file.set_permissions(fs::Permissions::from_mode(meta.mode() & 0o7777))
        .with_context(|| format!("chmod {}", target.display()))
}

/// What memwb created on install, noted beside the file.
#[derive(Serialize, Deserialize, Default, Debug, Clone, Copy)]
pub(crate) struct Created {
    /// The folder holding the file (`.claude/`) did not exist either.
    pub folder: bool,
}

pub(crate) fn note_created(target: &Path, created: Created) -> anyhow::Result<()> {
    replace(
        &sibling(target, CREATED_SUFFIX),
        &serde_json::to_vec(&created)?,
        None,
    )
}

pub(crate) fn created(target: &Path) -> Option<Created> {
    let path = sibling(target, CREATED_SUFFIX);
    let bytes = read_regular(&path, 4096, Links::Refuse).ok()??;
    serde_json::from_slice(&bytes).ok()
}

/// Takes away what memwb created: the file, its backups, the note, and the folder when that is
/// now empty (a folder with anything else in it stays).
pub(crate) fn remove_created(target: &Path, created: Created) -> anyhow::Result<()> {
    IoHooks::default().step(IoOp::RemoveReplaced, "remove", target)?;
    fs::remove_file(target).with_context(|| format!("remove {}", target.display()))?;
    for (_, backup) in backups(target) {
        let _ = fs::remove_file(backup);
    }
    let _ = fs::remove_file(sibling(target, CREATED_SUFFIX));
    if created.folder
        && let Some(dir) = target.parent()
    {
        let _ = fs::remove_dir(dir);
    }
    Ok(())
}
