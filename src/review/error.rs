//! The review gate's errors: proposals, the journal and undo, in their own words. The engine's
//! errors pass through unchanged, so a message never borrows another layer's wording.

use std::fmt;
use std::path::PathBuf;

use crate::fs::FsError;

#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// A format's engine refused or failed (a conflict, a lock held too long, a refused
    /// name), in its own words. Each backend converts its engine's error into this (in
    /// `formats/<name>/journal/error.rs`), taking back out a refusal the journal made from
    /// inside the engine's change; callers ask [`ReviewError::is_conflict`] and the like
    /// rather than which engine it was.
    #[error(transparent)]
    Engine(EngineError),
    /// Reading or writing memwb's own state (the journal, proposals) failed.
    #[error(transparent)]
    Fs(#[from] FsError),
    #[error("{what} {path} is invalid: {rule}")]
    DataInvalid {
        what: &'static str,
        path: PathBuf,
        rule: String,
    },
    #[error("no proposal {id}")]
    ProposalNotFound { id: String },
    #[error("proposal {id} was already {status}")]
    ProposalDecided { id: String, status: &'static str },
    #[error("proposal {id} is stale: {detail}; nothing was applied")]
    ProposalStale { id: String, detail: String },
    #[error("proposal {id} was edited by someone else since it was opened; reopen it")]
    ProposalEdited { id: String },
    /// A reviewer's edit of a place in a proposal's change that writes no memory the
    /// proposal lets a reviewer change (a memory it only removes).
    #[error("proposal {id} writes no memory there to edit; it is unchanged")]
    NothingToEdit { id: String },
    /// A plan that does not parse: a tampered proposal file, or an edit that left no records.
    #[error("proposal {id} has an invalid plan: {rule}; nothing was applied")]
    PlanInvalid { id: String, rule: String },
    /// A stale proposal that cannot be re-planned against the current set.
    #[error("proposal {id} cannot be rebased: {rule}; it is unchanged")]
    RebaseRefused { id: String, rule: String },
    /// A proposal that cannot be filed as it is.
    #[error("invalid proposal: {rule}; nothing was filed")]
    ProposalInvalid { rule: String },
    /// A link where memwb's state belongs (`.memwb`, `proposals`, the journal, a proposal):
    /// never followed, since it could lead outside the workspace.
    #[error(
        "{path} is a symbolic link; memwb's state must be a real file inside .memory (remove the link); nothing was read or written through it"
    )]
    StateEscapes { path: PathBuf },
    #[error("{path} is not a directory; move it aside so that memwb can keep its state there")]
    StateNotADirectory { path: PathBuf },
    /// The change is in the set, but the mark after its commit point could not be written:
    /// the entry waits as an intent that recovery decides. `did` is what the change did, in
    /// the words its command answers ("changed alpha"), so a caller says it before the warning.
    #[error(
        "written, but not journaled: {detail}; the entry waits in {path} as an intent that `memwb check` reports and the next change records"
    )]
    NotJournaled {
        path: PathBuf,
        detail: String,
        did: String,
    },
    /// `memwb accept` of a code no record can carry.
    #[error("{code:?} is not a finding a record can carry; one of: {known}")]
    FindingCodeUnknown { code: String, known: String },
    /// `accept secret NAME` on a record that holds no credential now.
    #[error("{name:?} holds no {code} finding to accept")]
    NothingToAccept { code: String, name: String },
    #[error("no journal entry {id}")]
    EntryNotFound { id: u64 },
    #[error("cannot undo entry {id}: it was a {op}, which changed no memory")]
    NothingToUndo { id: u64, op: &'static str },
    #[error("cannot undo entry {id}: {detail}; nothing was changed")]
    UndoBlocked { id: u64, detail: String },
    /// Every change of the entry was a redaction: the secrets it replaced are kept nowhere.
    #[error(
        "cannot undo entry {id}: it redacted credentials, and a redacted secret is not restored (memwb keeps no copy of it anywhere); nothing was changed"
    )]
    RedactionNotRestorable { id: u64 },
}

pub type Result<T, E = ReviewError> = std::result::Result<T, E>;

/// What an undo found where a memory its entry wrote should be: said alike on every format,
/// by the memory's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FoundSince {
    Changed,
    Removed,
    /// A removal's undo, while a memory of that name is there again.
    AddedAgain,
}

impl ReviewError {
    /// The undo of entry `id` refused because memory `name` is not as the entry left it.
    pub(crate) fn undo_found(id: u64, name: &str, found: FoundSince) -> Self {
        let how = match found {
            FoundSince::Changed => "changed",
            FoundSince::Removed => "removed",
            FoundSince::AddedAgain => "added again",
        };
        Self::UndoBlocked {
            id,
            detail: format!("{name:?} was {how} since #{id}"),
        }
    }
}

/// What the review layer asks of an engine's error; each backend answers for its engine's.
pub trait EngineFault: std::error::Error + Send + Sync + 'static {
    /// The folder changed since it was read: reload and look again.
    fn is_conflict(&self) -> bool;

    /// Whether retrying later could succeed without anything being changed by hand.
    fn is_transient(&self) -> bool {
        false
    }

    /// On a conflict over a file's text, the text now (`None` too when the file is gone).
    fn current_text(&self) -> Option<&str> {
        None
    }

    /// Another program's write landed inside the change and was kept: the change was not
    /// made and nothing is lost.
    fn is_raced(&self) -> bool {
        false
    }

    /// What to run next to get past it, as lines a person reads (empty: no known way out).
    fn hints(&self) -> Vec<String> {
        Vec::new()
    }
}

/// An engine's error, boxed so that the layers above (the review gate, `formats`) name no
/// engine; its message and source are the engine's own.
pub struct EngineError(Box<dyn EngineFault>);

