//! How Claude Code's auto memory is registered (`REGISTERED`, listed in
//! src/formats/registry.rs): it takes the folders the formats asked before it pass, opens as a
//! [`ClaudeFolder`], and the folder is the engine an [`Open`] holds.

use std::path::Path;

use super::locate::{holds_memories, in_workspace};
use super::{ClaudeBackend, FORMAT, discover};
use crate::claude::{ClaudeFolder, LockWaitPolicy};
use crate::formats::{Backend, Engine, FormatError, Open, OpenOptions, Recognized, Registered};
use crate::locks::WaitNotice;

/// Claude Code's auto memory, as the registration lists it: asked last.
pub(crate) const REGISTERED: Registered = Registered {
    format: FORMAT,
    recognize,
    open,
    #[cfg(any(feature = "cli", feature = "tui"))]
    agent_config: discover::config_folder,
    known: discover::known,
    look: discover::look,
    in_workspace,
    holds_memories,
    inside_workspace: None,
};

/// Any folder: a Claude Code folder carries no sign of its own (one holding no memory yet
/// may be started as one), so the registration asks this format after the ones that have a
/// sign, and it takes what they pass (a folder without a `.memory` manifest). Whether the
/// folder holds any memory is `holds_memories`'s to say.
fn recognize(_dir: &Path) -> Recognized {
    Recognized::Yes
}

/// Opens the folder; its changes wait for the state lock as long as a `.memory` writer
/// waits for its lock.
pub(super) fn open(dir: &Path, options: &OpenOptions) -> Result<Open, FormatError> {
    let folder = ClaudeFolder::open(dir, options.claude)?;
    Ok(Open::from(folder.with_lock_wait(LockWaitPolicy {
        timeout: options.store.lock.timeout,
        notice: None,
    })))
}

impl From<ClaudeFolder> for Open {
    fn from(folder: ClaudeFolder) -> Self {
        Open::new(folder)
    }
}

impl Engine for ClaudeFolder {
    fn backend(&self) -> Box<dyn Backend + '_> {
        Box::new(ClaudeBackend::new(self))
    }

    fn root(&self) -> &Path {
        ClaudeFolder::root(self)
    }

    fn reopen(&self) -> Open {
        Open::new(self.clone())
    }

    fn with_lock_notice(self: Box<Self>, notice: Option<WaitNotice>) -> Open {
        let timeout = self.lock_wait().timeout;
        Open::new((*self).with_lock_wait(LockWaitPolicy { timeout, notice }))
    }

    fn lock_label(&self) -> String {
        ClaudeFolder::root(self).display().to_string()
    }
}
