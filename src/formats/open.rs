//! Opening a memory folder: the registered formats, each with how it recognises a folder and
//! how it opens one, and the open folder ([`Open`]) every command and view works on.

use std::path::{Path, PathBuf};

use super::claude::ClaudeBackend;
use super::discover::{Entered, Look, Sightings};
use super::memory::MemoryBackend;
use super::{Backend, Format, FormatError, OpenOptions, Summary};
use crate::claude::ClaudeFolder;
use crate::store::Store;
use crate::store::lock::WaitNotice;

/// One open memory folder, held by its format's engine.
///
/// An enum rather than a `Box<dyn Backend>`: an open folder is cloned into watchers and
/// background jobs, and the engines (a [`Store`], a [`ClaudeFolder`]) are cheap to clone
/// while a trait object is not; a new format adds its variant here and its entry in
/// `FORMATS`. Everything above reads and changes the folder through [`Open::backend`].
#[derive(Clone)]
pub enum Open {
    Memory(Store),
    Claude(ClaudeFolder),
}

/// How a format takes a folder it was asked to look at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Recognized {
    /// The folder is this format's.
    Yes,
    /// Not this format's: ask the next one.
    No,
    /// It looks like this format's but must not be touched (a manifest of another schema):
    /// why, said as an error, and nothing is read or written.
    Refused(String),
}

/// A format memwb reads and writes: how it recognises a folder, and how it opens one.
pub(crate) struct Registered {
    pub(crate) format: Format,
    pub(crate) recognize: fn(&Path) -> Recognized,
    pub(crate) open: fn(&Path, &OpenOptions) -> Result<Open, FormatError>,
    /// Reports the folders the format keeps under an agent's config folder.
    pub(crate) known: fn(&Path, &mut dyn Sightings),
    /// What the format makes of a directory a scan of the roots enters.
    pub(crate) look: fn(Entered<'_>, &mut dyn Sightings) -> Look,
}

/// Every format, asked in this order when a folder's format is not given: the first that
/// recognises the folder opens it. `.memory` comes first, as its manifest is the stricter sign.
pub(crate) const FORMATS: &[Registered] = &[
    Registered {
        format: Format::Memory,
        recognize: super::memory::recognize,
        open: super::memory::open,
        known: super::memory::discover::known,
        look: super::memory::discover::look,
    },
    Registered {
        format: Format::Claude,
        recognize: super::claude::recognize,
        open: super::claude::open,
        known: super::claude::discover::known,
        look: super::claude::discover::look,
    },
];

/// Opens the memory folder `dir` itself, in `format` or the one it is recognised as.
pub fn open(
    dir: &Path,
    format: Option<Format>,
    options: &OpenOptions,
) -> Result<Open, FormatError> {
    if !dir.is_dir() {
        return Err(FormatError::refused(format!(
            "memory folder {} is not a directory",
            dir.display()
        )));
    }
    let registered = match format {
        Some(format) => FORMATS.iter().find(|r| r.format == format),
        None => recognize(dir)?,
    };
    let registered = registered.ok_or_else(|| {
        FormatError::refused(format!(
            "{} is no memory folder of any format memwb knows; nothing was read or written (--format forces one)",
            dir.display()
        ))
    })?;
    (registered.open)(dir, options)
}

/// The first registered format that recognises `dir`; refused when one says it must not be
/// touched.
fn recognize(dir: &Path) -> Result<Option<&'static Registered>, FormatError> {
    for registered in FORMATS {
        match (registered.recognize)(dir) {
            Recognized::Yes => return Ok(Some(registered)),
            Recognized::No => {}
            Recognized::Refused(why) => return Err(FormatError::Refused(why)),
        }
    }
    Ok(None)
}

impl Open {
    /// The folder through its format's backend: what every command reads and writes by.
    pub fn backend(&self) -> Box<dyn Backend + '_> {
        match self {
            Self::Memory(store) => Box::new(MemoryBackend::new(store)),
            Self::Claude(folder) => Box::new(ClaudeBackend::new(folder)),
        }
    }

    pub fn format(&self) -> Format {
        match self {
            Self::Memory(_) => Format::Memory,
            Self::Claude(_) => Format::Claude,
        }
    }

    /// The memory folder itself (`<workspace>/.memory`, or the Claude Code folder).
    pub fn root(&self) -> &Path {
        match self {
            Self::Memory(store) => store.root(),
            Self::Claude(folder) => folder.root(),
        }
    }

    pub fn store(&self) -> Option<&Store> {
        match self {
            Self::Memory(store) => Some(store),
            Self::Claude(_) => None,
        }
    }

    pub fn claude(&self) -> Option<&ClaudeFolder> {
        match self {
            Self::Memory(_) => None,
            Self::Claude(folder) => Some(folder),
        }
    }

    /// The same folder, telling `notice` when a change waits for another writer's lock.
    pub fn with_lock_notice(self, notice: Option<WaitNotice>) -> Self {
        match self {
            Self::Memory(store) => Self::Memory(store.with_lock_notice(notice)),
            Self::Claude(folder) => {
                let timeout = folder.lock_wait().timeout;
                Self::Claude(
                    folder.with_lock_wait(crate::claude::LockWaitPolicy { timeout, notice }),
                )
            }
        }
    }

    /// What a lock wait is about, as a person knows the folder: `.memory`, or the folder.
    pub fn lock_label(&self) -> String {
        match self {
            Self::Memory(_) => crate::store::MEMORY_DIR.to_owned(),
            Self::Claude(folder) => folder.root().display().to_string(),
        }
    }

    /// Opens the folder a row of `memwb sets` names.
    pub fn open_set(set: &Summary, options: &OpenOptions) -> Result<Self, String> {
        let path = PathBuf::from(&set.path);
        let registered = FORMATS
            .iter()
            .find(|r| r.format == set.format)
            .ok_or_else(|| format!("no backend for {}", set.format.describe()))?;
        (registered.open)(&path, options).map_err(|e| e.to_string())
    }
}
