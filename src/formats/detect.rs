//! Which format a folder is, and what every format opens a folder with: below the backends,
//! so every layer above ([`crate::folder`], `content`, the CLI, the workbench) names a format
//! through these types and never the other way round.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::claude::LoadLimits;
use crate::claude::fsread::{MAX_FILE_BYTES, read_regular};
use crate::store::{StoreOptions, manifest};

/// Which on-disk convention a memory folder follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The `.memory` contract: manifest, derived index, lock.
    Memory,
    /// Claude Code's auto memory: topic files and an agent-written MEMORY.md.
    Claude,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Memory => "memory",
            Self::Claude => "claude",
        }
    }

    /// For titles and messages.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Memory => ".memory contract",
            Self::Claude => "Claude Code auto memory",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "memory" => Ok(Self::Memory),
            "claude" => Ok(Self::Claude),
            other => Err(format!("unknown format {other:?}: use memory or claude")),
        }
    }
}

/// What [`detect`] makes of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detected {
    Format(Format),
    /// A `manifest.json` of another tool's schema: neither format; nothing may be written.
    Foreign {
        manifest: PathBuf,
        rule: String,
    },
}

/// The `.memory` contract when `dir/manifest.json` parses as its manifest; Claude Code when
/// there is no `manifest.json`; otherwise [`Detected::Foreign`]. Reads one file, writes nothing.
pub fn detect(dir: &Path) -> Detected {
    let path = dir.join(manifest::MANIFEST_FILE);
    let foreign = |rule: String| Detected::Foreign {
        manifest: path.clone(),
        rule,
    };
    match read_regular(&path, MAX_FILE_BYTES) {
        Ok(None) => Detected::Format(Format::Claude),
        Ok(Some(bytes)) => match manifest::parse_lenient(&bytes) {
            Ok(_) => Detected::Format(Format::Memory),
            Err(e) => foreign(e.to_string()),
        },
        Err(e) => foreign(e.to_string()),
    }
}

/// Options every backend needs to open a folder.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    pub store: StoreOptions,
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
