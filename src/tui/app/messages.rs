//! The status line and its log (`M`), where each event is said once. The watcher may report
//! one of the workbench's own commits before the job that made it finishes: when the job's
//! result leaves the folder in the state the watcher reported, the job's message replaces the
//! watcher's. It may also report it after the job's result, which then was not shown when the
//! watcher delivered a reading while the job ran (a save that waited for the lock): that report
//! is the job's commit too, and says nothing. A regression announced before its journal entry was written, then blamed on
//! that entry, restates the first announcement instead of adding a second.

use super::{App, LOG_SIZE, StatusKind, StatusLine};
use crate::formats::Shown;

/// How many of our commits not shown are kept until the watcher reports them: more than the
/// jobs that run at once.
const OWN_UNSHOWN_KEPT: usize = 8;

/// What the watcher said while one of our jobs ran, and the state it said it of.
#[derive(Debug, Clone)]
pub(super) struct WatcherSaid {
    text: String,
    /// The folder as the watcher reported it.
    state: Shown,
}

impl App {
    pub fn set_status(&mut self, kind: StatusKind, text: String) {
        let status = StatusLine { kind, text };
        if self.log.len() == LOG_SIZE {
            self.log.pop_front();
        }
        self.log.push_back(status.clone());
        self.status = Some(status);
    }

    /// The watcher's news of a change to the folder, now in `state`: it may be a running
    /// job's own commit, which the job's result then says instead.
    pub(super) fn say_watched(&mut self, kind: StatusKind, text: String, state: Shown) {
        if self.busy > 0 {
            self.watcher_said.push(WatcherSaid {
                text: text.clone(),
                state,
            });
        }
        self.set_status(kind, text);
    }

    /// One of our jobs committed, leaving the folder in `state`: what the watcher said of
    /// that same state while the job ran was this commit, and leaves the log (the job's
    /// result says it).
    pub(super) fn own_commit_done(&mut self, state: &Shown) {
        let said = std::mem::take(&mut self.watcher_said);
        for said in said {
            if said.state.same_state(state) {
                self.unsay(&said.text);
            } else if self.busy > 0 {
                self.watcher_said.push(said);
            }
        }
    }

    /// One of our jobs committed, leaving the folder in `state`, which is not shown (a reading
    /// the watcher delivered while the job ran stands): the watcher's report of it is to come.
    pub(super) fn own_commit_unshown(&mut self, state: Shown) {
        if self.own_unshown.len() == OWN_UNSHOWN_KEPT {
            self.own_unshown.remove(0);
        }
        self.own_unshown.push(state);
    }

    /// Whether the watcher's reading `state` is what one of our commits left and was not shown:
    /// then it, and those of ours before it, have been reported.
    pub(super) fn is_own_unshown(&mut self, state: &Shown) -> bool {
        let Some(at) = self
            .own_unshown
            .iter()
            .position(|own| own.same_state(state))
        else {
            return false;
        };
        self.own_unshown.drain(..=at);
        true
    }

    /// Takes the newest message `text` out of the log (and off the status line).
    fn unsay(&mut self, text: &str) {
        if let Some(at) = self.log.iter().rposition(|s| s.text == text) {
            self.log.remove(at);
        }
        if self.status.as_ref().is_some_and(|s| s.text == text) {
            self.status = self.log.back().cloned();
        }
    }

    /// Replaces `old` with `new` in the newest message that holds it, on the status line too
    /// when it is shown there; said afresh when no message holds it any more.
    pub(super) fn restate(&mut self, kind: StatusKind, old: &str, new: &str) {
        let Some(at) = self.log.iter().rposition(|s| s.text.contains(old)) else {
            self.set_status(kind, new.to_owned());
            return;
        };
        let before = self.log[at].text.clone();
        let after = before.replacen(old, new, 1);
        self.log[at].text = after.clone();
        if let Some(status) = &mut self.status
            && status.text == before
        {
            status.text = after;
        }
    }
}
