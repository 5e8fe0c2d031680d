//! The reference's keyword fallback and rendering, case by case from `fixtures/selection.json`,
//! through the free functions and through a session whose selector fails.

use crate::common;

use std::sync::Arc;

use common::*;
use memwb::session::selection::{SELECTION_FAILED, keyword_fallback, render_selected, select};
use memwb::session::{MemorySession, ModelClient, ModelError, ModelReply, ModelRequest};
use memwb::store::{Record, RecordInput};
use serde::Deserialize;

/// `fixtures/selection.json`: the reference's sets and the cases run over them.
#[derive(Deserialize)]
struct SelectionCases {
    sets: Vec<Vec<RecordInput>>,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    set: usize,
    query: String,
    selected: Vec<String>,
    rendered: String,
    last_error: Option<String>,
}

fn load() -> (Vec<Vec<Record>>, Vec<Case>) {
    let text = std::fs::read_to_string(fixture("selection.json")).expect("fixture");
    let fixture: SelectionCases = serde_json::from_str(&text).expect("fixture json");
    let sets = fixture
        .sets
        .iter()
        .map(|set| {
            set.iter()
                .map(|input| Record::from_input(input).expect("valid fixture record"))
                .collect()
        })
        .collect();
    assert!(fixture.cases.len() >= 20, "the fixture has all its cases");
    (sets, fixture.cases)
}

fn names(records: &[Record]) -> Vec<String> {
    records.iter().map(|r| r.name().to_owned()).collect()
}

struct Failing;

impl ModelClient for Failing {
    fn complete(&self, _: &ModelRequest) -> Result<ModelReply, ModelError> {
        Err(ModelError::Other("selector unavailable".into()))
    }
}

#[test]
fn free_functions_match_every_fixture_case() {
    let (sets, cases) = load();
    for case in &cases {
        let records = &sets[case.set];
        let chosen = keyword_fallback(records, &case.query, 5);
        assert_eq!(
            names(&chosen),
            case.selected,
            "set {} query {:?}",
            case.set,
            case.query
        );
        assert_eq!(
            render_selected(&chosen),
            case.rendered,
            "set {} query {:?}",
            case.set,
            case.query
        );
    }
}

#[test]
fn select_with_a_failing_model_matches_every_fixture_case() {
    let (sets, cases) = load();
    for case in &cases {
        let records = &sets[case.set];
        let selection = select(records, "catalog", &case.query, Some(&Failing), 5);
        assert_eq!(selection.names(), case.selected, "query {:?}", case.query);
        assert_eq!(selection.rendered, case.rendered, "query {:?}", case.query);
        assert!(selection.fallback);
        assert_eq!(selection.error.as_deref(), case.last_error.as_deref());
        assert_eq!(selection.error.as_deref(), Some(SELECTION_FAILED));
        assert!(
            selection
                .error_detail
                .as_deref()
                .unwrap_or("")
                .contains("selector unavailable")
        );
    }
}

#[test]
fn session_over_a_real_store_matches_every_fixture_case() {
    let (sets, cases) = load();
    let stores: Vec<_> = sets
        .iter()
        .map(|records| {
            let dir = workspace();
            open(dir.path()).extend(records.clone()).expect("extend");
            dir
        })
        .collect();
    for case in &cases {
        let mut session = MemorySession::new(open(stores[case.set].path()))
            .with_selector(Some(Arc::new(Failing)));
        session.begin_turn(&case.query);
        assert_eq!(
            names(session.selected()),
            case.selected,
            "query {:?}",
            case.query
        );
        assert_eq!(
            session.render_selected(),
            case.rendered,
            "query {:?}",
            case.query
        );
        assert_eq!(
            session.last_error(),
            case.last_error.as_deref(),
            "query {:?}",
            case.query
        );
        match session.before_model() {
            None => assert!(case.selected.is_empty()),
            Some(message) => {
                assert_eq!(message.role(), "system");
                assert_eq!(message.content(), case.rendered);
            }
        }
    }
}

#[test]
fn without_a_model_the_fallback_decides_and_no_error_is_reported() {
    let (sets, cases) = load();
    let case = cases
        .iter()
        .find(|c| c.set == 0 && !c.selected.is_empty())
        .expect("a case that selects");
    let selection = select(&sets[0], "", &case.query, None, 5);
    assert_eq!(selection.names(), case.selected);
    assert!(selection.fallback);
    assert_eq!(selection.error, None);
}

#[test]
fn empty_set_selects_nothing_without_asking() {
    let selection = select(&[], "", "database", Some(&Failing), 5);
    assert!(selection.selected.is_empty());
    assert_eq!(selection.rendered, "");
    assert!(!selection.fallback);
    assert_eq!(selection.error, None);
}
