//! Which format a folder is: below the backends, so every layer above ([`crate::folder`],
//! `content`, the CLI, the workbench) names a format through these types and never the other
//! way round. The formats themselves are the registration's (src/formats/registry.rs).

use std::fmt;
use std::path::Path;

use serde::{Serialize, Serializer};

use super::open::Recognized;
use super::registry::FORMATS;

/// Which on-disk convention a memory folder follows: a registered format's name, as
/// `--format` takes it and JSON writes it, and how titles describe it. Each backend declares
/// its own (`formats::memory::FORMAT`, `formats::claude::FORMAT`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Format {
    name: &'static str,
    description: &'static str,
}

impl Format {
    /// A format called `name` (lowercase, as `--format` takes it), described for titles and
    /// messages as `description`.
    pub(crate) const fn new(name: &'static str, description: &'static str) -> Self {
        Self { name, description }
    }

    pub fn as_str(self) -> &'static str {
        self.name
    }

    /// For titles and messages.
    pub fn describe(self) -> &'static str {
        self.description
    }
}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl Serialize for Format {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FORMATS
            .iter()
            .map(|registered| registered.format)
            .find(|format| format.name == s)
            .ok_or_else(|| {
                let names: Vec<&str> = FORMATS.iter().map(|r| r.format.name).collect();
                format!("unknown format {s:?}: use {}", names.join(" or "))
            })
    }
}

/// What [`detect`] makes of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Detected {
    Format(Format),
    /// It looks like a format's folder but must not be touched (a `manifest.json` of another
    /// tool's schema): why; nothing may be written.
    Refused(String),
    /// No registered format takes the folder.
    Unknown,
}

/// The first registered format that recognises `dir`, asked in the registration's order (the
/// `.memory` contract when `dir/manifest.json` parses as its manifest, else Claude Code); or
/// why the folder must not be touched. Reads, writes nothing.
pub fn detect(dir: &Path) -> Detected {
    for registered in FORMATS {
        match (registered.recognize)(dir) {
            Recognized::Yes => return Detected::Format(registered.format),
            Recognized::No => {}
            Recognized::Refused(why) => return Detected::Refused(why),
        }
    }
    Detected::Unknown
}
