//! Running the cases: each selector over the same set, scored case by case.

use serde::Serialize;

use super::cache::{MeteredClient, ModelCost, ReplyCache};
use super::cases::Case;
use super::metrics::{CaseResult, Scores};
use crate::formats::{Backend, ReadError, Reading};
use crate::memory::Memory;
use crate::session::selection::{Candidate, ask_selector};
use crate::session::{ModelClient, Selector};

/// The set the cases run against: its memories in the set's order (whatever the format) and
/// the catalog a model selector is shown.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Corpus {
    pub memories: Vec<Memory>,
    pub catalog: String,
}

impl Corpus {
    /// The set `backend` reads now, whatever its format: its memories that read, in the set's
    /// order, and the catalog a model selector is shown.
    pub fn read(backend: &dyn Backend) -> Result<Self, ReadError> {
        Ok(Self::from(backend.read()?))
    }

    pub fn contains(&self, name: &str) -> bool {
        self.memories.iter().any(|m| m.name == name)
    }
}

impl From<Reading> for Corpus {
    fn from(reading: Reading) -> Self {
        Self {
            memories: reading.candidates(),
            catalog: reading.catalog,
        }
    }
}

/// One selector's results and means; a model run also says what it cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SelectorRun {
    pub results: Vec<CaseResult>,
    pub scores: Scores,
    pub cost: Option<ModelCost>,
}

impl SelectorRun {
    fn of(results: Vec<CaseResult>, cost: Option<ModelCost>) -> Self {
        Self {
            scores: Scores::of(&results),
            results,
            cost,
        }
    }

    /// Cases whose selection failed their expectation (broken cases excluded).
    pub fn failures(&self) -> usize {
        self.results
            .iter()
            .filter(|r| r.verdict() == super::Verdict::Fail)
            .count()
    }
}

/// Runs `cases` with the reference's keyword fallback, keeping `k` names per case.
pub fn run_keyword(corpus: &Corpus, cases: &[Case], k: usize) -> SelectorRun {
    let keyword = Selector::keyword();
    let results = cases
        .iter()
        .map(|case| {
            let selection = keyword.select(&corpus.memories, &corpus.catalog, &case.query, k);
            score(corpus, case, selection.names(), k, None)
        })
        .collect();
    SelectorRun::of(results, None)
}

/// Runs `cases` with the model selector (asked for at most `k` names). A reply that breaks
/// the selector's rules, or a model that fails, fails that case alone: it selected nothing.
/// With a cache, replies already kept are reused and new ones kept.
pub fn run_model(
    corpus: &Corpus,
    cases: &[Case],
    k: usize,
    client: &dyn ModelClient,
    cache: Option<ReplyCache>,
) -> SelectorRun {
    let metered = MeteredClient::new(client, cache);
    let results = cases
        .iter()
        .map(|case| {
            if corpus.memories.is_empty() {
                // An empty set selects nothing and asks nobody, as in a session.
                return score(corpus, case, Vec::new(), k, None);
            }
            match ask_selector(&metered, &corpus.memories, &corpus.catalog, &case.query, k) {
                Ok(records) => {
                    let names = records.iter().map(|r| r.name().to_owned()).collect();
                    score(corpus, case, names, k, None)
                }
                Err(error) => score(corpus, case, Vec::new(), k, Some(error.to_string())),
            }
        })
        .collect();
    SelectorRun::of(results, Some(metered.cost()))
}

fn score(
    corpus: &Corpus,
    case: &Case,
    selected: Vec<String>,
    k: usize,
    error: Option<String>,
) -> CaseResult {
    CaseResult::score(case, &|name| corpus.contains(name), selected, k, error)
}
