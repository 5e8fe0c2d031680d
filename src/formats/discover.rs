//! Finding a format's folders on a machine: what each registered format says about the places
//! it keeps folders itself (an agent's config folder) and about each directory a scan of the
//! roots enters. The walk itself, its bounds and what it skips are the neutral layer's
//! ([`crate::folder::sets`]); which directory is whose folder is the backends'.

use std::path::Path;

use super::Format;

/// Where a scan reports what the formats found.
pub(crate) trait Sightings {
    /// `path` is a memory folder of `format` (`slug`: the project key a format files it
    /// under, when it has one).
    fn folder(&mut self, format: Format, path: &Path, slug: Option<String>);
    /// `path` looks like a memory folder but must not be taken for one: why.
    fn skipped(&mut self, path: &Path, why: String);
}

/// A directory a scan of the roots enters.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entered<'a> {
    pub(crate) path: &'a Path,
    /// Its file name.
    pub(crate) name: &'a str,
    /// 0 for a root itself.
    pub(crate) depth: usize,
    /// Whether the walk is inside a folder a format found by its shape ([`Look::Folder`]).
    pub(crate) inside_folder: bool,
}

/// What one format makes of a directory a scan enters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Look {
    /// Nothing of this format's: the next format is asked.
    Pass,
    /// The directory is a folder of this format (reported) and the walk goes on inside it:
    /// what is inside is [`Entered::inside_folder`].
    Folder,
    /// Everything in it is accounted for (reported): the walk does not go inside.
    Done,
}

/// The folder agents keep their configuration (and some of their memory) in, as the
/// environment says: the first a registered format names (`Registered::agent_config`), which
/// each format's `known` (`formats::FORMATS`) looks under.
#[cfg(any(feature = "cli", feature = "tui"))]
pub(crate) fn agent_config() -> Option<std::path::PathBuf> {
    super::FORMATS
        .iter()
        .find_map(|format| (format.agent_config)())
}
