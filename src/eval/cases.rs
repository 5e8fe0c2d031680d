//! The case file `evals.json`: a set's own regression queries.
//!
//! ```json
//! {"version": 1, "cases": [{"query": "database tests", "expect": ["no-mocked-database"],
//!   "forbid": [], "note": "why this case exists"}]}
//! ```
//!
//! It is read strictly (unknown keys, blank queries, repeated names are refused with the
//! case's number and the rule) and replaced atomically; `add` and `remove` run under the
//! store's lock so that two editors never lose each other's case.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::error::EvalError;
use super::run::Corpus;
use super::state::{CASES_FILE, EvalState};
use crate::formats::{Backend, FormatError};
use crate::session::selection::Candidate;

pub const CASES_VERSION: u64 = 1;
/// A case file beyond this is refused rather than read.
pub const MAX_CASES_BYTES: usize = 4 * 1024 * 1024;
pub const MAX_CASES: usize = 10_000;
pub const MAX_QUERY_BYTES: usize = 2_000;
pub const MAX_NOTE_BYTES: usize = 2_000;
/// Longer than any name a memory set allows; a name is one token (no spaces).
pub const MAX_NAME_BYTES: usize = 200;

/// One regression query: the names it must select (`expect`) and must not (`forbid`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub query: String,
    #[serde(default)]
    pub expect: Vec<String>,
    #[serde(default)]
    pub forbid: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    version: u64,
    cases: Vec<Case>,
}

impl Case {
    /// A validated case.
    pub fn new(
        query: impl Into<String>,
        expect: Vec<String>,
        forbid: Vec<String>,
        note: Option<String>,
    ) -> Result<Self, EvalError> {
        let case = Self {
            query: query.into(),
            expect,
            forbid,
            note: note.filter(|n| !n.trim().is_empty()),
        };
        case.validate()
            .map_err(|rule| EvalError::InvalidCase { rule })?;
        Ok(case)
    }

    /// The case's rules; the message names the broken one.
    pub fn validate(&self) -> Result<(), String> {
        if self.query.trim().is_empty() {
            return Err("the query is blank".into());
        }
        if self.query.len() > MAX_QUERY_BYTES {
            return Err(format!(
                "the query is {} bytes, more than {MAX_QUERY_BYTES}",
                self.query.len()
            ));
        }
        if self.expect.is_empty() && self.forbid.is_empty() {
            return Err("it expects nothing and forbids nothing; give at least one name".into());
        }
        for (field, names) in [("expect", &self.expect), ("forbid", &self.forbid)] {
            let mut seen = HashSet::new();
            for name in names {
                check_name(name).map_err(|rule| format!("{field} name {name:?} {rule}"))?;
                if !seen.insert(name) {
                    return Err(format!("{field} lists {name:?} twice"));
                }
            }
        }
        if let Some(both) = self.expect.iter().find(|n| self.forbid.contains(n)) {
            return Err(format!("{both:?} is both expected and forbidden"));
        }
        if let Some(note) = &self.note
            && note.len() > MAX_NOTE_BYTES
        {
            return Err(format!(
                "the note is {} bytes, more than {MAX_NOTE_BYTES}",
                note.len()
            ));
        }
        Ok(())
    }

    /// The case as one line: the query, shortened, for lists and messages.
    pub fn label(&self) -> String {
        const MAX_CHARS: usize = 40;
        let line = self.query.split_whitespace().collect::<Vec<_>>().join(" ");
        if line.chars().count() <= MAX_CHARS {
            line
        } else {
            let mut short: String = line.chars().take(MAX_CHARS - 1).collect();
            short.push('…');
            short
        }
    }
}

fn check_name(name: &str) -> Result<(), &'static str> {
    if name.is_empty() {
        return Err("is empty");
    }
    if name.len() > MAX_NAME_BYTES {
        return Err("is too long to be a memory name");
    }
    if name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("holds a space or a control character; a memory name is one word");
    }
    Ok(())
}

/// The cases in `state`, in file order; no file means no cases.
pub fn load_cases(state: &EvalState) -> Result<Vec<Case>, EvalError> {
    let path = state.cases_path();
    let Some(bytes) = state.read(false, CASES_FILE, MAX_CASES_BYTES)? else {
        return Ok(Vec::new());
    };
    let invalid = |rule: String| EvalError::CasesInvalid {
        path: path.clone(),
        rule,
    };
    // serde would read a top-level array as the struct's fields in order, and say so badly.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        return Err(invalid(
            "the file must be an object {\"version\": 1, \"cases\": [...]}, not an array".into(),
        ));
    }
    let file: CaseFile = serde_json::from_slice(&bytes).map_err(|e| invalid(e.to_string()))?;
    if file.version != CASES_VERSION {
        return Err(invalid(format!(
            "version {} is not supported (this memwb reads version {CASES_VERSION})",
            file.version
        )));
    }
    if file.cases.len() > MAX_CASES {
        return Err(invalid(format!(
            "{} cases, more than {MAX_CASES}",
            file.cases.len()
        )));
    }
    for (i, case) in file.cases.iter().enumerate() {
        case.validate()
            .map_err(|rule| invalid(format!("case {} ({:?}): {rule}", i + 1, case.label())))?;
    }
    Ok(file.cases)
}

