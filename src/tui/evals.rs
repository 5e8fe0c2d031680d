//! The workbench's evaluation: after every commit (by anyone) the set's cases re-run with the
//! keyword selector, off the UI thread; a case that passed and now fails is announced and
//! marked; each pending proposal's effect on the cases is computed on the set as it would be.
//! One path for every format: the cases where the backend keeps memwb's state, the set as a
//! proposal would leave it and the change a regression is blamed on from the backend.

use std::collections::HashMap;

use crate::eval::{
    self, Case, CaseChanges, CaseResult, Corpus, DEFAULT_K, EvalError, FolderEval, Verdict,
};
use crate::formats::{Backend, Open};
use crate::memory::Memory;
use crate::review::Proposal;

/// What a background run needs: the set as the workbench shows it, and the pending proposals
/// that still apply.
#[derive(Debug, Clone)]
pub struct EvalRequest {
    /// The memories the cases run against, as the workbench shows them.
    pub corpus: Corpus,
    pub proposals: Vec<Proposal>,
}

/// A finished run.
#[derive(Debug, Clone)]
pub struct Evaluated {
    /// The memories the cases ran against (what a later run compares with to tell a change).
    pub memories: Vec<Memory>,
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
pub fn evaluate(open: &Open, request: EvalRequest) -> Evaluated {
    let backend = open.backend();
    // The watcher's news of the journal can come before its news of the set, so a run may be
    // over the set as shown before the newest entry's change. Blamed there, that entry would
    // become the baseline, and the run that does see its change would find no new entry to
    // blame: only a run over memories that hold the change takes the journal's word.
    let blame = backend
        .newest_change_in_place(&request.corpus.memories)
        .ok()
        .flatten()
        .map(|entry| entry.id);
    let corpus = request.corpus;
    let cases = FolderEval::open(open).and_then(|folder| eval::load_cases(folder.state()));
    let (cases, results, error) = run(&corpus, cases);
    let effects = if cases.is_empty() {
        Vec::new()
    } else {
        effects(&*backend, &corpus, &request.proposals, &cases)
    };
    Evaluated {
        memories: corpus.memories,
        cases,
        results,
        effects,
        blame,
        error,
    }
}

/// What approving each of `proposals` would change (one whose plan does not read is left
/// out: the Proposals view says what is wrong with it).
fn effects(
    backend: &dyn Backend,
    corpus: &Corpus,
    proposals: &[Proposal],
    cases: &[Case],
) -> Vec<(String, CaseChanges)> {
    proposals
        .iter()
        .filter_map(|proposal| {
            let after = corpus.after(backend, proposal).ok()?;
            let changes = CaseChanges::between(corpus, &after, cases, DEFAULT_K);
            Some((proposal.id.clone(), changes))
        })
        .collect()
}

fn run(
    corpus: &Corpus,
    cases: Result<Vec<Case>, EvalError>,
) -> (Vec<Case>, Vec<CaseResult>, Option<String>) {
    let (cases, error) = match cases {
        Ok(cases) => (cases, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let results = eval::run_keyword(corpus, &cases, DEFAULT_K).results;
    (cases, results, error)
}

type CaseKey = (String, Vec<String>, Vec<String>);

fn key(case: &CaseResult) -> CaseKey {
    (case.query.clone(), case.expect.clone(), case.forbid.clone())
}

/// A regression to say: new, or the one said before with its journal entry now known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announcement {
    pub text: String,
    /// What was said of it before its entry was known (said again, it replaces that).
    pub restates: Option<String>,
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
    /// Regressions announced before their journal entry was written (it follows the commit),
    /// with what they said: blamed on it when a later run finds it.
    unblamed: Vec<(CaseKey, String)>,
    evaluated: Option<Vec<Memory>>,
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

    /// Whether the last run was over exactly `memories` (false before the first).
    pub fn ran_on(&self, memories: &[Memory]) -> bool {
        self.evaluated.as_deref() == Some(memories)
    }

    /// Takes a finished run; returns one announcement per case that passed before a change to
    /// the set and does not now (and, for one announced before its journal entry was written,
    /// the same blamed on the entry, restating the first).
    pub fn apply(&mut self, done: Evaluated) -> Vec<Announcement> {
        self.running = false;
        let set_changed = self
            .evaluated
            .as_ref()
            .is_some_and(|before| *before != done.memories);
        let fresh_blame = done.blame.filter(|id| Some(*id) != self.last_blame);
        let since = match fresh_blame {
            Some(id) => format!("since #{id}"),
            None => "since the last change".to_owned(),
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
            let late_blame = (!set_changed && fresh_blame.is_some())
                .then(|| self.unblamed.iter().find(|(k, _)| *k == key))
                .flatten()
                .map(|(_, said)| said.clone());
            if verdict == Verdict::Pass {
                self.regressed.remove(&key);
            } else if (set_changed && passed) || late_blame.is_some() {
                let text = format!("eval: '{}' {} {since}", label(result), what_broke(result));
                self.regressed.insert(key.clone(), since.clone());
                if fresh_blame.is_none() {
                    self.unblamed.push((key.clone(), text.clone()));
                }
                announcements.push(Announcement {
                    text,
                    restates: late_blame,
                });
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
        self.evaluated = Some(done.memories);
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
