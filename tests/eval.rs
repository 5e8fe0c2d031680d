//! Selection evaluation as a library: the case file (validation, non-regular files, atomic
//! writes), broken names, every metric on hand-computed examples, self-retrieval, the model
//! selector through the command client (an invalid reply fails that case only), the cache.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::{open, record, workspace};
use memwb::eval::{
    self, Case, CaseResult, Corpus, EvalError, EvalState, ReplyCache, Scores, Verdict,
};
use memwb::formats::StatePlace;
use memwb::formats::memory::MemoryBackend;
use memwb::session::CommandClient;
use memwb::store::Store;

mod cases;
mod metrics;
mod runs;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

fn case(query: &str, expect: &[&str], forbid: &[&str]) -> Case {
    Case::new(query, names(expect), names(forbid), None).expect("valid case")
}

/// A store holding the given (name, description) records.
fn seeded(dir: &Path, records: &[(&str, &str)]) -> Store {
    let store = open(dir);
    store
        .extend(records.iter().map(|(n, d)| record(n, d, "body")).collect())
        .expect("seed");
    store
}

fn write_cases(state: &EvalState, text: &str) {
    std::fs::create_dir_all(state.dir()).unwrap();
    std::fs::write(state.cases_path(), text).unwrap();
}

fn cases_error(state: &EvalState) -> String {
    match eval::load_cases(state) {
        Err(error) => error.to_string(),
        Ok(cases) => panic!("expected an error, read {cases:?}"),
    }
}

fn close(actual: Option<f64>, expected: f64) -> bool {
    actual.is_some_and(|a| (a - expected).abs() < 1e-12)
}
