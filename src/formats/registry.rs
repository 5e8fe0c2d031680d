//! The registration: every format memwb reads and writes, one line each naming its backend's
//! [`Registered`] entry, and what a folder is opened with per format (its command-line flags,
//! its options). Above the backends, this is the one file that names a format
//! (`tests/architecture/registration.rs`); docs/architecture.md, "Adding a backend".

use std::path::Path;

use super::discover::{Entered, Look, Sightings};
use super::open::{InWorkspace, Recognized};
use super::{Format, FormatError, Open};
use crate::claude::LoadLimits;
use crate::store::StoreOptions;

/// Every format, asked in this order when a folder's format is not given: the first that
/// recognises the folder opens it. `.memory` comes first, as its manifest is the stricter sign;
/// Claude Code, whose folders carry no sign of their own, is asked last and takes the rest.
pub(crate) const FORMATS: &[Registered] = &[super::memory::REGISTERED, super::claude::REGISTERED];

/// A format memwb reads and writes, as its backend registers it (`REGISTERED` in
/// `src/formats/<name>/mod.rs`): how it recognises a folder, how it opens one, where a
/// workspace and an agent's config folder keep its folders.
pub(crate) struct Registered {
    /// Its name (`--format`, JSON) and how titles describe it.
    pub(crate) format: Format,
    pub(crate) recognize: fn(&Path) -> Recognized,
    pub(crate) open: fn(&Path, &OpenOptions) -> Result<Open, FormatError>,
    /// Where the agent whose memory this format is keeps its configuration, as the
    /// environment says (`None`: the format has no agent folder of its own, or the
    /// environment names none): the agents' config folder discovery looks under.
    #[cfg(any(feature = "cli", feature = "tui"))]
    pub(crate) agent_config: fn() -> Option<std::path::PathBuf>,
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

/// The registered `format`, refused in words when no backend serves it.
pub(crate) fn registered(format: Format) -> Result<&'static Registered, FormatError> {
    FORMATS
        .iter()
        .find(|r| r.format == format)
        .ok_or_else(|| FormatError::refused(format!("no backend for {}", format.describe())))
}

/// Options every backend needs to open a folder: one field per format that takes any.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    /// How `.memory` stores open (their index budgets, and the lock wait every format's
    /// changes share).
    pub store: StoreOptions,
    /// The load limits an agent applies to a Claude Code index.
    pub claude: LoadLimits,
}

impl OpenOptions {
    /// How `.memory` stores open (`store`) and the load limits an agent applies to an index
    /// (`limits`).
    pub fn new(store: StoreOptions, limits: LoadLimits) -> Self {
        Self {
            store,
            claude: limits,
        }
    }
}

/// The command-line flags each format declares for itself (`src/formats/<name>/args.rs`),
/// flattened into the command line's folder flags, which name none of them.
#[cfg(feature = "cli")]
#[derive(clap::Args, Debug)]
pub(crate) struct FormatArgs {
    #[command(flatten)]
    claude: super::claude::args::Args,
    #[command(flatten)]
    memory: super::memory::args::IndexBudgets,
}

#[cfg(feature = "cli")]
impl FormatArgs {
    /// The format a format's own flag asks for (`--claude`), if any.
    pub(crate) fn asked(&self) -> Option<Format> {
        self.claude.asked().then_some(super::claude::FORMAT)
    }

    /// What every format is opened with: each format's flags, and its lock waited for as
    /// `locking` says.
    pub(crate) fn open_options(&self, locking: super::Locking) -> OpenOptions {
        OpenOptions::new(self.memory.store_options(locking), self.limits())
    }

    /// The load limits of an agent's index the flags give.
    pub(crate) fn limits(&self) -> LoadLimits {
        self.claude.limits()
    }
}
