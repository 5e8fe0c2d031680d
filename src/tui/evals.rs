//! The workbench's evaluation: after every commit (by anyone) the set's cases re-run with the
//! keyword selector, off the UI thread; a case that passed and now fails is announced and
//! marked; each pending proposal's effect on the cases is computed on the set as it would be.

use std::collections::HashMap;

use crate::review::eval::{
    self, Case, CaseChanges, CaseResult, Corpus, DEFAULT_K, EvalState, Verdict,
};
use crate::review::{Entry, Journal, Plan};
use crate::store::{Record, Store};

/// What a background run needs: the set as the workbench shows it, and the pending plans.
#[derive(Debug, Clone)]
pub struct EvalRequest {
    pub corpus: Corpus,
    pub proposals: Vec<(String, Plan)>,
}

/// A finished run.
#[derive(Debug, Clone)]
pub struct Evaluated {
    /// The records the cases ran against.
    pub records: Vec<Record>,
    pub cases: Vec<Case>,
    pub results: Vec<CaseResult>,
    /// Per pending proposal: what approving it would change.
    pub effects: Vec<(String, CaseChanges)>,
    /// The journal's last entry, when the set is as that entry left it: the commit a
    /// regression is blamed on.
    pub blame: Option<u64>,
    /// Why the cases could not be read.
    pub error: Option<String>,
}

/// Loads the cases and runs them (blocking: call it off the UI thread).
pub fn evaluate(store: &Store, request: EvalRequest) -> Evaluated {
    let blame = Journal::of(store)
        .entries()
        .ok()
        .and_then(|entries| entries.last().cloned())
        .filter(|entry| left_as(entry, &request.corpus))
        .map(|entry| entry.id);
    let (cases, error) = match eval::load_cases(&EvalState::of(store)) {
        Ok(cases) => (cases, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let results = eval::run_keyword(&request.corpus, &cases, DEFAULT_K).results;
    let effects = if cases.is_empty() {
        Vec::new()
    } else {
        request
            .proposals
            .iter()
            .map(|(id, plan)| {
                let after = request.corpus.after(plan);
                let changes = CaseChanges::between(&request.corpus, &after, &cases, DEFAULT_K);
                (id.clone(), changes)
            })
            .collect()
    };
    Evaluated {
        records: request.corpus.records,
        cases,
        results,
        effects,
        blame,
        error,
    }
}

/// Whether `corpus` is as `entry` left it: every record it wrote is there unchanged, every one
/// it removed is gone. (A commit that memwb did not journal leaves the set otherwise.)
fn left_as(entry: &Entry, corpus: &Corpus) -> bool {
    let changed = !entry.before.is_empty() || !entry.after.is_empty();
    let written = entry.after.iter().all(|after| {
        corpus
            .records
            .iter()
            .any(|r| r.name() == after.record.name && r.to_input() == after.record)
    });
    let removed = entry
        .before
        .iter()
        .filter(|b| !entry.after.iter().any(|a| a.record.name == b.record.name))
        .all(|b| !corpus.records.iter().any(|r| r.name() == b.record.name));
    changed && written && removed
}

type CaseKey = (String, Vec<String>, Vec<String>);

fn key(case: &CaseResult) -> CaseKey {
    (case.query.clone(), case.expect.clone(), case.forbid.clone())
}

/// One case as the Query pane lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseRow {
    pub result: CaseResult,
    /// "since #14" when it passed before a commit and fails since.
    pub regressed: Option<String>,
}

/// The latest run, and what the one before said about each case.
#[derive(Debug, Default)]
pub struct Evals {
    pub rows: Vec<CaseRow>,
    /// Per proposal id: "approving this changes 2 cases: +1 pass, -1 fail".
    pub effects: HashMap<String, String>,
    pub error: Option<String>,
    /// A run is needed (the set, the cases or the proposals may have changed).
    pub due: bool,
    pub running: bool,
    verdicts: HashMap<CaseKey, Verdict>,
    regressed: HashMap<CaseKey, String>,
    /// Regressions announced before their journal entry was written (it follows the commit):
    /// blamed on it when a later run finds it.
    unblamed: Vec<CaseKey>,
    evaluated: Option<Vec<Record>>,
    last_blame: Option<u64>,
}

impl Evals {
    /// Before the first run, which is due at once (it is the baseline announcements compare to).
    pub fn new() -> Self {
        Self {
            due: true,
            ..Self::default()
        }
    }

    /// The records of the last run (`None` before the first).
    pub fn evaluated(&self) -> Option<&[Record]> {
        self.evaluated.as_deref()
    }

    /// Takes a finished run; returns one announcement per case that passed before a change to
    /// the set and does not now (and again, with its journal entry, for one announced before
    /// the entry was written).
    pub fn apply(&mut self, done: Evaluated) -> Vec<String> {
        self.running = false;
        let set_changed = self
            .evaluated
            .as_ref()
            .is_some_and(|before| *before != done.records);
        let fresh_blame = done.blame.filter(|id| Some(*id) != self.last_blame);
        let since = match fresh_blame {
            Some(id) => format!("since #{id}"),
            None => "since the last commit".to_owned(),
        };
        if set_changed {
            self.unblamed.clear();
        }
        let mut announcements = Vec::new();
        let mut verdicts = HashMap::new();
        for result in &done.results {
            let key = key(result);
            let verdict = result.verdict();
            let passed = self.verdicts.get(&key) == Some(&Verdict::Pass);
            let late_blame = !set_changed && fresh_blame.is_some() && self.unblamed.contains(&key);
            if verdict == Verdict::Pass {
                self.regressed.remove(&key);
            } else if (set_changed && passed) || late_blame {
                announcements.push(format!(
                    "eval: '{}' {} {since}",
                    label(result),
                    what_broke(result)
                ));
                self.regressed.insert(key.clone(), since.clone());
                if fresh_blame.is_none() {
                    self.unblamed.push(key.clone());
                }
            }
            verdicts.insert(key, verdict);
        }
        if fresh_blame.is_some() && !set_changed {
            self.unblamed.clear();
        }
        self.regressed.retain(|k, _| verdicts.contains_key(k));
        self.verdicts = verdicts;
        self.rows = done
            .results
            .into_iter()
            .map(|result| CaseRow {
                regressed: self.regressed.get(&key(&result)).cloned(),
                result,
            })
            .collect();
        self.effects = done
            .effects
            .into_iter()
            .map(|(id, changes)| (id, changes.describe()))
            .collect();
        self.error = done.error;
        self.evaluated = Some(done.records);
        self.last_blame = done.blame.or(self.last_blame);
        announcements
    }

    pub fn passing(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.result.verdict() == Verdict::Pass)
            .count()
    }
}

fn label(result: &CaseResult) -> String {
    Case {
        query: result.query.clone(),
        expect: Vec::new(),
        forbid: Vec::new(),
        note: None,
    }
    .label()
}

/// "no longer selects no-mocked-database", "now selects prefers-tabs (forbidden)", or what
/// left the set.
fn what_broke(result: &CaseResult) -> String {
    if let Some(forbidden) = result.forbidden.first() {
        return format!("now selects {forbidden} (forbidden)");
    }
    let missed = result
        .expect
        .iter()
        .find(|n| !result.broken.contains(n) && !result.selected.contains(n));
    match (missed, result.broken.first()) {
        (Some(name), _) => format!("no longer selects {name}"),
        (None, Some(gone)) => format!("expects {gone}, which left the set"),
        (None, None) => "no longer passes".to_owned(),
    }
}