impl EngineError {
    /// An engine's error as it is.
    pub(crate) fn new(error: impl EngineFault) -> Self {
        Self(Box::new(error))
    }

    fn as_error(&self) -> &(dyn std::error::Error + 'static) {
        &*self.0
    }

    /// The engine's error, when it is one of type `E` (for the backend of that engine, and
    /// front ends that say more about one engine's errors).
    pub fn downcast_ref<E: EngineFault>(&self) -> Option<&E> {
        self.as_error().downcast_ref()
    }

    /// The folder changed since it was read: reload and look again.
    pub fn is_conflict(&self) -> bool {
        self.0.is_conflict()
    }

    /// On a conflict over a file's text, the text now (`None` too when the file is gone).
    pub fn current_text(&self) -> Option<&str> {
        self.0.current_text()
    }

    /// Another program's write landed inside the change and was kept.
    pub fn is_raced(&self) -> bool {
        self.0.is_raced()
    }

    /// What to run next to get past it (empty: no known way out).
    pub fn hints(&self) -> Vec<String> {
        self.0.hints()
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl ReviewError {
    /// An engine's error as it is: for a backend's conversion, which takes a refusal of the
    /// journal's back out of it first.
    pub fn engine(error: impl EngineFault) -> Self {
        Self::Engine(EngineError::new(error))
    }

    /// The engine's error, when it is one of type `E` (for the backend of that engine, and
    /// front ends that say more about one engine's errors).
    pub fn engine_error<E: EngineFault>(&self) -> Option<&E> {
        self.engine_fault()?.downcast_ref()
    }

    /// The engine's error, whatever the engine (`None`: the review gate's own).
    pub fn engine_fault(&self) -> Option<&EngineError> {
        match self {
            Self::Engine(engine) => Some(engine),
            _ => None,
        }
    }

    /// The engine's error by value when it is of type `E`, else the error unchanged: how a
    /// backend turns its engine's refusal into the review gate's words.
    pub fn into_engine_error<E: EngineFault>(self) -> Result<E, Self> {
        match self {
            Self::Engine(engine) if engine.as_error().is::<E>() => {
                let error: Box<dyn std::error::Error + Send + Sync> = engine.0;
                Ok(*error
                    .downcast::<E>()
                    .expect("the type was checked just before"))
            }
            other => Err(other),
        }
    }

    /// What an engine carried out of a change as its observer's refusal (`inner`): the review
    /// error it was, or else the engine's error `wrap` makes of it.
    pub(crate) fn from_observer<E: EngineFault>(
        inner: Box<dyn std::error::Error + Send + Sync>,
        wrap: impl FnOnce(Box<dyn std::error::Error + Send + Sync>) -> E,
    ) -> Self {
        match inner.downcast::<ReviewError>() {
            Ok(review) => *review,
            Err(other) => Self::engine(wrap(other)),
        }
    }

    /// What the journal hands an engine from inside its change: the engine's own error back,
    /// or this one boxed by `wrap` as the observer's refusal, which [`Self::from_observer`]
    /// takes back out.
    pub(crate) fn into_engine<E: EngineFault>(
        self,
        wrap: impl FnOnce(Box<dyn std::error::Error + Send + Sync>) -> E,
    ) -> E {
        match self.into_engine_error::<E>() {
            Ok(engine) => engine,
            Err(review) => wrap(Box::new(review)),
        }
    }

    /// The thing changed since it was read: reload and look again.
    pub fn is_conflict(&self) -> bool {
        match self {
            Self::Engine(engine) => engine.0.is_conflict(),
            Self::ProposalEdited { .. } => true,
            _ => false,
        }
    }

    /// Whether retrying later could succeed without anything being changed by hand.
    pub fn is_transient(&self) -> bool {
        matches!(self, Self::Engine(engine) if engine.0.is_transient())
    }

    /// On a conflict over a file's text, the text now (`None` too when the file is gone).
    pub fn current_text(&self) -> Option<&str> {
        match self {
            Self::Engine(engine) => engine.0.current_text(),
            _ => None,
        }
    }

    /// Another program's write landed inside the change and was kept: the change was not
    /// made and nothing is lost (a conflict, not a failure).
    pub fn is_raced(&self) -> bool {
        matches!(self, Self::Engine(engine) if engine.0.is_raced())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine's error, as a backend's would be.
    #[derive(Debug, thiserror::Error)]
    #[error("the folder changed: {0}")]
    struct Changed(&'static str);

    impl EngineFault for Changed {
        fn is_conflict(&self) -> bool {
            true
        }

        fn current_text(&self) -> Option<&str> {
            Some(self.0)
        }
    }

    /// Another engine's error.
    #[derive(Debug, thiserror::Error)]
    #[error("busy")]
    struct Busy;

    impl EngineFault for Busy {
        fn is_conflict(&self) -> bool {
            false
        }
    }

    #[test]
    fn an_engine_error_keeps_its_words_and_answers_for_itself() {
        let error = ReviewError::engine(Changed("theirs"));
        assert_eq!(error.to_string(), "the folder changed: theirs");
        assert!(error.is_conflict());
        assert!(!error.is_transient());
        assert_eq!(error.current_text(), Some("theirs"));
        assert_eq!(error.engine_error::<Changed>().map(|c| c.0), Some("theirs"));
        assert!(error.engine_error::<Busy>().is_none());
        let not_that = error.into_engine_error::<Busy>().expect_err("not Busy");
        let back = not_that.into_engine_error::<Changed>().expect("a Changed");
        assert_eq!(back.0, "theirs");
        let own = ReviewError::EntryNotFound { id: 3 };
        assert!(!own.is_conflict() && own.current_text().is_none());
    }
}
