//! Running a selection for the Query pane.

use super::panes::query::QueryResult;
use crate::store::Record;

/// Which records the agent would select for `query`, and the text it would inject.
pub fn select(query: &str, _records: &[Record], _catalog: &str) -> QueryResult {
    QueryResult {
        query: query.to_owned(),
        names: Vec::new(),
        rendered: String::new(),
        how: "unavailable".into(),
        error: Some(
            "the keyword fallback is not in this build yet (src/session/selection.rs)".into(),
        ),
    }
}
