//! The evaluation of a folder of any format. Its cases (`evals.json`) and the model reply
//! cache (`eval-cache/`) live where the backend keeps memwb's state for the folder
//! ([`crate::formats::Backend::state_place`]: `.memory/.memwb/`, or a Claude Code folder's
//! state directory outside it); adding and removing a case takes the lock every memwb change
//! to the folder takes, so two editors never lose each other's case. The cases run over the
//! folder's memories as `memwb select` sees them.

use super::cases::{Case, add_case, remove_case};
use super::error::EvalError;
use super::run::Corpus;
use super::state::EvalState;
use crate::formats::{FormatError, Open};

/// One folder's evaluation.
#[derive(Clone)]
pub struct FolderEval {
    open: Open,
    state: EvalState,
}

impl FolderEval {
    /// The evaluation of `open`, where its backend keeps memwb's state.
    pub fn open(open: &Open) -> Result<Self, EvalError> {
        let state = EvalState::of(&*open.backend())?;
        Ok(Self {
            open: open.clone(),
            state,
        })
    }

    pub fn state(&self) -> &EvalState {
        &self.state
    }

    /// The memories the cases run against, read now.
    pub fn corpus(&self) -> Result<Corpus, EvalError> {
        Ok(Corpus::read(&*self.open.backend()).map_err(FormatError::from)?)
    }

    /// Appends `case` (every name must be a memory's name now) under the folder's lock and
    /// returns its number (from 1).
    pub fn add_case(&self, case: Case) -> Result<usize, EvalError> {
        add_case(&*self.open.backend(), &self.state, case)
    }

    /// Removes case `number` (from 1) under the folder's lock and returns it.
    pub fn remove_case(&self, number: usize) -> Result<Case, EvalError> {
        remove_case(&*self.open.backend(), &self.state, number)
    }
}
