//! Opening a memory folder: the registered formats, each with how it recognises a folder and
//! how it opens one, and the open folder ([`Open`]) every command and view works on.

use std::path::{Path, PathBuf};

use super::claude::ClaudeBackend;
use super::discover::{Entered, Look, Sightings};
use super::memory::MemoryBackend;
use super::{Backend, Detected, Format, FormatError, OpenOptions, Summary, detect};
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

/// A workspace's memory folder of one format, as that format finds it.
pub(crate) enum InWorkspace {
    /// There, and opened; with what a person is to be told about it (each said as a note).
    Found { open: Open, notes: Vec<String> },
    /// Not there yet, and the format starts it on its first write: the folder, opened.
    Startable(Open),
    /// Not there, or it could not be looked for: why.
    Missing(FormatError),
}

/// A format memwb reads and writes: how it recognises a folder, how it opens one, and where a
/// workspace keeps its folder of this format.
pub(crate) struct Registered {
    pub(crate) format: Format,
    pub(crate) recognize: fn(&Path) -> Recognized,
    pub(crate) open: fn(&Path, &OpenOptions) -> Result<Open, FormatError>,
    /// Reports the folders the format keeps under an agent's config folder.
    pub(crate) known: fn(&Path, &mut dyn Sightings),
    /// What the format makes of a directory a scan of the roots enters.
    pub(crate) look: fn(Entered<'_>, &mut dyn Sightings) -> Look,
    /// The workspace's folder of this format (`-C DIR`, when no folder is named).
    pub(crate) in_workspace: fn(&Path, &OpenOptions) -> Result<InWorkspace, FormatError>,
    /// Whether a folder taken for this format holds any of its memory files: an existing
    /// folder that holds none is opened only when a person says to start one there
    /// (`--new`), so that a project root or `$HOME` is never taken for an empty set.
    pub(crate) holds_memories: fn(&Path) -> bool,
    /// The name of the folder a workspace holds this format's memory in, when it is inside
    /// the workspace (`.memory`).
    pub(crate) inside_workspace: Option<&'static str>,
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
        in_workspace: super::memory::in_workspace,
        holds_memories: |_| true,
        inside_workspace: Some(crate::store::MEMORY_DIR),
    },
    Registered {
        format: Format::Claude,
        recognize: super::claude::recognize,
        open: super::claude::open,
        known: super::claude::discover::known,
        look: super::claude::discover::look,
        in_workspace: super::claude::in_workspace,
        holds_memories: super::claude::holds_memories,
        inside_workspace: None,
    },
];

/// The registered `format`, refused in words when no backend serves it.
pub(crate) fn registered(format: Format) -> Result<&'static Registered, FormatError> {
    FORMATS
        .iter()
        .find(|r| r.format == format)
        .ok_or_else(|| FormatError::refused(format!("no backend for {}", format.describe())))
}

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
        Some(format) => Some(registered(format)?),
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

/// Opens the memory folder `dir` a person named, as [`open`] does; but a folder taken for a
/// format it holds no memory file of is refused unless `new` says to start one there, so that
/// a project root, an empty folder, `/` or `$HOME` is never taken for an empty set (which
/// would audit clean and let `add` write into it).
pub fn open_given(
    dir: &Path,
    format: Option<Format>,
    new: bool,
    options: &OpenOptions,
) -> Result<Open, FormatError> {
    if dir.is_dir() && !new {
        refuse_unless_memory_folder(dir)?;
    }
    open(dir, format, options)
}

fn refuse_unless_memory_folder(dir: &Path) -> Result<(), FormatError> {
    let Detected::Format(format) = detect(dir) else {
        return Ok(());
    };
    if registered(format).is_ok_and(|registered| (registered.holds_memories)(dir)) {
        return Ok(());
    }
    let inside = FORMATS
        .iter()
        .filter_map(|registered| registered.inside_workspace)
        .find(|name| dir.join(name).is_dir());
    let hint = match inside {
        Some(name) => format!(
            "it holds {name}/: open that workspace with -C {}",
            dir.display()
        ),
        None => "give the memory folder itself (the one holding MEMORY.md), or start a new one with --format FORMAT --new".to_owned(),
    };
    Err(FormatError::refused(format!(
        "{} is not a memory folder (no MEMORY.md, no topic files with frontmatter); nothing was read or written; {hint}",
        dir.display()
    )))
}

/// A workspace's memory folder, as [`open_workspace`] found it.
pub struct Found {
    pub open: Open,
    /// What a person is to be told about the folder (each said as a note).
    pub notes: Vec<String>,
    /// Found by looking past the first format: the workspace has no folder of the first
    /// format, and a person should be told which folder was taken instead.
    pub fallback: bool,
}

/// The workspace's memory folder of `format`; with none given, of the first registered format
/// that finds one there, else the first format's, which it starts on its first write.
pub fn open_workspace(
    workspace: &Path,
    format: Option<Format>,
    options: &OpenOptions,
) -> Result<Found, FormatError> {
    let found = |open, notes, fallback| Found {
        open,
        notes,
        fallback,
    };
    if let Some(format) = format {
        return match (registered(format)?.in_workspace)(workspace, options)? {
            InWorkspace::Found { open, notes } => Ok(found(open, notes, false)),
            InWorkspace::Startable(open) => Ok(found(open, Vec::new(), false)),
            InWorkspace::Missing(why) => Err(why),
        };
    }
    let mut startable = None;
    for (place, registered) in FORMATS.iter().enumerate() {
        match (registered.in_workspace)(workspace, options)? {
            InWorkspace::Found { open, notes } => return Ok(found(open, notes, place > 0)),
            InWorkspace::Startable(open) => {
                startable.get_or_insert(open);
            }
            // Looking further never stands in the way: a format whose folder is not there,
            // or could not be looked for, is passed over.
            InWorkspace::Missing(_) => {}
        }
    }
    let open = startable.ok_or_else(|| {
        FormatError::refused(format!(
            "no memory folder for {}; open one with --memory-dir PATH",
            workspace.display()
        ))
    })?;
    Ok(found(open, Vec::new(), false))
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
        let registered = registered(set.format).map_err(|e| e.to_string())?;
        (registered.open)(&path, options).map_err(|e| e.to_string())
    }
}
