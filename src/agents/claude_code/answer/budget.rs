//! The hook's fixed time budget. Claude Code kills a hook after its timeout and then lets the
//! call through with nothing said, so the hook answers well inside it, whatever happens:
//! the runner keeps here what to answer if the time runs out (a deny once it knows a gated
//! write is being decided in review mode; a line for `hook.log` once a change is being
//! journaled in record mode), and the state lock is waited for only until the deadline.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::Answer;
use crate::agents::claude_code::hook::output::{deny, undecided_reason};
use crate::claude::LockWaitPolicy;

/// The most time the hook takes to answer (docs/claude-code.md, "The time budget").
pub const BUDGET: Duration = Duration::from_secs(2);

/// What is left of the budget for the runner's own lock wait: it gives up this much before
/// the deadline, so that its own, more specific answer comes first.
const MARGIN: Duration = Duration::from_millis(300);

/// The deadline and the answer to give when it passes.
#[derive(Debug, Clone)]
pub struct Budget {
    deadline: Instant,
    fallback: Arc<Mutex<Option<Answer>>>,
}

impl Budget {
    pub fn until(deadline: Instant) -> Self {
        Self {
            deadline,
            fallback: Arc::default(),
        }
    }

    fn keep(&self, answer: Answer) {
        *self.fallback.lock().unwrap_or_else(|p| p.into_inner()) = Some(answer);
    }

    /// A gated write in review mode is being decided: out of time, it is denied.
    pub fn undecided(&self, folder: &str, tool: &str) {
        let why = "it took longer than memwb's time budget";
        let mut answer = Answer::default().say(deny(&undecided_reason(folder, tool, why)));
        answer.problems.push(format!(
            "{tool} into {folder}: no decision within the {} s budget, denied",
            BUDGET.as_secs()
        ));
        self.keep(answer);
    }

    /// A change made in record mode is being journaled: out of time, the log says so.
    pub fn unjournaled(&self, folder: &str) {
        self.keep(Answer::default().problem(format!(
            "a change to {folder} could not be journaled within the {} s budget; `memwb watch --record` journals it when it runs, and `memwb check` shows the folder as it is",
            BUDGET.as_secs()
        )));
    }

    /// Why a gated write in review mode is denied when it could not be decided.
    pub fn undecided_reason(
        &self,
        folder: &str,
        tool: &str,
        why: &dyn std::fmt::Display,
    ) -> String {
        undecided_reason(folder, tool, &why.to_string())
    }

    /// The state lock is waited for until just before the deadline.
    pub fn lock_wait(&self) -> LockWaitPolicy {
        LockWaitPolicy {
            timeout: self
                .deadline
                .saturating_duration_since(Instant::now())
                .saturating_sub(MARGIN),
            notice: None,
        }
    }

    /// The answer when time ran out: what was kept, else none (the call could not be told
    /// to concern a gated folder at all: it fails open).
    pub fn expired(&self) -> Answer {
        self.fallback
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .unwrap_or_else(|| {
                Answer::default().problem(format!(
                    "no answer within the {} s budget (reading the input or finding the folder); no decision",
                    BUDGET.as_secs()
                ))
            })
    }

    pub fn deadline(&self) -> Instant {
        self.deadline
    }
}
