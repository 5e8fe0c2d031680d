//! The command-line flags each format declares for itself, flattened into the command line's
//! folder flags: a new format adds its own here, and the command line names none of them.

use super::{Format, OpenOptions};
use crate::claude::LoadLimits;
use crate::store::StoreOptions;

#[derive(clap::Args, Debug)]
pub(crate) struct FormatArgs {
    #[command(flatten)]
    claude: super::claude::args::Args,
}

impl FormatArgs {
    /// The format a format's own flag asks for (`--claude`), if any.
    pub(crate) fn asked(&self) -> Option<Format> {
        self.claude.asked().then_some(Format::Claude)
    }

    /// What every format is opened with: the engines' options and the load limits given.
    pub(crate) fn open_options(&self, store: StoreOptions) -> OpenOptions {
        OpenOptions::new(store, self.limits())
    }

    /// The load limits of an agent's index the flags give.
    pub(crate) fn limits(&self) -> LoadLimits {
        self.claude.limits()
    }
}
