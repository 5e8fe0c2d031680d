//! Copying memories between folders of any formats (`memwb copy --from`): the source's
//! backend reads what a copy takes of its memories ([`super::Backend::copy_sources`]), each a
//! [`Source`] in a form every format reads; the target's converts each to its own form, or
//! refuses it with the reason, and files what is left as one proposal
//! ([`super::Backend::propose_copy`]). A target takes a source of its own format as its exact
//! text and converts any other from its [`Memory`]: each backend's `copy.rs` says how, so this
//! layer names no format's engine.

use super::Format;
use crate::memory::Memory;

pub use crate::memory::Refusal;

/// One memory of a source folder as a copy takes it.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    /// The source folder's format: a target of the same format takes [`Source::text`] as it
    /// is, and converts from [`Source::memory`] otherwise.
    pub(crate) format: Format,
    /// The memory as the read model has it (name, type, description, body, file).
    pub(crate) memory: Memory,
    /// Its file's exact text, as its format keeps it.
    pub(crate) text: String,
    /// Why it does not read as a memory of any other format, in a refusal's words, when it
    /// does not (a Claude Code topic file whose frontmatter is not valid YAML): a copy within
    /// its format still keeps its text.
    pub(crate) unread: Option<String>,
}

impl Source {
    pub(crate) fn name(&self) -> &str {
        &self.memory.name
    }
}

/// The memories of a source folder as a copy takes them, in the set's order.
pub struct CopySources {
    all: Vec<Source>,
    /// Only these, by name, when set ([`CopySources::only`]).
    only: Option<Vec<String>>,
}

impl CopySources {
    /// What a backend read of its folder for a copy.
    pub(crate) fn new(all: Vec<Source>) -> Self {
        Self { all, only: None }
    }

    /// Every memory's name, in the set's order.
    pub fn names(&self) -> Vec<String> {
        self.all.iter().map(|s| s.name().to_owned()).collect()
    }

    /// The same sources narrowed to `names`, in that order.
    pub fn only(mut self, names: Vec<String>) -> Self {
        self.only = Some(names);
        self
    }

    /// What a target converts: every source, or the ones [`CopySources::only`] names.
    pub(crate) fn sources(&self) -> Vec<&Source> {
        match &self.only {
            None => self.all.iter().collect(),
            Some(names) => names
                .iter()
                .filter_map(|name| self.all.iter().find(|s| s.name() == name))
                .collect(),
        }
    }
}

/// What [`super::Backend::propose_copy`] did: the proposal filed (`None`: every memory was refused,
/// and nothing was filed), and each memory refused with why.
#[derive(Debug, Clone)]
pub struct Copied {
    pub id: Option<String>,
    pub refused: Vec<Refusal>,
}
