//! Copying memories between folders of any formats (`memwb copy --from`): the source's
//! backend reads what a copy takes of its memories ([`super::Backend::copy_sources`]); the target's
//! converts each to its own form, or refuses it with the reason, and files what is left as
//! one proposal ([`super::Backend::propose_copy`]). The conversions themselves are
//! `claude::copy`'s, written once for every pair of formats.

use crate::claude::copy::Source;

pub use crate::memory::Refusal;

/// The memories of a source folder as a copy takes them, in the set's order (a Claude Code
/// topic file with its exact text, which a copy into that format keeps byte for byte).
pub struct CopySources {
    read: Box<dyn CopyRead>,
    /// Only these, by name, when set ([`CopySources::only`]).
    only: Option<Vec<String>>,
}

/// A source folder as its backend read it for a copy (`src/formats/<name>/copy.rs`
/// implements it over its own reading): its memories, in the set's order, as the
/// conversions take them.
pub(crate) trait CopyRead: Send + Sync {
    fn sources(&self) -> Vec<Source<'_>>;
}

impl CopySources {
    /// What a backend read of its folder for a copy.
    pub(crate) fn new(read: impl CopyRead + 'static) -> Self {
        Self {
            read: Box::new(read),
            only: None,
        }
    }

    /// Every memory's name, in the set's order.
    pub fn names(&self) -> Vec<String> {
        self.all().iter().map(|s| s.name().to_owned()).collect()
    }

    /// The same sources narrowed to `names`, in that order.
    pub fn only(mut self, names: Vec<String>) -> Self {
        self.only = Some(names);
        self
    }

    fn all(&self) -> Vec<Source<'_>> {
        self.read.sources()
    }

    /// What a target converts: every source, or the ones [`CopySources::only`] names.
    pub(crate) fn sources(&self) -> Vec<Source<'_>> {
        let all = self.all();
        match &self.only {
            None => all,
            Some(names) => names
                .iter()
                .filter_map(|name| all.iter().copied().find(|s| s.name() == name))
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
