//! Opening a memory folder over the registered formats (src/formats/registry.rs), each with
//! how it recognises a folder and how it opens one, and the open folder ([`Open`]) every
//! command and view works on.

use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::registry::{FORMATS, registered};
use super::{Backend, Detected, Format, FormatError, OpenOptions, Summary, detect};
use crate::locks::WaitNotice;
use crate::review::Entry;
use crate::review::journal::KeptTail;

/// One open memory folder, held by its format's engine (a [`Store`](crate::store::Store),
/// a [`ClaudeFolder`](crate::claude::ClaudeFolder)), which a backend makes into one
/// (`Open::from(store)`). Everything above reads and changes the folder through
/// [`Open::backend`]; a clone (into a watcher, a background job) is the engine's own clone,
/// which the engines make cheap, and shares with this one the journal's tail as last read
/// ([`Open::journal_tail`]).
pub struct Open {
    engine: Box<dyn Engine>,
    journal: Arc<KeptTail>,
}

/// What an open folder's engine answers for [`Open`], so that `Open` names no format: each
/// backend implements it on its engine (`src/formats/<name>/mod.rs`).
pub(crate) trait Engine: Any + Send + Sync {
    /// The folder through its format's backend.
    fn backend(&self) -> Box<dyn Backend + '_>;
    /// The memory folder itself.
    fn root(&self) -> &Path;
    /// The same folder, opened again (the engine cloned).
    fn reopen(&self) -> Open;
    /// The same folder, telling `notice` when a change waits for another writer's lock.
    fn with_lock_notice(self: Box<Self>, notice: Option<WaitNotice>) -> Open;
    /// What a lock wait is about, as a person knows the folder.
    fn lock_label(&self) -> String;
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
        None => match detect(dir) {
            Detected::Format(format) => Some(registered(format)?),
            Detected::Refused(why) => return Err(FormatError::Refused(why)),
            Detected::Unknown => None,
        },
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

impl Clone for Open {
    fn clone(&self) -> Self {
        self.engine.reopen().sharing_journal(self)
    }
}

impl Open {
    /// `engine`'s folder, open: how a backend makes an `Open` of its engine.
    pub(crate) fn new(engine: impl Engine) -> Self {
        Self {
            engine: Box::new(engine),
            journal: Arc::default(),
        }
    }

    /// This (reopened) folder, keeping the journal's tail as `open` read it last.
    fn sharing_journal(mut self, open: &Open) -> Self {
        self.journal = Arc::clone(&open.journal);
        self
    }

    /// The folder through its format's backend: what every command reads and writes by.
    pub fn backend(&self) -> Box<dyn Backend + '_> {
        self.engine.backend()
    }

    pub fn format(&self) -> Format {
        self.engine.backend().format()
    }

    /// The memory folder itself (`<workspace>/.memory`, or the Claude Code folder).
    pub fn root(&self) -> &Path {
        self.engine.root()
    }

    /// The folder's engine when it is an `E` (a [`Store`](crate::store::Store), a
    /// [`ClaudeFolder`](crate::claude::ClaudeFolder)), for what only that engine's own API
    /// does; `None` on a folder of another format.
    pub fn engine<E: Any>(&self) -> Option<&E> {
        let engine: &dyn Any = &*self.engine;
        engine.downcast_ref()
    }

    /// The same folder, telling `notice` when a change waits for another writer's lock.
    pub fn with_lock_notice(self, notice: Option<WaitNotice>) -> Self {
        let journal = Arc::clone(&self.journal);
        let mut open = self.engine.with_lock_notice(notice);
        open.journal = journal;
        open
    }

    /// The journal's newest `last` entries, oldest first, as it reads now (nothing resolved
    /// or written): only what was appended since this folder or a clone of it last read them
    /// is parsed (the tail kept parsed across readings, shared by the clones).
    pub fn journal_tail(&self, last: usize) -> Result<Vec<Arc<Entry>>, FormatError> {
        let journal = self.backend().journal_as_is()?;
        Ok(journal.last_entries_kept(last, &self.journal)?)
    }

    /// What a lock wait is about, as a person knows the folder: `.memory`, or the folder.
    pub fn lock_label(&self) -> String {
        self.engine.lock_label()
    }

    /// Opens the folder a row of `memwb sets` names.
    pub fn open_set(set: &Summary, options: &OpenOptions) -> Result<Self, String> {
        let path = PathBuf::from(&set.path);
        let registered = registered(set.format).map_err(|e| e.to_string())?;
        (registered.open)(&path, options).map_err(|e| e.to_string())
    }
}
