//! The command-line flags each format declares for itself, flattened into the command line's
//! folder flags: a new format adds its own here, and the command line names none of them.

use std::time::Duration;

use super::{Format, OpenOptions, WaitNotice};
use crate::claude::LoadLimits;

#[derive(clap::Args, Debug)]
pub(crate) struct FormatArgs {
    #[command(flatten)]
    claude: super::claude::args::Args,
    #[command(flatten)]
    memory: super::memory::args::IndexBudgets,
}

/// How a command waits for a folder's lock, whatever its format: at most `timeout`, and
/// `notice` is told once it has waited a second for another process.
pub(crate) struct Locking {
    pub(crate) timeout: Duration,
    pub(crate) notice: Option<WaitNotice>,
}

impl FormatArgs {
    /// The format a format's own flag asks for (`--claude`), if any.
    pub(crate) fn asked(&self) -> Option<Format> {
        self.claude.asked().then_some(Format::Claude)
    }

    /// What every format is opened with: each format's flags, and its lock waited for as
    /// `locking` says.
    pub(crate) fn open_options(&self, locking: Locking) -> OpenOptions {
        OpenOptions::new(self.memory.store_options(locking), self.limits())
    }

    /// The load limits of an agent's index the flags give.
    pub(crate) fn limits(&self) -> LoadLimits {
        self.claude.limits()
    }
}