/// Replaces the case file with `cases` (validated first: nothing is written otherwise).
pub fn save_cases(state: &EvalState, cases: &[Case]) -> Result<(), EvalError> {
    for (i, case) in cases.iter().enumerate() {
        case.validate().map_err(|rule| EvalError::InvalidCase {
            rule: format!("case {}: {rule}", i + 1),
        })?;
    }
    let file = CaseFile {
        version: CASES_VERSION,
        cases: cases.to_vec(),
    };
    let mut bytes = serde_json::to_vec_pretty(&file).map_err(|e| EvalError::InvalidCase {
        rule: format!("could not encode the cases: {e}"),
    })?;
    bytes.push(b'\n');
    state.replace(false, CASES_FILE, &bytes)
}

/// Appends `case` (every name must be a memory's name in `folder` now) and returns its
/// number (from 1), under the lock every memwb change to the folder takes.
pub fn add_case(folder: &dyn Backend, state: &EvalState, case: Case) -> Result<usize, EvalError> {
    case.validate()
        .map_err(|rule| EvalError::InvalidCase { rule })?;
    let _lock = folder.lock_changes()?;
    let corpus = Corpus::read(folder).map_err(FormatError::from)?;
    add_case_locked(state, case, &|name| corpus.contains(name))
}

/// [`add_case`] for a caller that holds the lock guarding `state` (a Claude Code folder's state
/// lock) and knows the names now in its set (`known`).
pub fn add_case_locked(
    state: &EvalState,
    case: Case,
    known: &dyn Fn(&str) -> bool,
) -> Result<usize, EvalError> {
    case.validate()
        .map_err(|rule| EvalError::InvalidCase { rule })?;
    for name in case.expect.iter().chain(&case.forbid) {
        if !known(name) {
            return Err(EvalError::InvalidCase {
                rule: format!("no memory named {name:?}"),
            });
        }
    }
    let mut cases = load_cases(state)?;
    if cases.len() >= MAX_CASES {
        return Err(EvalError::InvalidCase {
            rule: format!("there are already {MAX_CASES} cases"),
        });
    }
    cases.push(case);
    save_cases(state, &cases)?;
    Ok(cases.len())
}

/// Removes case `number` (from 1, as listed) and returns it, under the lock every memwb
/// change to `folder` takes.
pub fn remove_case(
    folder: &dyn Backend,
    state: &EvalState,
    number: usize,
) -> Result<Case, EvalError> {
    let _lock = folder.lock_changes()?;
    remove_case_locked(state, number)
}

/// [`remove_case`] for a caller that holds the lock guarding `state`.
pub fn remove_case_locked(state: &EvalState, number: usize) -> Result<Case, EvalError> {
    let mut cases = load_cases(state)?;
    if number == 0 || number > cases.len() {
        return Err(EvalError::NoSuchCase {
            number,
            count: cases.len(),
        });
    }
    let removed = cases.remove(number - 1);
    save_cases(state, &cases)?;
    Ok(removed)
}

/// Self-retrieval cases: each memory's description, as the query, must select it. A memory
/// without a description (a Claude Code topic file can lack one) has no such case.
pub fn self_cases<R: Candidate>(records: &[R]) -> Vec<Case> {
    records
        .iter()
        .filter(|record| !record.description().trim().is_empty())
        .map(|record| Case {
            query: record.description().to_owned(),
            expect: vec![record.name().to_owned()],
            forbid: Vec::new(),
            note: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(query: &str, expect: &[&str], forbid: &[&str]) -> Case {
        Case {
            query: query.into(),
            expect: expect.iter().map(|s| (*s).into()).collect(),
            forbid: forbid.iter().map(|s| (*s).into()).collect(),
            note: None,
        }
    }

    #[test]
    fn case_rules_name_what_is_wrong() {
        assert!(case("tabs", &["a"], &[]).validate().is_ok());
        assert!(case("tabs", &[], &["b"]).validate().is_ok());
        let broken = [
            (case("  ", &["a"], &[]), "blank"),
            (case("q", &[], &[]), "expects nothing"),
            (case("q", &["a", "a"], &[]), "twice"),
            (case("q", &["a"], &["a"]), "both expected and forbidden"),
            (case("q", &["two words"], &[]), "one word"),
            (case("q", &[""], &[]), "is empty"),
            (case(&"x".repeat(MAX_QUERY_BYTES + 1), &["a"], &[]), "bytes"),
        ];
        for (case, rule) in broken {
            let error = case.validate().unwrap_err();
            assert!(error.contains(rule), "{error:?} should say {rule:?}");
        }
    }

    #[test]
    fn labels_are_one_short_line() {
        assert_eq!(
            case("database\ntests", &["a"], &[]).label(),
            "database tests"
        );
        let long = case(&"word ".repeat(20), &["a"], &[]).label();
        assert_eq!(long.chars().count(), 40);
        assert!(long.ends_with('…'));
    }
}
