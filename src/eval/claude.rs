//! The evaluation of a Claude Code folder. Its cases (`evals.json`) and the model reply cache
//! (`eval-cache/`) live in the folder's state directory ([`ClaudeState`], outside the folder:
//! Claude Code would take any file inside it for a memory), read and replaced through
//! [`EvalState::at`]; adding and removing a case takes the state directory's lock, the one
//! every memwb process takes around a change to that folder, so two editors never lose each
//! other's case. The cases run over the folder's topic files as `memwb select` sees them.

use super::cases::{Case, add_case_locked, remove_case_locked};
use super::error::EvalError;
use super::run::Corpus;
use super::state::EvalState;
use crate::claude::{ClaudeFolder, ClaudeState};
use crate::formats::Backend;
use crate::formats::claude::ClaudeBackend;

/// One Claude Code folder's evaluation.
#[derive(Debug, Clone)]
pub struct ClaudeEval {
    folder: ClaudeFolder,
    claude_state: ClaudeState,
    state: EvalState,
}

impl ClaudeEval {
    /// The evaluation of `folder`, in its state directory (created if needed).
    pub fn open(folder: &ClaudeFolder) -> Result<Self, EvalError> {
        let claude_state = ClaudeState::for_folder(folder)?;
        let state = EvalState::at(claude_state.path());
        Ok(Self {
            folder: folder.clone(),
            claude_state,
            state,
        })
    }

    pub fn state(&self) -> &EvalState {
        &self.state
    }

    /// The topic files the cases run against, read now.
    pub fn corpus(&self) -> Corpus {
        let reading = ClaudeBackend::new(&self.folder).read();
        // A Claude Code folder always reads (a file that does not is listed with why).
        reading.map(Corpus::from).unwrap_or_default()
    }

    /// Appends `case` (every name must be a topic file's name now) under the state lock and
    /// returns its number (from 1).
    pub fn add_case(&self, case: Case) -> Result<usize, EvalError> {
        case.validate()
            .map_err(|rule| EvalError::InvalidCase { rule })?;
        let _lock = self.claude_state.lock()?;
        let corpus = self.corpus();
        add_case_locked(&self.state, case, &|name| corpus.contains(name))
    }

    /// Removes case `number` (from 1) under the state lock and returns it.
    pub fn remove_case(&self, number: usize) -> Result<Case, EvalError> {
        let _lock = self.claude_state.lock()?;
        remove_case_locked(&self.state, number)
    }
}
