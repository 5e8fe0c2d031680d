//! Running a selection for the Query pane through the session's one [`Selector`], exactly as
//! `memwb select` does: the model when the `MEMWB_MODEL_*` environment configures one, else
//! the reference's keyword fallback; settings that are contradictory or unusable are refused
//! (nothing is selected and the pane says why), as `memwb select` refuses them.

use super::panes::query::QueryResult;
use crate::session::Selector;
use crate::session::selection::{Candidate, DEFAULT_MAX_SELECTED, SELECTION_FAILED};

/// Which records the agent would select for `query` and the text it would inject. `catalog`
/// is the set's MEMORY.md text, `None` when the set is unreadable (an agent then selects
/// nothing). `env` looks up environment variables.
pub fn select_with<R: Candidate>(
    query: &str,
    records: &[R],
    catalog: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> QueryResult {
    let nothing = |error: String| QueryResult {
        query: query.to_owned(),
        names: Vec::new(),
        rendered: String::new(),
        how: "nothing".into(),
        error: Some(error),
    };
    let Some(catalog) = catalog else {
        return nothing(format!(
            "{SELECTION_FAILED}: the set is unreadable, so an agent selects nothing"
        ));
    };
    let selector = match Selector::from_env(env) {
        Ok(selector) => selector,
        Err(e) => {
            return nothing(format!(
                "{e}; nothing selected (memwb select refuses them too)"
            ));
        }
    };
    let selection = selector.select(records, catalog, query, DEFAULT_MAX_SELECTED);
    QueryResult {
        query: query.to_owned(),
        names: selection.names(),
        rendered: selection.rendered,
        how: if selection.fallback {
            "keyword fallback"
        } else {
            "model"
        }
        .into(),
        error: selection.error,
    }
}

/// [`select_with`] on the process environment.
pub fn select<R: Candidate>(query: &str, records: &[R], catalog: Option<&str>) -> QueryResult {
    select_with(query, records, catalog, &|name| std::env::var(name).ok())
}
